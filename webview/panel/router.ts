// Messages from the extension, each to the section it concerns, and the state they restore.
import { assertNever, type ExtensionMessage, type PanelSection, type PanelState } from '../../src/shared/messages.js';
import { visible } from '../../src/core/visible.js';
import { DEFAULT_TOOL } from '../../src/shared/operations.js';
import { renderAnswer } from '../render.js';
import { loadFinding, showAudits } from './audit.js';
import { loadRefusal, savedFeed, showFeed } from './feed.js';
import { applyPolicy, choose, currentPolicy, currentRoot, fillDeciders, fillRoots, saveState, selectRoot } from './form.js';
import { savedHistory, updateHistoryButtons } from './history.js';
import { showGrants, showServer } from './protection.js';
import { isPanelState, page, SERVER, ui, vscode } from './state.js';
import { bringTraceIntoView, changed, markChosen, show, showDecided, traceNow, updateRun } from './trace.js';

/** Puts a saved state on the page: the form, the refusal list's filters and the history. */
export function applyState(state: PanelState): void {
  ui.input.value = state.input;
  ui.platform.value = state.platform;
  choose(state.decider ?? SERVER, state.tool ?? DEFAULT_TOOL);
  applyPolicy(state.policy);
  selectRoot(state.root);
  ui.hideUnchanged.checked = state.hideUnchanged === true;
  page.feed = savedFeed(state);
  showFeed();
  const saved = savedHistory(state);
  if (saved !== null) {
    page.history = [...saved.entries];
    page.historyIndex = saved.index;
    page.historyTyped = false;
  }
  updateHistoryButtons();
}

function onInit(message: Extract<ExtensionMessage, { type: 'init' }>): void {
  const first = !page.initialised;
  // Before the options are rebuilt: the root the user had, which a refresh keeps.
  const keptRoot = first ? page.pendingRoot : currentRoot();
  const previous = page.settings;
  page.roots = message.roots;
  page.settings = message.settings;
  page.host = message.hostPlatform;
  page.simulatedRoots = message.simulatedRoots;
  fillRoots();
  page.deciders = message.deciders;
  fillDeciders();
  page.initialised = true;
  if (message.state && isPanelState(message.state)) {
    applyState(message.state);
  } else if (first) {
    if (keptRoot === null) {
      // Nothing to restore: start from the host's platform, the settings and the first root.
      ui.platform.value = message.hostPlatform;
      applyPolicy(message.settings);
      selectRoot(page.roots[0]?.uri ?? '');
    } else {
      selectRoot(keptRoot);
    }
  } else {
    selectRoot(keptRoot ?? '');
    // A refresh: what the user typed and chose stays; a setting that changed takes effect.
    const now = currentPolicy();
    applyPolicy({
      localhost: previous && previous.localhost === message.settings.localhost ? now.localhost : message.settings.localhost,
      unc: previous && previous.unc === message.settings.unc ? now.unc : message.settings.unc,
      case: previous && previous.case === message.settings.case ? now.case : message.settings.case,
      symlinks: previous && previous.symlinks === message.settings.symlinks ? now.symlinks : message.settings.symlinks,
    });
  }
  if (message.grantNote === null) {
    ui.grantNote.hidden = true;
    ui.grantNote.textContent = '';
  } else {
    ui.grantNote.textContent = message.grantNote;
    ui.grantNote.hidden = false;
  }
  // The path opens the log, as the button beside it does.
  ui.logLabel.textContent = message.logPath === null ? "The server's refusal log is not available" : 'Refusal log: ';
  ui.logPath.textContent = visible(message.logPath ?? '');
  ui.logPath.hidden = message.logPath === null;
  ui.openLog.hidden = message.logPath === null;
  showGrants(message.roots, message.grantNote);
  page.layers = message.layers;
  showServer(message.server);
  saveState();
  updateRun();
  traceNow();
  // The platform may have come from the restored state: the picker says where folders are put on it.
  fillRoots();
  // A panel just opened is for typing into; a command that wants another section moves the keyboard after this.
  if (first) ui.input.focus();
}

function onInspect(input: string, root: string | null): void {
  ui.input.value = input;
  if (root !== null && page.roots.some((choice) => choice.uri === root)) selectRoot(root);
  markChosen(null);
  changed(true);
  // Asked for from outside the page (a command, the Explorer): wherever the page was, the trace comes into view.
  bringTraceIntoView();
}

/** A section brought into view by a command: the keyboard on its first entry, or on its heading. */
function showSection(section: PanelSection): void {
  page.sectionAfterTrace = null;
  // The protection section opens with what is granted, the layers that hold it below.
  const [title, list] = section === 'refusals' ? [ui.refusalsTitle, ui.refusals] : [ui.grantsTitle, ui.grants];
  (title.closest('section') ?? list).scrollIntoView({ block: 'start' });
  const first = section === 'refusals' ? list.querySelector('button') : null;
  if (first) {
    first.focus({ preventScroll: true });
  } else {
    title.tabIndex = -1;
    title.focus({ preventScroll: true });
  }
}

export function receive(message: ExtensionMessage): void {
  switch (message.type) {
    case 'init':
      onInit(message);
      return;
    case 'inspect':
      onInspect(message.input, message.root);
      return;
    case 'loadRefusal':
      loadRefusal(message.entry, null);
      return;
    case 'loadFinding':
      loadFinding(message.root, message.path);
      return;
    case 'server':
      showServer(message.server);
      return;
    case 'traceResult':
    case 'decidedResult':
      if (message.id !== page.lastId) return;
      if (message.type === 'traceResult') show(message.trace, page.requestedTool, message.serverNote, message.compared);
      else showDecided(message.verdict, message.compared);
      page.awaited = null;
      if (page.intoViewOnDrawn === message.id) bringTraceIntoView();
      if (page.sectionAfterTrace !== null) showSection(page.sectionAfterTrace);
      return;
    case 'refusals':
      page.feedEntries = message.entries;
      showFeed();
      return;
    case 'measure':
      reportDrawn();
      return;
    case 'showSection':
      // A trace drawn later above the section would push it out of view: it waits for the trace.
      if (page.awaited === page.lastId) page.sectionAfterTrace = message.section;
      else showSection(message.section);
      return;
    case 'audits':
      showAudits(message.audits, message.running);
      return;
    case 'copied': {
      const status = message.what === 'test-case' ? ui.copyStatus : page.fixCopyStatus;
      if (status !== null) status.textContent = !message.ok ? 'Could not copy' : message.what === 'test-case' ? 'Copied as one line of JSON' : 'Copied';
      return;
    }
    case 'toolAnswer':
      if (message.id === page.lastRunId) renderAnswer(ui.answer, message.tool, message.answer);
      return;
    default:
      assertNever(message);
  }
}

/**
 * Says once (at load, and when asked) whether the whole width of the page is within the window: the document's box, as the
 * window shows it, is cut by every frame and part around it (a group pushed past the window's
 * edge, or under a side bar, is cut there).
 */
export function reportDrawn(): void {
  const observer = new IntersectionObserver(([entry]) => {
    observer.disconnect();
    if (entry === undefined) return;
    const clipped = entry.boundingClientRect.width > 0 && entry.intersectionRect.width < entry.boundingClientRect.width - 1;
    // In a frame the window's own width, which the extension compares from one opening to the next.
    vscode.postMessage({ type: 'drawn', clipped, windowWidth: window.outerWidth });
  });
  observer.observe(document.documentElement);
}
