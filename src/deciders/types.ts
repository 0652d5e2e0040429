import type { FileSystemPort, Platform, Policy, StageStatus } from '../core/types.js';

// A decider is a model of one program's rules for whether a path may be read or changed: this
// server, the reference filesystem server, an agent (Claude Code, Codex, Gemini CLI, VS Code's
// own), or a naive conversion someone may have shipped. Like the core it is pure: the platform,
// the filesystem and the configuration files come in through the context, so every decider runs
// on any machine, against this machine's files or against files pointed to.

/** What a program does with a request for a path: act, ask the person first, or refuse. */
export type Decision = 'allow' | 'ask' | 'deny';
export const DECISIONS: readonly Decision[] = ['allow', 'ask', 'deny'];

export const DECIDER_NAMES = ['boundary-inspector', 'server-filesystem', 'claude-code', 'codex', 'gemini-cli', 'vscode-agent', 'naive'] as const;
export type DeciderName = (typeof DECIDER_NAMES)[number];

/** Whether a request reads the path or changes it: programs decide the two apart. */
export type Access = 'read' | 'change';

/**
 * Where a rule, a setting or a default came from: a line of a configuration file, a command-line
 * flag, or the program's own default (`file` absent). `text` is the rule as written there.
 */
export interface RuleSource {
  readonly text: string;
  /** The configuration file, absolute. */
  readonly file?: string;
  /** 1-based line of `file` that holds the rule. */
  readonly line?: number;
  /** The flag it came from (`--add-dir /srv/x`). */
  readonly flag?: string;
}

/** One step of a decider's decision, in the program's own order. */
export interface DeciderStage {
  /** The program's own name for the step where it has one (`validatePath`, `permission rules`). */
  readonly name: string;
  readonly status: StageStatus | 'ask';
  readonly input: string;
  readonly output: string | null;
  /** What the step does, as the program does it. */
  readonly rule: string;
  /** What it noticed, and where it differs from Boundary Inspector's own stage. Empty when nothing. */
  readonly note: string;
  /** The setting or rule the step applied, when it came from somewhere. */
  readonly source?: RuleSource;
}

/**
 * A change that would let the request through: never made by the inspector, only offered, and
 * opened at `file` and `line` when there is one.
 */
export interface Fix {
  /** One sentence, imperative: what to do. */
  readonly text: string;
  /** The configuration file to change, absolute; absent for a flag or a path. */
  readonly file?: string;
  /** Where in `file` the addition goes (the line of the rule to change, or of the list to add to). */
  readonly line?: number;
  /** How many lines from `line` on the change replaces (a whole table to move elsewhere); one when absent. */
  readonly lines?: number;
  /** The text to add or write instead (a rule, a list entry, a section). */
  readonly add?: string;
  /** A flag to pass (`--add-dir /srv/x`). */
  readonly flag?: string;
  /** The path, as the program would take it, that works instead. */
  readonly path?: string;
}

/** A configuration file the decider looked for, whether it was there, and whether it mattered. */
export interface ConfigFile {
  readonly path: string;
  /** Its role for the program (`user settings`, `project settings`, `config.toml`). */
  readonly role: string;
  readonly found: boolean;
  /** Whether anything in it decided or shaped this decision. */
  readonly used: boolean;
}

export interface DeciderVerdict {
  readonly decider: DeciderName;
  /** The program and the version modelled (`Claude Code 2.1.332`). */
  readonly program: string;
  readonly version: string;
  /**
   * `recorded`: this decision's rules were checked against the real program running (the
   * recording in test/deciders); `documented`: taken from the program's documentation or source
   * alone, as for a rule that could not be observed here.
   */
  readonly basis: 'recorded' | 'documented';
  /** The program's own tool the request was judged as (`Read`, `apply_patch`, `read_text_file`). */
  readonly tool: string;
  readonly access: Access;
  readonly input: string;
  readonly decision: Decision;
  /** The rule or layer that decided, and where it came from. */
  readonly rule: { readonly text: string; readonly source?: RuleSource };
  /** The path as the program resolved it; null when it never got one. */
  readonly path: string | null;
  readonly stages: readonly DeciderStage[];
  /** What would let the request through; empty for `allow`. */
  readonly fixes: readonly Fix[];
  /** For this input: where the program's rules differ from Boundary Inspector's, one sentence each. */
  readonly differences: readonly string[];
  readonly configFiles: readonly ConfigFile[];
}

