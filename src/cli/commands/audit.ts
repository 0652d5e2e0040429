import * as fs from 'node:fs';
import { auditWorkspace, DEFAULT_MAX_ENTRIES, foundCount, KEPT_BOUNDS, type AuditProgress, type AuditReport } from '../../audit/audit.js';
import { rootToPath, visible, type Platform } from '../../core/index.js';
import { realPathOr } from '../../host/node.js';
import { renderAudit } from '../render.js';
import { EXIT, parseCommand, UsageError, writeJson, type Io } from '../usage.js';

export const auditHelp = `Usage: boundary-inspector audit --root <uri-or-path> [options]

Walks a workspace without following links and reports what will trip an agent or another
platform. Nothing is changed.

Options:
  --root <uri-or-path>  the workspace root (required): a file: URI or an absolute path
  --max-entries <N>     entries to examine before stopping (default: ${DEFAULT_MAX_ENTRIES})
  --json                print one JSON object: {"root","rootPath","scanned","truncated",
                        "notKept":{kind:count},"findings":[{"kind","path","detail","target"?}]}
  -h, --help            show this help

Findings:
  link-escapes       a link whose chain leads outside the root (target: where it first does)
  link-dangling      a link whose chain ends at nothing (target: the missing path)
  link-loop          a link whose chain loops, or passes more than 40 links
  unreadable         a folder that cannot be listed, or an entry that cannot be examined
  not-portable       a name Windows or macOS cannot hold or would alias: a device name (CON,
                     aux.txt), a trailing dot or space, < > : " | ? * \\, a control
                     character, bytes that are not UTF-8
  hidden-characters  a name holding characters that do not show or that reorder the text
                     around them: bidi controls (U+202E, Trojan Source), zero-width and other
                     invisible characters, line separators, DEL and C1 controls
  case-twins         names in one folder that differ only by case
  unicode-twins      NFC and NFD spellings of one name in one folder
  hard-link          a file with more than one name: its other names may lie outside, and
                     reading it reads them (package stores such as pnpm's do this on purpose)

Exit status: 0 nothing found, 3 findings, 2 usage error. A walk stopped by --max-entries
reports "truncated": true and judges only the entries examined. An audit keeps at most
${KEPT_BOUNDS}, the most serious kinds first (the order above);
"notKept" counts the others by kind.

Example:
  boundary-inspector audit --root "$PWD" --json
`;

export function auditJson(root: string, report: AuditReport) {
  return {
    root,
    rootPath: report.rootPath,
    scanned: report.scanned,
    truncated: report.truncated,
    notKept: report.notKept,
    findings: report.findings.map(({ kind, path, detail, target }) => ({ kind, path, detail, ...(target !== undefined ? { target } : {}) })),
  };
}

/** Validates the call at once (usage errors are thrown before anything is walked), then walks. */
export function runAudit(args: readonly string[], io: Io, host: Platform): number | Promise<number> {
  const { values } = parseCommand(args, { root: { type: 'string' }, 'max-entries': { type: 'string' }, json: { type: 'boolean' } }, 0);
  if (values.help) {
    io.stdout.write(auditHelp);
    return EXIT.ok;
  }
  if (values.root === undefined) throw new UsageError('--root <uri-or-path> is required');
  const maxEntries = maxEntriesFrom(values['max-entries']);
  const rootPath = rootFolder(values.root, host);
  const root = values.root;
  const progress = progressLine(io);
  return auditWorkspace(rootPath, { maxEntries, ...(progress ? { onProgress: progress.update } : {}) })
    .finally(() => progress?.done())
    .then((report) => {
      if (values.json) writeJson(io, auditJson(root, report));
      else io.stdout.write(renderAudit(root, report, { color: Boolean(io.stdout.isTTY) && !('NO_COLOR' in io.env) }));
      return foundCount(report) > 0 ? EXIT.findings : EXIT.ok;
    });
}

function maxEntriesFrom(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_ENTRIES;
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--max-entries must be a whole number of at least 1; got ${JSON.stringify(value)}`);
  return n;
}

/** The root's real path, converted as every command converts a root; it must be a folder. */
function rootFolder(root: string, host: Platform): string {
  const converted = rootToPath(root, { platform: host });
  if (!converted.ok) throw new UsageError(`--root is refused (${converted.code}): ${converted.reason}`);
  // The walk starts at the real folder, so a root reached through a link (macOS /tmp) is walked.
  const real = realPathOr(converted.path);
  let stats: fs.Stats;
  try {
    stats = fs.statSync(real);
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    throw new UsageError(errno === 'ENOENT' ? `--root ${converted.path} does not exist` : `--root ${converted.path} cannot be examined (${errno})`);
  }
  if (!stats.isDirectory()) throw new UsageError(`--root ${converted.path} is not a folder`);
  return real;
}

/** A progress line on stderr for walks longer than a second, only when stderr is a terminal. */
function progressLine(io: Io): { update: (progress: AuditProgress) => void; done: () => void } | undefined {
  if (!io.stderr.isTTY) return undefined;
  const started = Date.now();
  let shownAt = 0;
  return {
    update({ scanned, folder }) {
      const now = Date.now();
      if (now - started < 1000 || now - shownAt < 100) return;
      shownAt = now;
      const head = `auditing: ${scanned.toLocaleString('en-US')} entries, `;
      const room = Math.max(10, (io.stderr.columns || 80) - head.length - 1);
      const where = folder.length > room ? `...${folder.slice(-(room - 3))}` : folder;
      io.stderr.write(`\r\u001b[2K${head}${visible(where)}`);
    },
    done() {
      if (shownAt !== 0) io.stderr.write('\r\u001b[2K');
    },
  };
}
