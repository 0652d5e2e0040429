import { prepareRoot, traceAgainst, withNearMisses, type Platform, type Trace } from '../../core/index.js';
import { nodeFileSystem } from '../../host/node.js';
import { DEFAULT_TOOL, isToolName, OPERATIONS, PATH_TOOL_NAMES, type ToolName } from '../../shared/operations.js';
import { renderTrace } from '../render.js';
import { EXIT, hostPolicyOptions, parseCommand, platformFrom, platformOption, policyFrom, UsageError, writeJson, type Io } from '../usage.js';

/** Words joined into lines of at most `width`, each after `indent`. */
function wrapped(words: readonly string[], width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join(`\n${indent}`);
}

const OPTION_INDENT = ' '.repeat(37);
const ITSELF = PATH_TOOL_NAMES.filter((name) => !OPERATIONS[name].followFinal);

export const traceHelp = `Usage: boundary-inspector trace <input> --root <uri-or-path> [options]

Traces a URI or path against a workspace root through the seven stages (parse, refusals,
decode, normalise, case, realpath, containment) and reports whether it is inside, as one of
the server's tools judges it before touching the disk. When it is not, or nothing is there,
it lists under "Did you mean" the existing entries the input nearly named: the name in
another case or Unicode form, with trailing dots or spaces, percent-decoded, cut by a raw
"#", "?" or space, without the root folder's own name repeated, below the root for a path
written from the filesystem's root, or with "\\" read as "/". Only the deepest existing
folder inside the root is read.

Options:
  --root <uri-or-path>               the workspace root (required)
  --tool <name>                      ${wrapped(
    [
      ...`the tool whose judgement is traced (default: ${DEFAULT_TOOL}). ${ITSELF.join(', ')} judge a link at the last name itself; the others follow it. There are no grants here, so the server's read-only rule for tools that change files is not applied. One of:`.split(' '),
      ...PATH_TOOL_NAMES.map((name, i) => (i < PATH_TOOL_NAMES.length - 1 ? `${name},` : name)),
    ],
    58,
    OPTION_INDENT,
  )}
  --platform linux|darwin|win32      whose path rules apply (default: this machine's); another
                                     platform is simulated: the filesystem is not consulted
  --case auto|sensitive|insensitive  how names are compared (default: auto, asks the filesystem)
  --symlinks contain|refuse          links below the root: follow if they land inside, or refuse
                                     (default: contain)
  --allow-localhost                  accept file://localhost/... (default: refused)
  --allow-unc                        accept UNC shares on win32 (default: refused)
  --json                             print the trace as one JSON object
  -h, --help                         show this help

Exit status: 0 inside, 3 outside or refused, 2 usage error.

Examples:
  boundary-inspector trace 'file:///srv/ws/%2e%2e/private.md' --root file:///srv/ws
  boundary-inspector trace escape-link --root /srv/ws --tool get_file_info
  boundary-inspector trace 'file:///C:/ws/a.txt' --root 'file:///c%3A/ws' --platform win32 --json
`;

export function traceJson(result: Trace, tool: ToolName = DEFAULT_TOOL) {
  return {
    tool,
    verdict: result.verdict,
    code: result.code,
    stage: result.stage,
    reason: result.reason,
    path: result.path,
    root: result.root,
    rootPath: result.rootPath,
    platform: result.platform,
    simulated: result.simulated,
    policy: result.policy,
    links: result.links,
    kind: result.kind,
    nearMisses: result.nearMisses,
    stages: result.stages,
    rootStages: result.rootStages,
  };
}

export function runTrace(args: readonly string[], io: Io, host: Platform): number {
  const { values, positionals } = parseCommand(
    args,
    {
      root: { type: 'string' },
      tool: { type: 'string' },
      ...platformOption,
      case: { type: 'string' },
      symlinks: { type: 'string' },
      ...hostPolicyOptions,
      json: { type: 'boolean' },
    },
    1,
  );
  if (values.help) {
    io.stdout.write(traceHelp);
    return EXIT.ok;
  }
  if (values.root === undefined) throw new UsageError('--root <uri-or-path> is required');
  const tool = values.tool ?? DEFAULT_TOOL;
  if (!isToolName(tool) || !PATH_TOOL_NAMES.includes(tool)) throw new UsageError(`--tool must be one of ${PATH_TOOL_NAMES.join(', ')}; got ${JSON.stringify(tool)}`);
  const { followFinal, acts } = OPERATIONS[tool];
  const platform = platformFrom(values.platform, host);
  const root = prepareRoot(values.root, {
    platform,
    policy: policyFrom(values),
    ...(platform === host ? { fs: nodeFileSystem } : {}),
  });
  // One root only: no other workspace to point to, so near misses come from the disk alone; and
  // no grant, so no read-only rule.
  const result = withNearMisses(traceAgainst(root, positionals[0]!, { followFinal }), root);
  if (values.json) writeJson(io, traceJson(result, tool));
  else io.stdout.write(renderTrace(result, { color: Boolean(io.stdout.isTTY) && !('NO_COLOR' in io.env), operation: { tool, acts } }));
  return result.verdict === 'inside' ? EXIT.ok : EXIT.refused;
}
