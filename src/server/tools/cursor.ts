import { MAX_WALK_DEPTH } from '../limits.js';

/**
 * Continuations: where an answer its budget cut short goes on. A cursor is opaque to the model,
 * which passes back the nextCursor it was given. Nothing in one is trusted: it only says where to
 * start in what the call's own path names, and every folder it names is opened again from the
 * checked starting folder, never through a link.
 */
type Continuation =
  | { readonly walk: readonly string[]; readonly within?: Within }
  | { readonly after: string }
  | { readonly offset: number };

/** Inside the file a walk goes on with: its name, and how many of its matches were given already. */
export interface Within {
  readonly name: string;
  readonly given: number;
}

/** The cursor of a walk cut short at `position` (WalkResult.position), inside its next file when `within` says so. */
export function walkCursor(position: readonly string[], within?: Within): string {
  return encode(within === undefined ? { walk: position } : { walk: position, within });
}

/** The cursor of a listing by name cut short after `name`. */
export function afterCursor(name: string): string {
  return encode({ after: name });
}

/** The cursor of a list cut short before its `offset`th item. */
export function offsetCursor(offset: number): string {
  return encode({ offset });
}

export function walkOf(cursor: string | undefined): readonly string[] | undefined {
  return walkWithinOf(cursor)?.walk;
}

export function walkWithinOf(cursor: string | undefined): { walk: readonly string[]; within: Within | undefined } | undefined {
  if (cursor === undefined) return undefined;
  const value = decode(cursor);
  if (!('walk' in value)) throw invalid('it is not from this tool');
  const names = value.walk;
  if (!Array.isArray(names) || names.length === 0 || names.length > MAX_WALK_DEPTH + 1) throw invalid('it names no place in a walk');
  if (!names.every((name, i) => validName(name) || (name === '' && i === names.length - 1))) throw invalid('it names no place in a walk');
  const within = value.within;
  if (within === undefined) return { walk: names, within: undefined };
  if (typeof within !== 'object' || within === null || !validName(within.name) || !Number.isSafeInteger(within.given) || within.given < 1) throw invalid('it names no place in a file');
  return { walk: names, within: { name: within.name, given: within.given } };
}

export function afterOf(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const value = decode(cursor);
  if (!('after' in value) || !validName(value.after)) throw invalid('it is not from this tool');
  return value.after;
}

export function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const value = decode(cursor);
  if (!('offset' in value) || !Number.isSafeInteger(value.offset) || value.offset < 0) throw invalid('it is not from this tool');
  return value.offset;
}

function encode(value: Continuation): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decode(cursor: string): Continuation {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null) return value as Continuation;
  } catch {
    // Worded below.
  }
  throw invalid('it does not decode');
}

function validName(name: unknown): name is string {
  return typeof name === 'string' && name !== '' && name.length <= 1024 && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

function invalid(why: string): Error {
  return Object.assign(new Error(`Invalid cursor (${why}): pass the nextCursor of the previous answer exactly, with the same path, or no cursor to start over.`), {
    code: 'EINVAL',
  });
}
