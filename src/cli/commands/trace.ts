import { prepareRoot, secretChoiceFromFlags, SECRET_FLAG_OPTIONS, traceAgainst, withNearMisses, type Platform, type Trace } from '../../core/index.js';
import { withSecretChoice } from '../../host/claudeCodeDeny.js';
import { boundaryTrace } from '../../deciders/boundary-inspector/index.js';
import { decidingStage, type DeciderVerdict } from '../../deciders/index.js';
import { nodeFileSystem } from '../../host/node.js';
import { DEFAULT_TOOL, isToolName, OPERATIONS, PATH_TOOL_NAMES, type ToolName } from '../../shared/operations.js';
import { renderTrace, renderVerdict } from '../render.js';
import { EXIT, hostPolicyOptions, parseCommand, platformFrom, platformOption, policyFrom, SPELLING_OPTIONS_HELP, spellingOptions, spellingsFrom, UsageError, writeJson, type Io } from '../usage.js';
import { DECIDER_OPTIONS_HELP, deciderContext, deciderNamed, deciderOptions, deciderTool, PROGRAM_FLAGS, registeredDeciders } from './deciders.js';

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
       boundary-inspector trace <input> --as <decider> [options]

Traces a URI or path against a workspace root through its stages (parse, refusals,
decode, normalise, alias, case, realpath, containment, secrets) and reports whether it is inside, as
one of the server's tools judges it before touching the disk. When it is not, or nothing is there,
it lists under "Did you mean" the existing entries the input nearly named: the name in
another case or Unicode form, with trailing dots or spaces, percent-decoded, cut by a raw
"#", "?" or space, without the root folder's own name repeated, below the root for a path
written from the filesystem's root, or with "\\" read as "/". Only the deepest existing
folder inside the root is read.

With --as, the input is judged as another program decides it: its own stages, its decision
(allow, ask or deny), the rule that decided and where it came from (a settings file and line,
a flag, or its default), what would allow it, where its rules differ from this server's, and
the configuration files it read (never written).

Options:
  --root <uri-or-path>               the workspace root (required without --as)
  --as <decider>                     ${wrapped(
    ['the program', 'whose', 'decision', 'is', 'traced:', ...registeredDeciders().map((d, i, all) => (i < all.length - 1 ? `${d.name},` : d.name))],
    58,
    OPTION_INDENT,
  )}
  --tool <name>                      ${wrapped(
    [
      ...`the tool whose judgement is traced (default: ${DEFAULT_TOOL}). ${ITSELF.join(', ')} judge a link at the last name itself; the others follow it. There are no grants here, so the server's read-only rule for tools that change files is not applied. With --as, the program's own tool names too (Read, Edit, Write; apply_patch, shell-write, shell-read; read_file, write_file; ...), and this server's are taken by what they do. One of:`.split(' '),
      ...PATH_TOOL_NAMES.map((name, i) => (i < PATH_TOOL_NAMES.length - 1 ? `${name},` : name)),
    ],
    58,
    OPTION_INDENT,
  )}
  --platform linux|darwin|win32      whose path rules apply (default: this machine's); another
                                     platform is simulated: the filesystem is not consulted
  --case auto|sensitive|insensitive  how names are compared (default: auto, asks the filesystem)
  --secret <pattern>                 a gitignore pattern, relative to the root, held by the secrets
                                     stage (repeatable; "!pattern" lets a file go); after the
                                     defaults (.env*, *.pem, *.key, id_rsa*, .npmrc, .netrc,
                                     **/.aws/credentials, .ssh/, and .git for tools that change)
  --no-default-secrets               only the --secret patterns
  --claude-code-deny                 also Claude Code's Read and Edit deny rules in the root's
                                     .claude/settings.json and .claude/settings.local.json
  --symlinks contain|refuse          links below the root: follow if they land inside, or refuse
                                     (default: contain)
  --allow-localhost                  accept file://localhost/... (default: refused)
  --allow-unc                        accept UNC shares on win32 (default: refused)
${SPELLING_OPTIONS_HELP}
${DECIDER_OPTIONS_HELP}
  --json                             print the trace as one JSON object
  -h, --help                         show this help

Exit status: 0 inside (with --as: allowed), 3 outside or refused (asked or denied), 2 usage
error.

Examples:
  boundary-inspector trace 'file:///srv/ws/%2e%2e/private.md' --root file:///srv/ws
  boundary-inspector trace escape-link --root /srv/ws --tool get_file_info
  boundary-inspector trace 'file:///C:/ws/a.txt' --root 'file:///c%3A/ws' --platform win32 --json
  boundary-inspector trace 'C:\\Users\\me\\ws\\a.txt' --root /mnt/c/Users/me/ws --wsl Ubuntu
  boundary-inspector trace ../ws-evil/a.txt --as server-filesystem --allowed /srv/ws
  boundary-inspector trace .env --as claude-code --cwd /srv/ws --tool Read
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
    secret: result.secret,
    stages: result.stages,
    rootStages: result.rootStages,
  };
}

