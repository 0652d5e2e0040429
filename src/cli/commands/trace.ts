import { prepareRoot, traceAgainst, withNearMisses, type Platform, type Trace } from '../../core/index.js';
import { nodeFileSystem } from '../../host/node.js';
import { renderTrace } from '../render.js';
import { EXIT, hostPolicyOptions, parseCommand, platformFrom, platformOption, policyFrom, UsageError, type Io } from '../usage.js';

export const traceHelp = `Usage: boundary-inspector trace <input> --root <uri-or-path> [options]

Traces a URI or path against a workspace root through the seven stages (parse, refusals,
decode, normalise, case, realpath, containment) and reports whether it is inside. When it
is not, or nothing is there, it lists under "Did you mean" the existing entries the input
nearly named: the name in another case or Unicode form, with trailing dots or spaces,
percent-decoded, or cut by a raw "#", "?" or space. Only the deepest existing folder inside
the root is read.

Options:
  --root <uri-or-path>               the workspace root (required)
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
  boundary-inspector trace 'file:///C:/ws/a.txt' --root 'file:///c%3A/ws' --platform win32 --json
`;

export function traceJson(result: Trace) {
  return {
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
  const platform = platformFrom(values.platform, host);
  const root = prepareRoot(values.root, {
    platform,
    policy: policyFrom(values),
    ...(platform === host ? { fs: nodeFileSystem } : {}),
  });
  // One root only: no other workspace to point to, so near misses come from the disk alone.
  const result = withNearMisses(traceAgainst(root, positionals[0]!), root);
  if (values.json) io.stdout.write(`${JSON.stringify(traceJson(result))}\n`);
  else io.stdout.write(renderTrace(result, { color: Boolean(io.stdout.isTTY) && !('NO_COLOR' in io.env) }));
  return result.verdict === 'inside' ? EXIT.ok : EXIT.refused;
}
