import type { RefusalCode, StageName } from './types.js';

/**
 * The refusal code table (docs/pipeline.md, "Refusal codes"): each code, the stage that gives it,
 * what it means, and what a person can do about it (the README's "Why was my path refused?").
 */
export const REFUSAL_CODES: Readonly<Record<RefusalCode, { readonly stage: StageName | 'server'; readonly meaning: string; readonly advice: string }>> = {
  ERR_PARSE: { stage: 'parse', meaning: 'empty, or a URI the parser rejects, or a URI with spaces or controls around it', advice: 'send a path relative to the workspace, or a `file:///` URI' },
  ERR_SCHEME: { stage: 'refusals', meaning: 'a scheme other than file', advice: 'send a path or a `file:///` URI; write a name with a colon as `./name:x` (Windows refuses a colon in a name)' },
  ERR_FOREIGN_PATH: { stage: 'refusals', meaning: "another system's path: a Windows drive or UNC path on Linux or macOS, a Linux or macOS path on Windows", advice: 'send the path as this system spells it: the reason gives it when it is known (inside WSL, `C:\\x` is `/mnt/c/x`; on Windows, WSL\'s `/mnt/c/x` is `C:\\x`)' },
  ERR_HOST: { stage: 'refusals', meaning: 'a non-empty authority, localhost included (unless allowed), or a drive letter where the host goes (file://C:/)', advice: 'send `file:///...` with three slashes; to accept the `localhost` spelling, turn on `boundaryInspector.allowLocalhost`' },
  ERR_QUERY_OR_FRAGMENT: { stage: 'refusals', meaning: 'a ? or # marker, even empty', advice: 'a `#` or `?` in a file name is `%23` or `%3F` in a URI, or send the name as a plain path' },
  ERR_UNC: { stage: 'refusals', meaning: 'a UNC path or file://host/share on Windows (unless allowed)', advice: 'turn on `boundaryInspector.allowUnc` if the workspace is on a network share' },
  ERR_DEVICE_PATH: { stage: 'refusals', meaning: '\\\\?\\ or \\\\.\\ Windows device paths; reserved device names however followed', advice: 'use an ordinary path; rename files that Windows reads as devices (the audit lists them as `not-portable`)' },
  ERR_NUL: { stage: 'refusals', meaning: 'a NUL character, raw or %00', advice: 'none: no file name holds one' },
  ERR_ENCODED_SEPARATOR: { stage: 'refusals', meaning: '%2F, or %5C on Windows', advice: 'write the separator as `/`' },
  ERR_ILLEGAL_CHARACTER: { stage: 'refusals', meaning: 'a raw \\ or control character inside a URI; on Windows a : in a name after the drive (a stream), or a folder name ending in a dot or a space', advice: 'percent-encode the character, or use `/`; streams are not served' },
  ERR_BAD_ENCODING: { stage: 'decode', meaning: 'a malformed escape or invalid UTF-8', advice: 'write a literal `%` as `%25` in a URI; a plain path is never decoded' },
  ERR_NOT_ABSOLUTE: { stage: 'normalise', meaning: 'a root that is not absolute', advice: 'give the root as an absolute path or a `file:///` URI' },
  ERR_SYMLINK_ESCAPE: { stage: 'realpath', meaning: 'a link whose chain lands outside the root', advice: 'the link is refused by design; add the folder it points to as a workspace folder and use the file there, or replace the link with a copy' },
  ERR_SYMLINK_REFUSED: { stage: 'realpath', meaning: 'any link below the root under policy refuse', advice: 'set it to `contain` to follow links that stay inside' },
  ERR_SYMLINK_LOOP: { stage: 'realpath', meaning: 'a link loop', advice: 'fix the links; the audit lists these as `link-loop`' },
  ERR_SYMLINK_DANGLING: { stage: 'realpath', meaning: 'a link to nothing (a dangling link that points outside is an escape)', advice: 'create its target or remove the link; the audit lists these as `link-dangling`' },
  ERR_PERMISSION: { stage: 'realpath', meaning: 'the filesystem would not let the path be resolved', advice: 'for `EACCES` or `EPERM`, give your user read and search rights on the folders along the path' },
  ERR_NAME_TOO_LONG: { stage: 'realpath', meaning: 'a name, or the whole path, is longer than the filesystem allows (ENAMETOOLONG)', advice: 'shorten the name' },
  ERR_OUTSIDE: { stage: 'containment', meaning: 'the path is outside the root', advice: 'use a path inside the folder; to grant another folder, add it to the workspace' },
  ERR_NOT_GRANTED: { stage: 'server', meaning: 'the named workspace was not granted', advice: 'open and trust the folder; the agent should name the workspace folder itself, as `list_workspaces` gives it, and put the rest in the path' },
  ERR_READ_ONLY: { stage: 'server', meaning: 'a write to a read-only grant', advice: 'remove the folder from `boundaryInspector.readOnlyFolders` if the agent should change it' },
  ERR_WORKSPACE_GONE: { stage: 'server', meaning: 'nothing is at the granted path now: the workspace folder was moved away or deleted', advice: 'put it back, or reload the window so the server serves the folder now at that path' },
  ERR_WORKSPACE_REPLACED: { stage: 'server', meaning: 'another folder is at the granted path than the one the server opened (moved away, or deleted and made again)', advice: 'put it back, or reload the window so the server serves the folder now at that path' },
  ERR_WORKSPACE_UNMOUNTED: { stage: 'server', meaning: "the workspace's filesystem is no longer mounted at the granted path", advice: 'put it back, or reload the window so the server serves the folder now at that path' },
  ERR_CHANGED_SINCE_READ: { stage: 'server', meaning: 'a change to a file that changed on disk since this connection read it', advice: 'nothing to do: the agent should read the file again and redo its change' },
  ERR_FILE_CHANGED: { stage: 'server', meaning: 'the file was saved by another program while the change was being made; nothing of the change was kept', advice: 'nothing to do: the agent should read the file again' },
  ERR_NOT_TEXT: { stage: 'server', meaning: 'a text tool given a file that is not text (not UTF-8, or holding a NUL byte); nothing was read or changed', advice: 'nothing to do: the agent can read it with `read_media_file`; to have it edited, save the file as UTF-8' },
  ERR_SECRET: { stage: 'secrets', meaning: "a file the secrets policy holds (`.env*`, keys, credentials, `.git` internals for a change, the patterns added): it asks the person first, or a host's deny rule refuses it", advice: 'with a client that can ask (MCP elicitation), answer its question; to allow it without asking, add `!<path>` to `boundaryInspector.secrets.patterns` (`--secret`), or turn the defaults off (`boundaryInspector.secrets.defaults`, `--no-default-secrets`)' },
};
