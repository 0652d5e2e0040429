/**
 * compare_deciders: the MCP Apps view's side-by-side table, one row per program Boundary
 * Inspector models. For the view alone: its `_meta.ui.visibility` is `["app"]`, so hosts that
 * honour it never list it to the model, and the definitions before the model do not grow.
 *
 * A decision is shown only when the server could make it as the program does. The server reads
 * nothing outside the granted workspaces (in its sandbox there is nothing else to read) and is not
 * told the home folder, so the agents' user settings, `~/.claude.json`, `$CODEX_HOME` and the like
 * are out of its sight. Each program is run twice, each time with another stand-in home folder and
 * another imagined outside (nothing there; folders everywhere: confinedDisk.ts). A row is decided
 * only when no file's text outside the grants was asked for, nor a variable of the environment,
 * nor VS Code's settings, and both runs agree on the decision, the rule and the path; it then says
 * what it looked up outside without seeing it (its explanation, not its decision, may want them).
 * Any other row says what the program reads that the server cannot see, and nothing else.
 */
import * as z from 'zod';
import { DECISIONS, type DeciderContext, type DeciderVerdict } from '../../deciders/types.js';
import { visible } from '../../core/index.js';
import { DEFAULT_TOOL, OPERATIONS, type ToolName } from '../../shared/operations.js';
import { confinedDisk, type ImaginedOutside } from './confinedDisk.js';
import { defineTool, ok, pathField, pathToolField, type Scope } from './tool.js';

const sourceSchema = z.object({
  text: z.string(),
  file: z.string().optional(),
  line: z.number().optional(),
  flag: z.string().optional(),
});

const rowSchema = z.object({
  decider: z.string(),
  program: z.string(),
  version: z.string(),
  tool: z.string().describe("The program's own tool the path was judged as."),
  access: z.enum(['read', 'change']).describe('Whether that tool reads the path or changes it.'),
  decision: z.enum(DECISIONS as ['allow', 'ask', 'deny']).optional().describe('Absent when the program could not be decided here: see unseen.'),
  rule: z.object({ text: z.string(), source: sourceSchema.optional() }).optional(),
  basis: z.enum(['recorded', 'documented']).optional(),
  path: z.string().optional().describe('The path as the program resolved it; absent when it never got one.'),
  stages: z
    .array(z.object({ name: z.string(), status: z.string(), input: z.string(), output: z.string().optional(), rule: z.string(), note: z.string(), source: sourceSchema.optional() }))
    .optional()
    .describe('Its own stages, in its own order; a stage that handed nothing on has no output.'),
  fixes: z
    .array(z.object({ text: z.string(), file: z.string().optional(), line: z.number().optional(), lines: z.number().optional(), add: z.string().optional(), flag: z.string().optional(), path: z.string().optional() }))
    .optional(),
  differences: z.array(z.string()).optional(),
  configFiles: z.array(z.object({ path: z.string(), role: z.string(), found: z.boolean(), used: z.boolean() })).optional(),
  unseen: z.array(z.string()).optional().describe('What the program reads that this server cannot see: undecided without it, or, beside a decision, looked up for the explanation only.'),
  error: z.string().optional(),
});

type Row = z.infer<typeof rowSchema>;

/**
 * Stand-ins for the home folder, which the server is not told: never read, and two of them, so a
 * decision that depends on where the home folder is shows as two different answers.
 */
const STAND_IN_HOMES = { posix: ['/.boundary-inspector-home-a', '/.boundary-inspector-home-b'], win32: ['C:\\.boundary-inspector-home-a', 'C:\\.boundary-inspector-home-b'] } as const;
/** What a row lists of what it could not see: the first few say why. */
const MAX_UNSEEN = 12;
const HOME_UNKNOWN = 'the home folder (what ~ means), which this server is not told';
const VSCODE_UNSEEN = "VS Code's settings, which only the editor reads";

/** A stand-in home spelled as the person would read it: `~`. */
function tilde(path: string, homes: readonly string[]): string {
  for (const home of homes) if (path === home || path.startsWith(`${home}/`) || path.startsWith(`${home}\\`)) return `~${path.slice(home.length)}`;
  return path;
}

/** This server's own row: exactly what the tool would do (scope.judge), as explain_path answers. */
function serverRow(scope: Scope, input: string, head: Pick<Row, 'decider' | 'program' | 'version' | 'access'> & { readonly tool: ToolName }): Row {
  const { trace, refusal } = scope.judge(input, head.tool);
  const text = refusal === null ? trace.reason : `${refusal.code} at ${refusal.stage}: ${refusal.reason}`;
  return { ...head, decision: refusal === null ? 'allow' : 'deny', rule: { text, source: { text: `workspace root ${scope.grant.uri}` } } };
}

