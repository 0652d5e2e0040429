// The workspace audit's findings, each one click from its trace.
import type { AuditFinding, AuditSummary } from '../../src/shared/messages.js';
import { visible } from '../../src/core/visible.js';
import { renderAudits } from '../render.js';
import { selectRoot } from './form.js';
import { page, ui } from './state.js';
import { bringTraceIntoView, changed, markChosen } from './trace.js';

/** An audit finding: trace its entry against the audited folder, on this machine. */
function traceFinding(root: string, path: string, button: HTMLElement | null): void {
  ui.input.value = path;
  selectRoot(root);
  if (page.host !== null) ui.platform.value = page.host;
  markChosen(button);
  changed(true);
  bringTraceIntoView();
}

export function pickFinding(audit: AuditSummary, finding: AuditFinding, button: HTMLElement): void {
  traceFinding(audit.root, finding.path, button);
}

/** A finding chosen in the Problems panel: traced as clicking it in the list traces it, and marked there when listed. */
export function loadFinding(root: string, path: string): void {
  const listed = Array.from(document.querySelectorAll<HTMLElement>('.audit-folder-result')).find((section) => section.dataset['root'] === root);
  const button = Array.from(listed?.querySelectorAll<HTMLElement>('button.finding') ?? []).find((candidate) => candidate.title === `Trace ${visible(path)}`);
  traceFinding(root, path, button ?? null);
}

export function showAudits(audits: readonly AuditSummary[], running: boolean): void {
  renderAudits(ui.audits, audits, pickFinding);
  ui.auditRun.disabled = running;
  ui.auditStatus.textContent = running ? 'Auditing… (progress in the notification)' : '';
}
