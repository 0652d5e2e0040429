import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { RefusalEntry } from '../shared/messages.js';

export const RECENT_REFUSALS = 100;

function parseLines(text: string): RefusalEntry[] {
  const entries: RefusalEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as Omit<RefusalEntry, 'event'> & { readonly event?: string };
      // A secret the person was asked about is no refusal: should they refuse, its refusal is a line of its own.
      if (entry.event === 'asked') continue;
      if (typeof entry.code === 'string' && typeof entry.time === 'string') entries.push(entry as RefusalEntry);
    } catch {
      // A line cut by rotation or a crash: skip it, keep the rest.
    }
  }
  return entries;
}

function readIfThere(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The newest refusals first, from the log and, when it holds too few, the rotated `.1`. */
export function readRecentRefusals(logPath: string, limit = RECENT_REFUSALS): RefusalEntry[] {
  let entries = parseLines(readIfThere(logPath));
  if (entries.length < limit) entries = [...parseLines(readIfThere(`${logPath}.1`)), ...entries];
  return entries.slice(-limit).reverse();
}

/**
 * Watches the server's refusal log: one reading per change, shared by the panel, the sidebar and
 * the status bar. Polling with `fs.watchFile` also sees a log that does not exist yet and one that
 * was just rotated.
 */
export class RefusalFeed implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<readonly RefusalEntry[]>();
  readonly onDidChange = this.changed.event;
  private latest: readonly RefusalEntry[];
  private readonly listener = () => {
    this.latest = readRecentRefusals(this.logPath);
    this.changed.fire(this.latest);
  };

  constructor(readonly logPath: string) {
    this.latest = readRecentRefusals(logPath);
    fs.watchFile(logPath, { interval: 500 }, this.listener);
  }

  /** The newest refusals first, as of the last change seen. */
  get entries(): readonly RefusalEntry[] {
    return this.latest;
  }

  dispose(): void {
    fs.unwatchFile(this.logPath, this.listener);
    this.changed.dispose();
  }
}
