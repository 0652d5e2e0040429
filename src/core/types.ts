/** Platforms whose path rules the core knows. Passed in, never read from the host. */
export type Platform = 'linux' | 'darwin' | 'win32';
export const PLATFORMS: readonly Platform[] = ['linux', 'darwin', 'win32'];

export type StageName = 'parse' | 'refusals' | 'decode' | 'normalise' | 'alias' | 'case' | 'realpath' | 'containment' | 'secrets';
export const STAGES: readonly StageName[] = ['parse', 'refusals', 'decode', 'normalise', 'alias', 'case', 'realpath', 'containment', 'secrets'];

export type StageStatus = 'pass' | 'refuse' | 'note' | 'skip';
export type Verdict = 'inside' | 'outside' | 'refused';

/**
 * Refusal codes are API: tests, the webview, the refusal log and other tools match on them.
 * The table in docs/pipeline.md is the whole list.
 */
export type RefusalCode =
  | 'ERR_PARSE'
  | 'ERR_SCHEME'
  | 'ERR_FOREIGN_PATH'
  | 'ERR_HOST'
  | 'ERR_QUERY_OR_FRAGMENT'
  | 'ERR_UNC'
  | 'ERR_DEVICE_PATH'
  | 'ERR_NUL'
  | 'ERR_ENCODED_SEPARATOR'
  | 'ERR_ILLEGAL_CHARACTER'
  | 'ERR_BAD_ENCODING'
  | 'ERR_NOT_ABSOLUTE'
  | 'ERR_SYMLINK_ESCAPE'
  | 'ERR_SYMLINK_REFUSED'
  | 'ERR_SYMLINK_LOOP'
  | 'ERR_SYMLINK_DANGLING'
  | 'ERR_PERMISSION'
  | 'ERR_NAME_TOO_LONG'
  | 'ERR_OUTSIDE'
  | 'ERR_NOT_GRANTED'
  | 'ERR_READ_ONLY'
  | 'ERR_WORKSPACE_GONE'
  | 'ERR_WORKSPACE_REPLACED'
  | 'ERR_WORKSPACE_UNMOUNTED'
  | 'ERR_CHANGED_SINCE_READ'
  | 'ERR_FILE_CHANGED'
  | 'ERR_NOT_TEXT'
  | 'ERR_SECRET';

export interface Policy {
  /** `file://localhost/x`: RFC 8089 calls it the local host; refused by default so each file has one spelling. */
  readonly localhost: 'refuse' | 'allow';
  /** `\\host\share` and `file://host/share` on Windows: network shares, refused by default. */
  readonly unc: 'refuse' | 'allow';
  /** How names are compared: `auto` asks the filesystem (or the simulated platform's default). */
  readonly case: 'auto' | 'sensitive' | 'insensitive';
  /** `contain` follows a link below the root only if its chain lands inside; `refuse` refuses any link below the root. */
  readonly symlinks: 'contain' | 'refuse';
}

export const DEFAULT_POLICY: Policy = Object.freeze({
  localhost: 'refuse',
  unc: 'refuse',
  case: 'auto',
  symlinks: 'contain',
});

/** One stage's part of a decision. */
export interface StageResult {
  readonly stage: StageName;
  readonly status: StageStatus;
  readonly input: string;
  readonly output: string | null;
  /** The rule the stage applied, citing its source where there is one. */
  readonly rule: string;
  /** What the stage noticed: rewrites, simulated steps, literal `%`, link hops. Empty when nothing. */
  readonly note: string;
}

export interface Refusal {
  readonly code: RefusalCode;
  readonly stage: StageName | 'root' | 'server';
  readonly reason: string;
}

/** One link followed while resolving a path. */
export interface LinkHop {
  readonly link: string;
  readonly target: string;
}

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other' | 'missing';

/**
 * A lookup below the root that proves, as it looks, that no folder on the way to `path` is a
 * link (the server's anchor, which opens that folder once for the call and acts through it
 * after): what is at `path`, a link there not followed, or `missing` when its folder is there and
 * the name is not; undefined wherever the realpath stage must resolve the names itself.
 */
export type LinklessLookup = (path: string) => EntryKind | undefined;

/** Why an existing entry is offered as what the input probably meant (nearMisses.ts). */
export type NearMissWhy = 'case' | 'unicode' | 'percent-encoding' | 'trailing-dot-space' | 'root-name' | 'root-relative' | 'separator' | 'workspace' | 'other-system';
export const NEAR_MISS_WHYS: readonly NearMissWhy[] = ['case', 'unicode', 'percent-encoding', 'trailing-dot-space', 'root-name', 'root-relative', 'separator', 'workspace', 'other-system'];

