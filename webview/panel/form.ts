// The form: reading and writing the controls (input, root, "Decided by", "As seen by", platform,
// policy), and the state saved from them.
import type { DeciderName, PanelState, Platform, Policy, RootChoice, ToolName } from '../../src/shared/messages.js';
import { accessIn } from '../../src/deciders/tools.js';
import { visible } from '../../src/core/visible.js';
import { DEFAULT_TOOL, isToolName, PATH_TOOL_NAMES } from '../../src/shared/operations.js';
import { isPlatform, page, SERVER, ui, vscode } from './state.js';

/** The root picker's last option: any root, typed in. */
export const CUSTOM = '__custom__';

export function currentRoot(): string {
  return ui.root.value === CUSTOM ? ui.rootCustom.value : ui.root.value;
}

export function currentPolicy(): Policy {
  return {
    localhost: ui.localhost.checked ? 'allow' : 'refuse',
    unc: ui.unc.checked ? 'allow' : 'refuse',
    case: ui.case.value === 'sensitive' || ui.case.value === 'insensitive' ? ui.case.value : 'auto',
    symlinks: ui.symlinks.value === 'refuse' ? 'refuse' : 'contain',
  };
}

export function currentPlatform(): Platform {
  return isPlatform(ui.platform.value) ? ui.platform.value : 'linux';
}

export function currentTool(): string {
  return page.pendingChoice?.tool ?? (ui.tool.value || DEFAULT_TOOL);
}

export function currentDecider(): DeciderName {
  return page.pendingChoice?.decider ?? (page.deciders.find((decider) => decider.name === ui.decider.value)?.name ?? SERVER);
}

/** This server's tool for a request: "Run on the server" and the operation a trace explains. */
export function serverTool(): ToolName | null {
  const tool = currentTool();
  return currentDecider() === SERVER && isToolName(tool) ? tool : null;
}

/**
 * Chooses a program in "Decided by" and a tool in "As seen by": the tools offered are the
 * program's own and, for another program, this server's (taken by what they do). A tool it does
 * not offer becomes its first of the same access, so a change stays a change.
 */
export function choose(decider: DeciderName, tool: string): void {
  const choice = page.deciders.find((candidate) => candidate.name === decider);
  if (choice === undefined && page.deciders.length > 0 && decider !== SERVER) {
    // A program no longer modelled (a saved state): this server.
    choose(SERVER, tool);
    return;
  }
  if (choice === undefined) {
    // Before `init`: only this server's tools are on the page; the rest waits for the programs.
    page.pendingChoice = decider === SERVER && isToolName(tool) ? null : { decider, tool };
    if (page.pendingChoice === null) ui.tool.value = tool;
    return;
  }
  page.pendingChoice = null;
  ui.decider.value = decider;
  const own = [...choice.tools.read, ...choice.tools.change];
  const group = (label: string, names: readonly string[]) => {
    const element = document.createElement('optgroup');
    element.label = label;
    element.append(...names.map((name) => new Option(name, name)));
    return element;
  };
  if (decider === SERVER) ui.tool.replaceChildren(...PATH_TOOL_NAMES.map((name) => new Option(name, name)));
  else ui.tool.replaceChildren(group(`${choice.program}'s tools`, own), group("This server's tools, as it takes them", PATH_TOOL_NAMES));
  const offered = decider === SERVER ? (PATH_TOOL_NAMES as readonly string[]) : [...own, ...PATH_TOOL_NAMES];
  ui.tool.value = offered.includes(tool) ? tool : choice.tools[accessIn(page.deciders, tool) ?? 'read'][0] ?? DEFAULT_TOOL;
}

/** "Decided by"'s choices, from `init`. */
export function fillDeciders(): void {
  const chosen = currentDecider();
  const tool = currentTool();
  ui.decider.replaceChildren(...page.deciders.map((decider) => new Option(decider.name === SERVER ? `${decider.program} (this server)` : decider.program, decider.name)));
  choose(page.deciders.some((decider) => decider.name === chosen) ? chosen : SERVER, tool);
}

function currentState(): PanelState {
  return {
    input: ui.input.value,
    root: page.pendingRoot ?? currentRoot(),
    platform: currentPlatform(),
    policy: currentPolicy(),
    tool: currentTool(),
    decider: currentDecider(),
    hideUnchanged: ui.hideUnchanged.checked,
    history: { entries: page.history, index: page.historyIndex },
    feed: page.feed,
  };
}

export function saveState(): void {
  vscode.setState(currentState());
}

export function applyPolicy(policy: Policy): void {
  ui.localhost.checked = policy.localhost === 'allow';
  ui.unc.checked = policy.unc === 'allow';
  ui.case.value = policy.case;
  ui.symlinks.value = policy.symlinks;
}

export function showCustomRoot(): void {
  ui.rootCustom.hidden = ui.root.value !== CUSTOM;
}

/** Selects `root` in the picker, or puts it in the "Other…" field when it is not one of the roots. */
export function selectRoot(root: string): void {
  if (!page.initialised && page.roots.length === 0) {
    // The picker has no options yet: remember the root until `init` brings them.
    page.pendingRoot = root;
    return;
  }
  page.pendingRoot = null;
  const known = root !== CUSTOM && page.roots.some((choice) => choice.uri === root);
  if (known) {
    ui.root.value = root;
  } else {
    ui.root.value = CUSTOM;
    ui.rootCustom.value = root;
  }
  showCustomRoot();
}

export function rightsText(rights: RootChoice['rights']): string {
  return rights === 'none' ? 'not granted' : rights;
}

/** A folder's place on the chosen platform, when it is another than this machine's; null otherwise. */
function simulatedPlace(choice: RootChoice): string | null {
  const platform = currentPlatform();
  if (page.simulatedRoots === null || page.host === null || platform === page.host) return null;
  return page.simulatedRoots[platform].split('{name}').join(choice.label);
}

/** The root picker: each folder with its rights, and where it is put when another platform is simulated. */
export function fillRoots(): void {
  const chosen = ui.root.value;
  const options = page.roots.map((choice) => {
    const place = simulatedPlace(choice);
    return new Option(visible(`${choice.label} — ${rightsText(choice.rights)}${place === null ? '' : ` (as ${place})`}`), choice.uri);
  });
  options.push(new Option('Other…', CUSTOM));
  ui.root.replaceChildren(...options);
  if (chosen !== '' && options.some((option) => option.value === chosen)) ui.root.value = chosen;
}
