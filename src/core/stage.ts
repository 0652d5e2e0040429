import type { SplitPath } from './paths.js';
import type { SecretPolicy } from './secrets.js';
import type { AliasFamily, Spellings } from './spellings.js';
import type { FileSystemPort, LinkHop, Platform, Policy, RefusalCode, StageName, StageResult, StageStatus } from './types.js';

/** What a stage hands on: its row of the trace, and either the next stage's input or a refusal. */
export type StageOutcome<T> =
  | { readonly ok: true; readonly result: StageResult; readonly value: T }
  | ({ readonly ok: false; readonly result: StageResult; readonly code: RefusalCode; readonly reason: string } & RefusalDetail);

/** What a refusal of the realpath stage adds: the hops it followed and where the chain landed. */
export interface RefusalDetail {
  readonly links?: readonly LinkHop[] | undefined;
  readonly landed?: string | undefined;
}

export interface StageContext {
  readonly platform: Platform;
  readonly policy: Policy;
  /** Absent when the platform is simulated: nothing on this machine is consulted. */
  readonly fs: FileSystemPort | undefined;
  /** A root must stand on its own; a request may be relative to the root. */
  readonly role: 'root' | 'request';
  /** The host's neighbours (WSL, mapped drives), read from the system or simulated; none when absent. */
  readonly spellings?: Spellings | undefined;
  /** For a request, the root it is judged against (its lexical spelling). */
  readonly root?: SplitPath | undefined;
  /** For a request, the other spellings of the root's folder, found once when the root was prepared. */
  readonly aliases?: readonly AliasFamily[] | undefined;
  /** The workspace's secrets policy; none when absent (the stage is skipped). */
  readonly secrets?: SecretPolicy | undefined;
}

interface RowFields {
  readonly input: string;
  readonly output: string | null;
  readonly rule: string;
  readonly notes?: readonly string[];
}

function joinNotes(notes: readonly string[] | undefined): string {
  return notes === undefined || notes.length === 0 ? '' : notes.filter((note) => note !== '').join('; ');
}

export function row(stage: StageName, status: StageStatus, fields: RowFields): StageResult {
  return { stage, status, input: fields.input, output: fields.output, rule: fields.rule, note: joinNotes(fields.notes) };
}

export function passed<T>(stage: StageName, fields: RowFields, value: T): StageOutcome<T> {
  const status: StageStatus = fields.notes && fields.notes.length > 0 ? 'note' : 'pass';
  return { ok: true, result: row(stage, status, fields), value };
}

export function skipped<T>(stage: StageName, fields: RowFields, value: T): StageOutcome<T> {
  return { ok: true, result: row(stage, 'skip', fields), value };
}

export function refused<T>(
  stage: StageName,
  fields: Omit<RowFields, 'output'>,
  code: RefusalCode,
  reason: string,
  detail: RefusalDetail = {},
): StageOutcome<T> {
  const result: StageResult = { stage, status: 'refuse', input: fields.input, output: detail.landed ?? null, rule: fields.rule, note: joinNotes(fields.notes) };
  return { ok: false, result, code, reason, links: detail.links, landed: detail.landed };
}
