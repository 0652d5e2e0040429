import type { RefusalCode, StageName } from './types.js';

/** The refusal code table (docs/pipeline.md, "Refusal codes"): each code, the stage that gives it, and what it means. */
export const REFUSAL_CODES: Readonly<Record<RefusalCode, { readonly stage: StageName | 'server'; readonly meaning: string }>> = {
  ERR_PARSE: { stage: 'parse', meaning: 'empty, or neither a URI nor a path, or a URI the parser rejects' },
  ERR_SCHEME: { stage: 'refusals', meaning: 'a scheme other than file' },
  ERR_HOST: { stage: 'refusals', meaning: 'a non-empty authority, localhost included (unless allowed)' },
  ERR_QUERY_OR_FRAGMENT: { stage: 'refusals', meaning: 'a ? or # marker, even empty' },
  ERR_UNC: { stage: 'refusals', meaning: 'a UNC path or file://host/share on Windows (unless allowed)' },
  ERR_DEVICE_PATH: { stage: 'refusals', meaning: '\\\\?\\ or \\\\.\\ Windows device paths; reserved device names however followed' },
  ERR_NUL: { stage: 'refusals', meaning: 'a NUL character, raw or %00' },
  ERR_ENCODED_SEPARATOR: { stage: 'refusals', meaning: '%2F, or %5C on Windows' },
  ERR_ILLEGAL_CHARACTER: { stage: 'refusals', meaning: 'a raw \\ or control character inside a URI; on Windows a : in a name after the drive (a stream)' },
  ERR_BAD_ENCODING: { stage: 'decode', meaning: 'a malformed escape or invalid UTF-8' },
  ERR_NOT_ABSOLUTE: { stage: 'normalise', meaning: 'a root that is not absolute' },
  ERR_SYMLINK_ESCAPE: { stage: 'realpath', meaning: 'a link whose chain lands outside the root' },
  ERR_SYMLINK_REFUSED: { stage: 'realpath', meaning: 'any link below the root under policy refuse' },
  ERR_SYMLINK_LOOP: { stage: 'realpath', meaning: 'a link loop' },
  ERR_SYMLINK_DANGLING: { stage: 'realpath', meaning: 'a link to nothing (a dangling link that points outside is an escape)' },
  ERR_PERMISSION: { stage: 'realpath', meaning: 'the filesystem would not let the path be resolved' },
  ERR_OUTSIDE: { stage: 'containment', meaning: 'the path is outside the root' },
  ERR_NOT_GRANTED: { stage: 'server', meaning: 'the named workspace was not granted' },
  ERR_READ_ONLY: { stage: 'server', meaning: 'a write to a read-only grant' },
  ERR_WORKSPACE_GONE: { stage: 'server', meaning: 'nothing is at the granted path now: the workspace folder was moved away or deleted' },
  ERR_WORKSPACE_REPLACED: { stage: 'server', meaning: 'another folder is at the granted path than the one the server opened (moved away, or deleted and made again)' },
  ERR_WORKSPACE_UNMOUNTED: { stage: 'server', meaning: "the workspace's filesystem is no longer mounted at the granted path" },
  ERR_CHANGED_SINCE_READ: { stage: 'server', meaning: 'a change to a file that changed on disk since this connection read it' },
  ERR_FILE_CHANGED: { stage: 'server', meaning: 'the file was saved by another program while the change was being made; nothing of the change was kept' },
};