/** The disk as a decider sees it: the core's port, and the text of a configuration file. */
export interface DeciderFileSystem extends FileSystemPort {
  /** The whole text of a file, or undefined when there is none (or it cannot be read). */
  readText(path: string): string | undefined;
  /**
   * Who owns an entry and its mode bits (`stat(2)`, the link itself with `noFollow`), or
   * undefined when it cannot be told. Optional: a program that skips a configuration file others
   * could have written (Gemini CLI's system settings) needs it; without it the file is taken as safe.
   */
  ownership?(path: string, options?: { readonly noFollow?: boolean }): { readonly uid: number; readonly mode: number } | undefined;
}

/** What a program's decision depends on besides its configuration files. */
export interface DeciderContext {
  readonly platform: Platform;
  readonly fs: DeciderFileSystem;
  /**
   * `platform` is not the machine's own: `fs` is a stand-in holding nothing of it. A decider that
   * can judge without the disk (this server's, `naive`) then says so instead of looking anything up.
   */
  readonly simulated?: boolean;
  /** The home folder: where user settings are read, and what `~` means. */
  readonly home: string;
  /** The working folder the program was started in (an agent's project). */
  readonly cwd: string;
  /** `--add-dir` values, in order. */
  readonly addDirs: readonly string[];
  /** The reference server's allowed directories, as passed on its command line. */
  readonly allowed: readonly string[];
  /**
   * The workspace root as this server is given it (a `file:` URI or a path), for
   * `boundary-inspector` and `naive`; `cwd` when absent.
   */
  readonly root?: string;
  /** This server's policy flags (case, links, localhost, UNC), for `boundary-inspector`; its defaults when absent. */
  readonly policy?: Partial<Policy>;
  /** The program's environment, for the variables it reads (TMPDIR, CODEX_HOME...). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The program's own command-line options that bear on its decision, other than `--add-dir`, by
   * name without dashes (Codex's `sandbox` and `profile`, Gemini CLI's `approval-mode`, with
   * `true` for a flag that takes no value); absent when none was given.
   */
  readonly flags?: Readonly<Record<string, string>>;
  /** The workspace folders and settings VS Code reports, for `vscode-agent` (the extension reads them through its API). */
  readonly vscode?: VsCodeContext;
}

export interface VsCodeContext {
  readonly workspaceFolders: readonly string[];
  /** `chat.tools.edits.autoApprove`, as VS Code resolved it, with where each entry was set. */
  readonly autoApprove: readonly { readonly glob: string; readonly approve: boolean; readonly source: RuleSource }[];
  /** `chat.hookFilesLocations`: every location named, whatever its value, is an edit that always asks. */
  readonly hookFiles?: readonly { readonly location: string; readonly source: RuleSource }[];
  /** `github.copilot.chat.additionalReadAccessPaths`: folders read_file may read outside the workspace without asking. */
  readonly readAccessPaths?: readonly { readonly path: string; readonly source: RuleSource }[];
  /** `chat.permissions.default`: the permission level a new chat starts in. */
  readonly permissionsDefault?: { readonly value: string; readonly source: RuleSource };
  /** `chat.tools.global.autoApprove`: every tool's question answered yes (or those of the tools named). */
  readonly globalAutoApprove?: { readonly value: boolean | Readonly<Record<string, boolean>>; readonly source: RuleSource };
  /** `chat.tools.eligibleForAutoApproval`: a tool set to false always asks. */
  readonly eligibleForAutoApproval?: readonly { readonly tool: string; readonly eligible: boolean; readonly source: RuleSource }[];
  /** Values found where VS Code does not apply them (an application setting in workspace settings), and why. */
  readonly unapplied?: readonly { readonly setting: string; readonly source: RuleSource; readonly why: string }[];
  /** The settings files these came from, where they are known. */
  readonly files?: readonly { readonly path: string; readonly role: string; readonly found: boolean }[];
}

export interface Decider {
  readonly name: DeciderName;
  /** The program's name, for people. */
  readonly program: string;
  /** The version modelled; the trace says which. */
  readonly version: string;
  /** The program's own tool names, by access; the first of each is the default. */
  readonly tools: { readonly read: readonly string[]; readonly change: readonly string[] };
  decide(input: string, tool: string, context: DeciderContext): DeciderVerdict;
}

