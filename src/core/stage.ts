import type { FileSystemPort, LinkHop, Platform, Policy, RefusalCode, StageName, StageResult, StageStatus } from './types.js';

/** What a stage hands on: its row of the trace, and either the next stage's input or a refusal. */
export type StageOutcome<T> =
  | { readonly ok: true; readonly result: StageResult; readonly value: T }
  | ({ readonly ok: false; readonly result: StageResult; readonly code: RefusalCode; readonly reason: string } & RefusalDetail);

/** What a refusal of the realpath stage adds: the hops it followed and where the chain landed. */
export interface RefusalDetail {
  readonly links?: readonly LinkHop[];
  readonly landed?: string;
}

export interface StageContext {
  readonly platform: Platform;
  readonly policy: Policy;
  /** Absent when the platform is simulated: nothing on this machine is consulted. */
  readonly fs: FileSystemPort | undefined;
  /** A root must stand on its own; a request may be relative to the root. */
  readonly role: 'root' | 'request';
}

interface RowFields {
  readonly input: string;
  readonly output: string | null;
  readonly rule: string;
  readonly notes?: readonly string[];
}

export function row(stage: StageName, status: StageStatus, fields: RowFields): StageResult {
  return {
    stage,
    status,
    input: fields.input,
    output: fields.output,
    rule: fields.rule,
    note: (fields.notes ?? []).filter((note) => note !== '').join('; '),
  };
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
  return { ok: false, result: row(stage, 'refuse', { ...fields, output: detail.landed ?? null }), code, reason, ...detail };
}

/** Shows invisible characters so a note or reason can name them. */
export function visible(text: string): string {
  return JSON.stringify(text);
}