/** An entry the input nearly named, and the spelling that would have worked. */
export interface NearMiss {
  /** The existing entry's absolute path; for `workspace`, the path as given, which lies in that workspace. */
  readonly path: string;
  /** `path` as a `file:` URI (`pathToFileURL`): the spelling to send instead. */
  readonly uri: string;
  readonly why: NearMissWhy;
  /** For `workspace` only: the URI of the granted workspace that holds `path`, as granted. */
  readonly workspace?: string;
}

export interface Trace {
  readonly input: string;
  readonly root: string;
  readonly rootPath: string | null;
  readonly platform: Platform;
  readonly simulated: boolean;
  readonly policy: Policy;
  /** How the root itself was converted (parse, refusals, decode, normalise). */
  readonly rootStages: readonly StageResult[];
  readonly stages: readonly StageResult[];
  readonly verdict: Verdict;
  /** The stage that decided: `containment` for a verdict reached normally, `root` when the root itself was refused. */
  readonly stage: StageName | 'root';
  readonly code: RefusalCode | null;
  readonly reason: string;
  /** The real path when realpath ran (for an escape, where the chain landed), otherwise the lexical path. */
  readonly path: string | null;
  readonly links: readonly LinkHop[];
  /** What is at `path` (`missing` for a target that does not exist yet); null when the filesystem was not consulted or could not resolve it. */
  readonly kind: EntryKind | null;
  /**
   * Existing entries the input nearly named. Always empty from `trace`/`traceAgainst`, which
   * never look for them; `withNearMisses` fills it for a trace refused, outside, or inside with
   * nothing there.
   */
  readonly nearMisses: readonly NearMiss[];
  /**
   * The secrets policy's word on a path inside (secrets.ts): the pattern that holds it, where the
   * pattern came from, and whether the person may consent (`ask`, "asks first") or not (`deny`,
   * "refused by policy"); either way the verdict is `refused`, with ERR_SECRET. Null otherwise.
   */
  readonly secret: SecretMatch | null;
}

/** A secret pattern that held a path, and what it decided. */
export interface SecretMatch {
  /** `ask`: the person may consent; `deny`: refused whatever the answer (a host's own deny rule). */
  readonly decision: 'ask' | 'deny';
  readonly pattern: string;
  /** Where the pattern came from, in words: `default`, a setting, a flag, a settings file and line. */
  readonly source: string;
  /** The path it matched, relative to the workspace with `/` between names (a folder's ends in `/`). */
  readonly path: string;
}

/** A held path's decision in words: reasons, listings and the inspector say it so. */
export const SECRET_DECISION_WORDS: Readonly<Record<SecretMatch['decision'], string>> = Object.freeze({ ask: 'asks first', deny: 'refused by policy' });

/** What the filesystem says about one name, without following a link at it. */
export type FsLookup =
  | { readonly kind: 'file' | 'directory' | 'symlink' | 'other'; readonly dev: bigint; readonly ino: bigint }
  | { readonly kind: 'missing' }
  | { readonly kind: 'error'; readonly errno: string };

/** The only I/O the core does. Implemented over `node:fs` in `src/host`, and by fakes in tests. */
export interface FileSystemPort {
  lstat(path: string): FsLookup;
  readlink(path: string): { readonly ok: true; readonly target: string } | { readonly ok: false; readonly errno: string };
  /**
   * The real path of an existing entry, every link on the way resolved (`realpath(3)`), or null
   * when it cannot be resolved. Optional, and only a shortcut: when it returns the path it was
   * given, no name of that path is a link, so the name-by-name walk would find nothing to follow.
   */
  realpath?(path: string): string | null;
  /**
   * The long name the filesystem stores for the last name of `path`, which may spell it as an
   * 8.3 short name (`PROGRA~1` for `Program Files`, Win32 naming rules); a link at the last name
   * is not followed. Null when nothing is there or the filesystem cannot tell. Optional: only
   * Windows volumes have short names, and only a win32 trace that is not simulated asks, and
   * only for names of the form `~<digit>`.
   */
  longName?(path: string): string | null;
  /**
   * At most `max` names of the entries in `folder` (no `.` or `..`), in the filesystem's order,
   * never reading the whole of a large folder; null when it cannot be listed. A link at `folder`
   * is not listed (null). Optional: without it, near misses are found only by looking up
   * spellings the input suggests.
   */
  listNames?(folder: string, max: number): readonly string[] | null;
}