export const compareDeciders = defineTool({
  name: 'compare_deciders',
  title: 'Compare how each program decides a path',
  description: "For Boundary Inspector's view: how each agent and server it models decides the path, where this server can tell. Changes nothing.",
  input: {
    path: pathField,
    tool: pathToolField.optional().describe(`This server's tool; each program judges its own tool of the same kind (a read or a change). Default ${DEFAULT_TOOL}.`),
  },
  output: z.object({
    tool: z.string(),
    cwd: z.string().describe('The workspace folder, where each agent is taken to start and what the reference server is given.'),
    rows: z.array(rowSchema),
  }),
  heavy: false,
  appOnly: true,
  async run({ path: input, tool: named }, scope) {
    const tool = (named ?? DEFAULT_TOOL) as ToolName;
    // Loaded at the first comparison, never at start-up (esbuild.mjs leaves them to dist/deciders.js).
    const { ownTool, registeredDeciders } = await import('../../deciders/index.js');
    const { grants, platform } = scope.state;
    const homes = platform === 'win32' ? STAND_IN_HOMES.win32 : STAND_IN_HOMES.posix;
    const cwd = scope.grant.path;
    // How the workspace's filesystem compares letter case, as the server found at start-up: said, so
    // that no decider asks the disk about a spelling of the folder beside it.
    const policy = { ...scope.grant.root.ctx.policy, case: scope.grant.root.comparison.foldCase ? 'insensitive' : 'sensitive' } as const;
    /** One run of a decider with one stand-in home and one imagined outside, and what it asked for out of sight. */
    const runWith = (decide: (context: DeciderContext) => DeciderVerdict, home: string, outside: ImaginedOutside) => {
      const disk = confinedDisk(grants, platform, homes, outside);
      const unread = disk.unread;
      const env = new Proxy({} as Record<string, string | undefined>, {
        get: (_target, key) => (typeof key === 'string' && unread.add(`$${key}`), undefined),
        has: (_target, key) => (typeof key === 'string' && unread.add(`$${key}`), false),
        ownKeys: () => (unread.add('its environment'), []),
      });
      const context: DeciderContext = { platform, fs: disk, home, cwd, addDirs: [], allowed: [cwd], root: scope.grant.uri, policy, env };
      // Not enumerable, so a copy of the context made for other reasons does not count as reading it.
      Object.defineProperty(context, 'vscode', { get: () => (unread.add(VSCODE_UNSEEN), undefined), enumerable: false });
      return { verdict: decide(context), unseen: disk.unseen, unread };
    };
    // Files first, then the variables: a file is what a person can look at.
    const shown = (paths: Iterable<string>) => {
      const named = [...new Set([...paths].map((path) => tilde(path, homes)))];
      return [...named.filter((what) => !what.startsWith('$')), ...named.filter((what) => what.startsWith('$'))].slice(0, MAX_UNSEEN);
    };
    const access = OPERATIONS[tool].changes ? 'change' : 'read';
    const rows: Row[] = registeredDeciders().map((decider): Row => {
      const own = ownTool(decider, tool) ?? decider.tools.read[0]!;
      const head = { decider: decider.name, program: decider.program, version: decider.version, tool: own, access } as const;
      if (decider.name === 'boundary-inspector') return serverRow(scope, input, { ...head, tool });
      try {
        const [first, second] = [runWith((context) => decider.decide(input, own, context), homes[0], 'nothing'), runWith((context) => decider.decide(input, own, context), homes[1], 'folders')];
        const unread = shown([...first.unread, ...second.unread]);
        if (unread.length > 0) return { ...head, unseen: unread };
        const unseen = shown([...first.unseen, ...second.unseen]);
        const essentials = ({ decision, rule, path }: DeciderVerdict) => JSON.stringify({ decision, rule, path });
        if (essentials(first.verdict) !== essentials(second.verdict)) return { ...head, unseen: unseen.length > 0 ? unseen : [HOME_UNKNOWN] };
        const { decision, rule, basis, path, stages, fixes, differences, configFiles } = first.verdict;
        // Absent rather than null, as in every structured result: a field is there when it has a value.
        return {
          ...head,
          decision,
          rule,
          basis,
          ...(path !== null ? { path } : {}),
          stages: stages.map(({ output, ...stage }) => (output === null ? stage : { ...stage, output })),
          fixes: [...fixes],
          differences: [...differences],
          configFiles: [...configFiles],
          ...(unseen.length > 0 ? { unseen } : {}),
        };
      } catch (error) {
        return { ...head, error: (error as Error).message };
      }
    });
    const lines = [`How each program decides ${input} (a ${access}), started in ${cwd}:`];
    for (const row of rows) {
      const decided = row.decision !== undefined ? `${row.decision.toUpperCase()}: ${row.rule?.text ?? ''}` : row.error !== undefined ? `failed: ${row.error}` : `not decided here: it reads ${row.unseen?.join(', ') ?? ''}`;
      lines.push(`  ${row.decider} (${row.tool}) ${decided}`);
    }
    // Names from the disk and the input, one line each: nothing in them draws a line or turns the text.
    const text = lines.map((line) => visible(line)).join('\n');
    return ok({ tool, cwd, rows }, text);
  },
});
