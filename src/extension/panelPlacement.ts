import * as vscode from 'vscode';

/**
 * Where the inspector opens: in the active editor's group, or beside it when the active tab is a
 * page the editor API does not describe (the walkthrough, the settings), so that the page whose
 * steps lead to the inspector stays in view. `besideOf` is the group it was opened beside.
 */
export interface Placement {
  readonly column: vscode.ViewColumn;
  readonly besideOf?: vscode.ViewColumn;
}

function placementByActiveTab(): Placement {
  const group = vscode.window.tabGroups.activeTabGroup;
  const active = group.activeTab;
  return active !== undefined && active.input === undefined ? { column: vscode.ViewColumn.Beside, besideOf: group.viewColumn } : { column: vscode.ViewColumn.Active };
}

/** How long the panel is waited for to become the active editor before a move is given up. */
const MOVE_WAIT_MS = 5_000;
/** A command handed to the page this recently is handed again to a page loaded again (a move takes up to MOVE_WAIT_MS, then loads). */
export const REPLAY_MS = 2 * MOVE_WAIT_MS;

/** The editor's own move of the active editor to another group (`moveActiveEditor`), which keeps it pinned. */
function moveActiveEditor(to: { readonly to: 'right' | 'position'; readonly by: 'group'; readonly value?: number }): void {
  void vscode.commands.executeCommand('moveActiveEditor', to);
}

/** The window's width when the inspector last did not fit beside a page, and the width last seen. */
let besideClippedAt: number | undefined;
let windowWidth: number | undefined;

/** Where to open: beside a page unless the window was too narrow for that the last time. */
export function openingPlacement(): Placement {
  const where = placementByActiveTab();
  const narrow = besideClippedAt !== undefined && besideClippedAt === windowWidth;
  return where.besideOf !== undefined && narrow ? { column: vscode.ViewColumn.Active } : where;
}

/** The panel's moves between editor groups, so that it ends beside the page it was opened from, or in its place. */
export class PanelPlacement implements vscode.Disposable {
  /** Waiting for the panel to become the active editor, to move it (whenActive). */
  private waiting: vscode.Disposable | undefined;

  /** `besideOf`: the group the panel was last opened beside, until its page has said whether it fits there. */
  constructor(
    private readonly panel: vscode.WebviewPanel,
    private besideOf: vscode.ViewColumn | undefined,
  ) {}

  /**
   * Brings a visible panel forward in its group. Beside a page, in a group a narrower window may
   * have pushed off the screen: true when its page should measure again (drawn).
   */
  reveal(): boolean {
    const where = placementByActiveTab();
    this.panel.reveal(this.panel.viewColumn);
    if (where.besideOf === undefined || this.panel.viewColumn === where.besideOf) return false;
    this.besideOf = where.besideOf;
    return true;
  }

  /**
   * Brings a hidden panel forward where a new one would open. Beside the active page, when it is
   * hidden behind that page in the same group: brought forward in its own group, then moved to
   * the group beside, as the editor's own move keeps it a pinned editor (one revealed straight in
   * another group would open there as a preview, which the next file opened replaces).
   */
  show(): void {
    const where = openingPlacement();
    this.besideOf = where.besideOf;
    const own = this.panel.viewColumn;
    this.panel.reveal(own);
    if (where.besideOf !== undefined && own === where.besideOf) this.whenActive(() => moveActiveEditor({ to: 'right', by: 'group' }));
  }

  /**
   * The page's first picture after it opened. Beside a page, in a window too narrow for two
   * groups, the editor keeps each group at its least width and pushes the new one past the
   * window's edge or under the secondary side bar: the inspector then takes the place of the page
   * it was opened beside. Once per opening, so a layout the person makes is never fought.
   */
  drawn(clipped: boolean, width: number): void {
    windowWidth = width;
    const column = this.besideOf;
    // Still in the page's group, before its move beside (show): the page drawn beside tells.
    if (column === undefined || this.panel.viewColumn === column) return;
    this.besideOf = undefined;
    besideClippedAt = clipped ? width : undefined;
    if (!clipped) return;
    // The move loads the page again: what this one was just handed goes to the next one too (REPLAY_MS).
    this.whenActive(() => moveActiveEditor({ to: 'position', by: 'group', value: column }));
  }

  /**
   * Runs `then` once the panel is the active editor (at most MOVE_WAIT_MS from now), as the
   * editor's move acts on the active editor. Another editor may have become the active one since
   * the panel opened (the page whose button opened it takes the focus back after the click): the
   * panel is brought forward again.
   */
  private whenActive(then: () => void): void {
    this.waiting?.dispose();
    if (this.panel.active) {
      then();
      return;
    }
    const listener = this.panel.onDidChangeViewState(() => {
      if (!this.panel.active) return;
      handle.dispose();
      then();
    });
    const timer = setTimeout(() => handle.dispose(), MOVE_WAIT_MS);
    const handle = new vscode.Disposable(() => {
      clearTimeout(timer);
      listener.dispose();
      if (this.waiting === handle) this.waiting = undefined;
    });
    this.waiting = handle;
    this.panel.reveal(this.panel.viewColumn);
  }

  dispose(): void {
    this.waiting?.dispose();
  }
}
