// What `trace --as` and `compare` share: the deciders' own inputs as options, and the context
// built from them (this machine's disk, or nothing of it when another platform is simulated).
import * as os from 'node:os';
import { rootToPath, type Platform } from '../../core/index.js';
import { deciderNamed as registered, NO_DISK, ownTool, registeredDeciders, type Decider, type DeciderContext } from '../../deciders/index.js';
import { nodeDeciderFileSystem } from '../../host/node.js';
import { platformFrom, policyFrom, UsageError, type Io } from '../usage.js';

export const deciderOptions = {
  allowed: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  'add-dir': { type: 'string', multiple: true },
  home: { type: 'string' },
  sandbox: { type: 'string' },
  profile: { type: 'string' },
  settings: { type: 'string' },
  'approval-mode': { type: 'string' },
} as const;

/** The options that are one program's own flags, passed on to its decider as they are. */
export const PROGRAM_FLAGS = ['sandbox', 'profile', 'settings', 'approval-mode'] as const;

/** The options' lines of --help, for trace and compare alike. */
export const DECIDER_OPTIONS_HELP = `  --allowed <dir>                    server-filesystem: an allowed directory, as on its command
                                     line (repeatable; default: the --root folder)
  --cwd <dir>                        the folder the agent was started in (default: the --root
                                     folder, else the current folder)
  --add-dir <dir>                    the agents: --add-dir, Gemini CLI's --include-directories
                                     (repeatable)
  --home <dir>                       the home folder: where user settings are read, and what ~
                                     means (default: $HOME)
  --sandbox <mode>, --profile <name> codex: its own --sandbox (read-only, workspace-write,
                                     danger-full-access) and --profile ($CODEX_HOME/<name>.config.toml)
  --settings <file-or-json>          claude-code: its own --settings, a settings layer of its own
  --approval-mode <mode>             gemini-cli: its own --approval-mode (default, auto_edit, yolo,
                                     plan)`;

export { registeredDeciders };

export function deciderNamed(name: string): Decider {
  const decider = registered(name);
  if (!decider) throw new UsageError(`--as must be one of ${registeredDeciders().map((d) => d.name).join(', ')}; got ${JSON.stringify(name)}`);
  return decider;
}

/** The decider's own tool for `--tool` (deciders/index.ts `ownTool`): a name no program knows is a usage error. */
export function deciderTool(decider: Decider, tool: string): string {
  const own = ownTool(decider, tool);
  if (own === undefined) {
    const names = [...new Set(registeredDeciders().flatMap((d) => [...d.tools.read, ...d.tools.change]))];
    throw new UsageError(`--tool must be a tool of this server or of a decider (${names.join(', ')}); got ${JSON.stringify(tool)}`);
  }
  return own;
}

export interface DeciderValues {
  readonly root?: string | undefined;
  readonly allowed?: string[] | undefined;
  readonly cwd?: string | undefined;
  readonly 'add-dir'?: string[] | undefined;
  readonly home?: string | undefined;
  readonly sandbox?: string | undefined;
  readonly profile?: string | undefined;
  readonly settings?: string | undefined;
  readonly 'approval-mode'?: string | undefined;
  readonly platform?: string | undefined;
  readonly case?: string | undefined;
  readonly symlinks?: string | undefined;
  readonly 'allow-localhost'?: boolean | undefined;
  readonly 'allow-unc'?: boolean | undefined;
}

/** The context the options describe. `--root` is this server's workspace and the default working folder and allowed directory. */
export function deciderContext(values: DeciderValues, io: Io, host: Platform): DeciderContext {
  const platform = platformFrom(values.platform, host);
  const policy = policyFrom(values);
  const rootPath = values.root === undefined ? undefined : rootToPath(values.root, { platform, policy });
  const rootFolder = rootPath === undefined ? undefined : rootPath.ok ? rootPath.path : values.root;
  const cwd = values.cwd ?? rootFolder ?? process.cwd();
  const simulated = platform !== host;
  const flags = Object.fromEntries(PROGRAM_FLAGS.flatMap((flag) => (values[flag] !== undefined ? [[flag, values[flag]]] : [])));
  return {
    platform,
    fs: simulated ? NO_DISK : nodeDeciderFileSystem,
    ...(simulated ? { simulated } : {}),
    home: values.home ?? io.env.HOME ?? os.homedir(),
    cwd,
    addDirs: values['add-dir'] ?? [],
    allowed: values.allowed ?? [rootFolder ?? cwd],
    env: io.env,
    ...(Object.keys(flags).length > 0 ? { flags } : {}),
    root: values.root ?? cwd,
    policy,
  };
}