/** What a decider adds to the trace's JSON. */
function verdictJson(verdict: DeciderVerdict) {
  return {
    decider: verdict.decider,
    program: verdict.program,
    version: verdict.version,
    basis: verdict.basis,
    decision: verdict.decision,
    rule: verdict.rule,
    access: verdict.access,
    fixes: verdict.fixes,
    differences: verdict.differences,
    configFiles: verdict.configFiles,
  };
}

/**
 * Another program's verdict in the trace's shape: its stages as rows (`stage` its own name),
 * `verdict` inside when it allows and refused otherwise, `stage` and `reason` the deciding stage
 * and rule, no code (the codes are this server's).
 */
function verdictAsTrace(verdict: DeciderVerdict, root: string, platform: Platform, simulated: boolean) {
  const deciding = verdict.stages[decidingStage(verdict.stages)];
  return {
    tool: verdict.tool,
    verdict: verdict.decision === 'allow' ? 'inside' : 'refused',
    code: null,
    stage: deciding?.name ?? null,
    reason: verdict.rule.text,
    path: verdict.path,
    root,
    rootPath: null,
    platform,
    simulated,
    policy: null,
    links: [],
    kind: null,
    nearMisses: [],
    secret: null,
    stages: verdict.stages.map(({ name, ...row }) => ({ stage: name, ...row })),
    rootStages: [],
  };
}

function runTraceAs(input: string, values: Parameters<typeof deciderContext>[0] & { as: string; tool?: string | undefined; json?: boolean | undefined }, io: Io, host: Platform): number {
  const decider = deciderNamed(values.as);
  const context = deciderContext(values, io, host);
  const tool = deciderTool(decider, values.tool ?? DEFAULT_TOOL);
  const verdict = decider.decide(input, tool, context);
  if (values.json) {
    // This server keeps its trace whole (links, kind, near misses, the root's stages).
    const shape =
      decider.name === 'boundary-inspector'
        ? traceJson(boundaryTrace(input, tool as ToolName, context).trace, tool as ToolName)
        : verdictAsTrace(verdict, context.root ?? context.cwd, context.platform, context.simulated === true);
    writeJson(io, { ...shape, ...verdictJson(verdict) });
  } else io.stdout.write(renderVerdict(verdict, { color: Boolean(io.stdout.isTTY) && !('NO_COLOR' in io.env) }));
  return verdict.decision === 'allow' ? EXIT.ok : EXIT.refused;
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
      ...SECRET_FLAG_OPTIONS,
      ...spellingOptions,
      ...deciderOptions,
      as: { type: 'string' },
      json: { type: 'boolean' },
    },
    1,
  );
  if (values.help) {
    io.stdout.write(traceHelp);
    return EXIT.ok;
  }
  if (values.as !== undefined && (values.wsl !== undefined || values['wsl-mount-root'] !== undefined || values['map-drive'] !== undefined)) {
    throw new UsageError("--wsl, --wsl-mount-root and --map-drive describe this server's host: not with --as");
  }
  if (values.as !== undefined) return runTraceAs(positionals[0]!, { ...values, as: values.as }, io, host);
  for (const flag of ['allowed', 'cwd', 'add-dir', 'home', ...PROGRAM_FLAGS] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} is a decider's input: name the decider with --as`);
  }
  if (values.root === undefined) throw new UsageError('--root <uri-or-path> is required');
  const tool = values.tool ?? DEFAULT_TOOL;
  if (!isToolName(tool) || !PATH_TOOL_NAMES.includes(tool)) throw new UsageError(`--tool must be one of ${PATH_TOOL_NAMES.join(', ')}; got ${JSON.stringify(tool)}`);
  const { followFinal, acts, changes } = OPERATIONS[tool];
  const platform = platformFrom(values.platform, host);
  const secrets = secretChoiceFromFlags(values);
  if ('error' in secrets) throw new UsageError(secrets.error);
  const prepared = prepareRoot(values.root, {
    platform,
    policy: policyFrom(values),
    spellings: spellingsFrom(values, platform, host, io.env),
    ...(platform === host ? { fs: nodeFileSystem } : {}),
  });
  // The server's secrets policy.
  const root = withSecretChoice(prepared, secrets.secrets, platform, host);
  // One root only: no other workspace to point to, so near misses come from the disk alone; and
  // no grant, so no read-only rule.
  const result = withNearMisses(traceAgainst(root, positionals[0]!, { followFinal, access: changes ? 'change' : 'read' }), root);
  if (values.json) writeJson(io, traceJson(result, tool));
  else io.stdout.write(renderTrace(result, { color: Boolean(io.stdout.isTTY) && !('NO_COLOR' in io.env), operation: { tool, acts } }));
  return result.verdict === 'inside' ? EXIT.ok : EXIT.refused;
}
