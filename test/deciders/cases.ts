// The shared table of cases on which the real programs' path decisions are recorded
// (scripts/record-deciders.ts writes recorded.json) and the deciders are checked.
//
// Every case runs in a fresh folder {base} holding BASE_TREE (and the case's own `tree`), with
// {base}/home as HOME and the working directory {base}/ws unless the case says otherwise. Paths
// in a case may name placeholders, replaced before the run: {base}, and {home} ({base}/home).
// A case names the programs it is run on by their own tool names (`tools`); a read case reads an
// existing file, a change case creates a new one (the agents refuse to overwrite a file they have
// not read, before any permission step, so a change of an existing file is Claude Code's `Edit`,
// run after a `Read` of it).
import type { Tree } from '../server/table.js';
import { link } from '../server/table.js';
import type { Program } from './programs.js';

export const NFC = 'caf\u00e9';
export const NFD = 'cafe\u0301';

/** What every case's folder holds. */
export const BASE_TREE: Tree = {
  'ws/a.txt': 'inside a\n',
  'ws/sub/b.txt': 'inside b\n',
  'ws/conf/.env': 'NESTED=1\n',
  'ws/.env': 'TOP=1\n',
  'ws/.env.local': 'LOCAL=1\n',
  'ws/.git/HEAD': 'ref: refs/heads/main\n',
  'ws/node_modules/pkg/index.js': 'module.exports = 1;\n',
  [`ws/${NFC}/n.txt`]: 'nfc\n',
  'ws/escape': link('../outside'), // a folder link that leaves
  'ws/escape-file': link('../outside/secret.txt'), // a file link that leaves
  'ws/inner': link('sub'), // a link that stays inside
  'ws-evil/secret.txt': 'sibling secret\n', // the sibling whose name starts with the folder's
  'outside/secret.txt': 'outside secret\n',
  'outside/back-in': link('../ws'), // a link outside that leads in
  'extra/notes.txt': 'extra notes\n', // a folder to add
  'home/h.txt': 'home file\n',
  'ws-link': link('ws'), // the working folder reached through a link
};

/** Claude Code's settings files, each a settings.json object. */
export interface ClaudeSettings {
  /** ~/.claude/settings.json */
  readonly user?: object;
  /** <cwd>/.claude/settings.json */
  readonly project?: object;
  /** <cwd>/.claude/settings.local.json */
  readonly local?: object;
  /** A file passed with --settings. */
  readonly flag?: object;
  /** The working folder marked trusted in ~/.claude.json, as accepting the trust dialog does. */
  readonly trusted?: true;
}

/** Codex's configuration. */
export interface CodexSettings {
  /** Lines of $CODEX_HOME/config.toml (the stand-in's provider and `approval_policy = "never"` are added). */
  readonly config?: string;
  /** <cwd>/.codex/config.toml */
  readonly project?: string;
  /** Profile files, $CODEX_HOME/<name>.config.toml, by name. */
  readonly profiles?: Readonly<Record<string, string>>;
  /** --profile */
  readonly profile?: string;
  /** --sandbox */
  readonly sandbox?: string;
  /** $TMPDIR for the run, relative to {base} (unset otherwise). */
  readonly tmpdir?: string;
}

/** Gemini CLI's configuration. */
export interface GeminiSettings {
  /** ~/.gemini/settings.json (the stand-in's auth is added) */
  readonly user?: object;
  /** <cwd>/.gemini/settings.json */
  readonly workspace?: object;
  /** The system settings file (GEMINI_CLI_SYSTEM_SETTINGS_PATH). */
  readonly system?: object;
  /** The system settings file in a folder anyone can write to. */
  readonly systemInOpenFolder?: true;
  /** ~/.gemini/trustedFolders.json; by default the working folder is trusted. */
  readonly trusted?: Readonly<Record<string, string>>;
  /** --approval-mode; by default `auto_edit` for a change (so the path is what decides) and none for a read. */
  readonly approvalMode?: string | null;
  /** system-defaults.json, beside the system settings file. */
  readonly systemDefaults?: object;
  /** Other flags, after the case's own. */
  readonly args?: readonly string[];
  /** Variables added to the run's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Files written before the run, relative to {base}, placeholders replaced in their text. */
  readonly files?: Readonly<Record<string, string>>;
}

export type ToolName =
  | 'Read' | 'Write' | 'Edit' // claude-code
  | 'apply_patch' | 'shell-write' | 'shell-read' // codex
  | 'read_file' | 'write_file' // gemini-cli, and write_file for server-filesystem
  | 'read_text_file'; // server-filesystem

export interface DeciderCase {
  /** Unique, named after the trap. */
  readonly name: string;
  readonly tools: { readonly [P in Program]?: readonly ToolName[] };
  /** The path as the tool receives it. */
  readonly input: string;
  /** Entries added to BASE_TREE (or replacing its entries). */
  readonly tree?: Tree;
  /** The working folder, relative to {base}; `ws` by default. */
  readonly cwd?: string;
  /** --add-dir (Claude Code, Codex) or --include-directories (Gemini CLI). */
  readonly addDirs?: readonly string[];
  /** The reference server's allowed directories, as given on its command line; [{base}/ws] by default. */
  readonly allowed?: readonly string[];
  readonly claude?: ClaudeSettings;
  readonly codex?: CodexSettings;
  readonly gemini?: GeminiSettings;
}

/** The tools that read, per program, and those that change. */
export const READS: { readonly [P in Program]: readonly ToolName[] } = {
  'server-filesystem': ['read_text_file'],
  'claude-code': ['Read'],
  codex: ['shell-read'],
  'gemini-cli': ['read_file'],
};
export const CHANGES: { readonly [P in Program]: readonly ToolName[] } = {
  'server-filesystem': ['write_file'],
  'claude-code': ['Write'],
  codex: ['apply_patch', 'shell-write'],
  'gemini-cli': ['write_file'],
};
export const CHANGE_TOOLS: ReadonlySet<ToolName> = new Set(['Write', 'Edit', 'apply_patch', 'shell-write', 'write_file']);

/** Codex in workspace-write, where a path decides (its default without a trusted project is read-only). */
const WORKSPACE_WRITE = 'sandbox_mode = "workspace-write"';

const permissions = (rules: { allow?: string[]; ask?: string[]; deny?: string[] }, more: object = {}): object => ({ permissions: { ...rules, ...more } });

// ------------------------------------------------------------------------------------------------
// Every program on the same traps, with each program's defaults (Codex in workspace-write).
// ------------------------------------------------------------------------------------------------

const every = (name: string, input: string, kind: 'read' | 'change', more: Partial<DeciderCase> = {}): DeciderCase => ({
  name,
  input,
  tools: kind === 'read' ? READS : CHANGES,
  codex: { config: WORKSPACE_WRITE },
  ...more,
});

const COMMON: readonly DeciderCase[] = [
  // A file inside the working folder, by its absolute path.
  every('inside-read', '{base}/ws/a.txt', 'read'),
  // A new file inside the working folder.
  every('inside-change', '{base}/ws/new.txt', 'change'),
  // A path relative to the working folder (the reference server resolves it against its allowed directories).
  every('relative-read', 'sub/b.txt', 'read'),
  every('relative-change', 'sub/new.txt', 'change'),
  // A sibling whose name starts with the folder's: ws-evil beside ws.
  every('sibling-prefix-read', '{base}/ws-evil/secret.txt', 'read'),
  every('sibling-prefix-change', '{base}/ws-evil/new.txt', 'change'),
  // `..` out of the working folder, written into an absolute path.
  every('dotdot-read', '{base}/ws/../outside/secret.txt', 'read'),
  every('dotdot-change', '{base}/ws/../outside/new.txt', 'change'),
  // `..` out of the working folder, relative.
  every('dotdot-relative-read', '../outside/secret.txt', 'read'),
  every('dotdot-relative-change', '../outside/new.txt', 'change'),
  // An absolute path outside.
  every('outside-read', '{base}/outside/secret.txt', 'read'),
  every('outside-change', '{base}/outside/new.txt', 'change'),
  // A file link inside that leads out.
  every('link-out-file-read', '{base}/ws/escape-file', 'read'),
  // A folder link inside that leads out, and a new file through it.
  every('link-out-dir-read', '{base}/ws/escape/secret.txt', 'read'),
  every('link-out-dir-change', '{base}/ws/escape/new.txt', 'change'),
  // A link outside that leads in: the path is outside, the file inside.
  every('link-in-read', '{base}/outside/back-in/a.txt', 'read'),
  every('link-in-change', '{base}/outside/back-in/new.txt', 'change'),
  // A link inside that stays inside.
  every('link-inside-read', '{base}/ws/inner/b.txt', 'read'),
  // Case: A.TXT asked, only a.txt on disk (Linux is case-sensitive).
  every('case-read', '{base}/ws/A.TXT', 'read'),
  every('case-change', '{base}/ws/NEW-CASE.TXT', 'change'),
  // NFD asked, the folder's name is NFC on disk: two different names on Linux.
  every('nfd-read', `{base}/ws/${NFD}/n.txt`, 'read'),
  every('nfd-change', `{base}/ws/${NFD}/new.txt`, 'change'),
  // An encoded `..` (%2e%2e) in a path: a literal name to the kernel.
  every('encoded-dotdot-read', '{base}/ws/%2e%2e/outside/secret.txt', 'read'),
  // `~/` in the path: the home folder, outside the working folder.
  every('tilde-read', '~/h.txt', 'read'),
  // .env and .git/HEAD inside the working folder.
  every('dotenv-read', '{base}/ws/.env', 'read'),
  every('git-head-read', '{base}/ws/.git/HEAD', 'read'),
  every('git-change', '{base}/ws/.git/new-hook', 'change'),
  // The working folder reached through a link, the file named by its real path.
  every('cwd-through-link-read', '{base}/ws/a.txt', 'read', { cwd: 'ws-link', allowed: ['{base}/ws-link'] }),
  // The working folder reached through a link, the file named through the link.
  every('cwd-through-link-change', '{base}/ws-link/new.txt', 'change', { cwd: 'ws-link', allowed: ['{base}/ws-link'] }),
  // A folder added (--add-dir, --include-directories, a second allowed directory) for a file in it.
  every('added-dir-read', '{base}/extra/notes.txt', 'read', { addDirs: ['{base}/extra'], allowed: ['{base}/ws', '{base}/extra'] }),
  every('added-dir-change', '{base}/extra/new.txt', 'change', { addDirs: ['{base}/extra'], allowed: ['{base}/ws', '{base}/extra'] }),
];

// ------------------------------------------------------------------------------------------------
// Claude Code: rules, anchors, layers, precedence, modes, added folders.
// ------------------------------------------------------------------------------------------------

const claude = (name: string, input: string, tool: 'Read' | 'Write' | 'Edit', settings: ClaudeSettings, more: Partial<DeciderCase> = {}): DeciderCase => ({
  name: `claude-${name}`,
  input,
  tools: { 'claude-code': [tool] },
  claude: settings,
  ...more,
});

const CLAUDE: readonly DeciderCase[] = [
  // A relative rule `./a.txt` denies the file it names.
  claude('deny-read-dot-relative', '{base}/ws/a.txt', 'Read', { project: permissions({ deny: ['Read(./a.txt)'] }) }),
  // `./A.TXT` against a.txt on a case-sensitive disk.
  claude('deny-read-case', '{base}/ws/a.txt', 'Read', { project: permissions({ deny: ['Read(./A.TXT)'] }) }),
  // `./.env` against conf/.env: a `./` rule reaching into subfolders.
  claude('deny-read-dot-env-nested', '{base}/ws/conf/.env', 'Read', { project: permissions({ deny: ['Read(./.env)'] }) }),
  // `./.env` against the .env it names.
  claude('deny-read-dot-env', '{base}/ws/.env', 'Read', { project: permissions({ deny: ['Read(./.env)'] }) }),
  // `./.env` against .env.local: a longer name.
  claude('deny-read-dot-env-longer', '{base}/ws/.env.local', 'Read', { project: permissions({ deny: ['Read(./.env)'] }) }),
  // A bare name `.env` (no anchor) against conf/.env.
  claude('deny-read-bare-nested', '{base}/ws/conf/.env', 'Read', { project: permissions({ deny: ['Read(.env)'] }) }),
  // `./sub/b.txt` against sub/b.txt.
  claude('deny-read-dot-path', '{base}/ws/sub/b.txt', 'Read', { project: permissions({ deny: ['Read(./sub/b.txt)'] }) }),
  // `./b.txt` against sub/b.txt: a one-name rule, nested.
  claude('deny-read-dot-name-nested', '{base}/ws/sub/b.txt', 'Read', { project: permissions({ deny: ['Read(./b.txt)'] }) }),
  // `/sub/**`: `/` is relative to the settings file's project.
  claude('deny-read-slash-project', '{base}/ws/sub/b.txt', 'Read', { project: permissions({ deny: ['Read(/sub/**)'] }) }),
  // `/sub/**` in the user's settings: `/` relative to the user's folder, not the project.
  claude('deny-read-slash-user', '{base}/ws/sub/b.txt', 'Read', { user: permissions({ deny: ['Read(/sub/**)'] }) }),
  // `/a.txt` written as a filesystem path: read as relative to the project, it misses.
  claude('deny-read-slash-absolute-looking', '{base}/ws/a.txt', 'Read', { project: permissions({ deny: ['Read({base}/ws/a.txt)'] }) }),
  // `//abs`: an absolute path.
  claude('deny-read-double-slash', '{base}/ws/a.txt', 'Read', { project: permissions({ deny: ['Read(/{base}/ws/a.txt)'] }) }),
  // `//abs/**` outside: deny instead of the default ask.
  claude('deny-read-double-slash-outside', '{base}/outside/secret.txt', 'Read', { project: permissions({ deny: ['Read(/{base}/outside/**)'] }) }),
  // `~/`: the home folder.
  claude('deny-read-tilde', '{home}/h.txt', 'Read', { user: permissions({ deny: ['Read(~/h.txt)'] }) }),
  // `**/*.txt`: a glob across folders.
  claude('deny-read-glob-star-star', '{base}/ws/sub/b.txt', 'Read', { project: permissions({ deny: ['Read(**/*.txt)'] }) }),
  // `*.txt` without `**`: one name, at any depth?
  claude('deny-read-glob-star-nested', '{base}/ws/sub/b.txt', 'Read', { project: permissions({ deny: ['Read(*.txt)'] }) }),
  // `./sub/*` against sub/b.txt.
  claude('deny-read-glob-folder', '{base}/ws/sub/b.txt', 'Read', { project: permissions({ deny: ['Read(./sub/*)'] }) }),
  // A folder rule without a glob: `./sub`.
  claude('deny-read-folder-bare', '{base}/ws/sub/b.txt', 'Read', { project: permissions({ deny: ['Read(./sub)'] }) }),
  // A folder rule with a slash: `./sub/`.
  claude('deny-read-folder-slash', '{base}/ws/sub/b.txt', 'Read', { project: permissions({ deny: ['Read(./sub/)'] }) }),
  // A rule naming the folder in NFC, the path asked in NFD.
  claude('deny-read-nfc-rule-nfd-path', `{base}/ws/${NFD}/n.txt`, 'Read', { project: permissions({ deny: [`Read(./${NFC}/**)`] }) }),
  // A rule naming the folder in NFC, the path asked in NFD, both folders on disk.
  claude('deny-read-nfc-rule-nfd-file', `{base}/ws/${NFD}/n.txt`, 'Read', { project: permissions({ deny: [`Read(./${NFC}/**)`] }) }, { tree: { [`ws/${NFD}/n.txt`]: 'nfd\n' } }),
  // A rule naming the folder in NFD, the path asked in NFC.
  claude('deny-read-nfd-rule-nfc-file', `{base}/ws/${NFC}/n.txt`, 'Read', { project: permissions({ deny: [`Read(./${NFD}/**)`] }) }),
  // A rule naming the folder in NFC, the path asked in NFC.
  claude('deny-read-nfc-rule', `{base}/ws/${NFC}/n.txt`, 'Read', { project: permissions({ deny: [`Read(./${NFC}/**)`] }) }),
  // A deny on the link's target, read through the link.
  claude('deny-target-read-through-link', '{base}/ws/escape-file', 'Read', { project: permissions({ deny: ['Read(/{base}/outside/**)'] }) }),
  // A deny on the link, read by the target's path (outside: ask anyway).
  claude('deny-link-read-by-target', '{base}/ws/inner/b.txt', 'Read', { project: permissions({ deny: ['Read(./sub/**)'] }) }),
  // A Read deny on a file edited.
  claude('deny-read-then-edit', '{base}/ws/a.txt', 'Edit', { project: permissions({ deny: ['Read(./a.txt)'] }, { defaultMode: 'acceptEdits' }) }),
  // An Edit deny on a file read.
  claude('deny-edit-then-read', '{base}/ws/a.txt', 'Read', { project: permissions({ deny: ['Edit(./a.txt)'] }) }),
  // An Edit deny on a file written.
  claude('deny-edit-write', '{base}/ws/new.txt', 'Write', { project: permissions({ deny: ['Edit(./new.txt)'] }, { defaultMode: 'acceptEdits' }) }),
  // An Edit deny on a file edited (after reading it).
  claude('deny-edit-edit', '{base}/ws/a.txt', 'Edit', { project: permissions({ deny: ['Edit(./a.txt)'] }, { defaultMode: 'acceptEdits' }) }),
  // A Write-named rule: `Write(./new.txt)`.
  claude('deny-write-rule', '{base}/ws/new.txt', 'Write', { project: permissions({ deny: ['Write(./new.txt)'] }, { defaultMode: 'acceptEdits' }) }),
  // An ask rule on a file read inside.
  claude('ask-read-inside', '{base}/ws/a.txt', 'Read', { project: permissions({ ask: ['Read(./a.txt)'] }) }),
  // An allow rule on a file read outside.
  claude('allow-read-outside', '{base}/outside/secret.txt', 'Read', { project: permissions({ allow: ['Read(/{base}/outside/**)'] }) }),
  // The same allow rule in the user's settings.
  claude('allow-read-outside-user', '{base}/outside/secret.txt', 'Read', { user: permissions({ allow: ['Read(/{base}/outside/**)'] }) }),
  // The same allow rule in the local settings.
  claude('allow-read-outside-local', '{base}/outside/secret.txt', 'Read', { local: permissions({ allow: ['Read(/{base}/outside/**)'] }) }),
  // The same allow rule in the project's settings, the folder trusted.
  claude('allow-read-outside-project-trusted', '{base}/outside/secret.txt', 'Read', { project: permissions({ allow: ['Read(/{base}/outside/**)'] }), trusted: true }),
  // An allow rule in other letter case than the path.
  claude('allow-read-case-user', '{base}/outside/secret.txt', 'Read', { user: permissions({ allow: ['Read(/{base}/OUTSIDE/**)'] }) }),
  // An allow for Edit outside, then a read there.
  claude('allow-edit-then-read-outside', '{base}/outside/secret.txt', 'Read', { user: permissions({ allow: ['Edit(/{base}/outside/**)'] }) }),
  // An allow for Edit outside, then a write there.
  claude('allow-edit-write-outside', '{base}/outside/new.txt', 'Write', { user: permissions({ allow: ['Edit(/{base}/outside/**)'] }) }),
  // An allow for Edit inside in the project's settings, then a write there (default mode asks otherwise).
  claude('allow-edit-write-inside', '{base}/ws/new.txt', 'Write', { project: permissions({ allow: ['Edit(./**)'] }) }),
  // An allow for Edit inside in the local settings, then a write there.
  claude('allow-edit-write-inside-local', '{base}/ws/new.txt', 'Write', { local: permissions({ allow: ['Edit(./**)'] }) }),
  // A bare tool name `Read` allows every read.
  claude('allow-bare-read-outside', '{base}/outside/secret.txt', 'Read', { user: permissions({ allow: ['Read'] }) }),
  // Precedence: allow and deny on one file, in one file.
  claude('precedence-deny-over-allow', '{base}/outside/secret.txt', 'Read', { user: permissions({ allow: ['Read(/{base}/outside/**)'], deny: ['Read(/{base}/outside/secret.txt)'] }) }),
  // Precedence: allow and ask on one file.
  claude('precedence-ask-over-allow', '{base}/outside/secret.txt', 'Read', { user: permissions({ allow: ['Read(/{base}/outside/secret.txt)'], ask: ['Read(/{base}/outside/**)'] }) }),
  // Precedence: ask and deny on one file.
  claude('precedence-deny-over-ask', '{base}/ws/a.txt', 'Read', { project: permissions({ ask: ['Read(./a.txt)'], deny: ['Read(./*.txt)'] }) }),
  // Layers: the user denies what the project allows.
  claude('layers-user-deny-project-allow', '{base}/outside/secret.txt', 'Read', { user: permissions({ deny: ['Read(/{base}/outside/**)'] }), project: permissions({ allow: ['Read(/{base}/outside/**)'] }) }),
  // Layers: the local file allows what the project denies.
  claude('layers-local-allow-project-deny', '{base}/ws/a.txt', 'Read', { project: permissions({ deny: ['Read(./a.txt)'] }), local: permissions({ allow: ['Read(./a.txt)'] }) }),
  // Layers: the local file denies.
  claude('layers-local-deny', '{base}/ws/a.txt', 'Read', { local: permissions({ deny: ['Read(./a.txt)'] }) }),
  // Layers: the user's file denies with a `./` rule (relative to what?).
  claude('layers-user-dot-relative', '{base}/ws/a.txt', 'Read', { user: permissions({ deny: ['Read(./a.txt)'] }) }),
  // Layers: the project asks what the user allows.
  claude('layers-project-ask-user-allow', '{base}/outside/secret.txt', 'Read', { user: permissions({ allow: ['Read(/{base}/outside/**)'] }), project: permissions({ ask: ['Read(/{base}/outside/**)'] }) }),
  // Layers: a --settings file denies.
  claude('layers-flag-deny', '{base}/ws/a.txt', 'Read', { flag: permissions({ deny: ['Read(./a.txt)'] }) }),
  // Layers: a --settings file allows what the project denies.
  claude('layers-flag-allow-project-deny', '{base}/ws/a.txt', 'Read', { flag: permissions({ allow: ['Read(./a.txt)'] }), project: permissions({ deny: ['Read(./a.txt)'] }) }),
  // additionalDirectories in the user's settings.
  claude('additional-dirs-user-read', '{base}/extra/notes.txt', 'Read', { user: permissions({}, { additionalDirectories: ['{base}/extra'] }) }),
  // additionalDirectories in the project's settings.
  claude('additional-dirs-project-read', '{base}/extra/notes.txt', 'Read', { project: permissions({}, { additionalDirectories: ['{base}/extra'] }) }),
  // additionalDirectories in the project's settings, the folder trusted.
  claude('additional-dirs-project-trusted-read', '{base}/extra/notes.txt', 'Read', { project: permissions({}, { additionalDirectories: ['{base}/extra'] }), trusted: true }),
  // additionalDirectories in other letter case than the folder.
  claude('additional-dirs-case-read', '{base}/extra/notes.txt', 'Read', { user: permissions({}, { additionalDirectories: ['{base}/EXTRA'] }) }),
  // additionalDirectories naming a link to the folder, the file by its real path.
  claude('additional-dirs-link-by-target', '{base}/extra/notes.txt', 'Read', { user: permissions({}, { additionalDirectories: ['{base}/extra-link'] }) }, { tree: { 'extra-link': link('extra') } }),
  // additionalDirectories naming a link to the folder, the file through the link.
  claude('additional-dirs-link-by-link', '{base}/extra-link/notes.txt', 'Read', { user: permissions({}, { additionalDirectories: ['{base}/extra-link'] }) }, { tree: { 'extra-link': link('extra') } }),
  // additionalDirectories with `~/`.
  claude('additional-dirs-tilde', '{home}/h.txt', 'Read', { user: permissions({}, { additionalDirectories: ['~/'] }) }),
  // additionalDirectories in the local settings.
  claude('additional-dirs-local-read', '{base}/extra/notes.txt', 'Read', { local: permissions({}, { additionalDirectories: ['{base}/extra'] }) }),
  // additionalDirectories relative to the working folder.
  claude('additional-dirs-relative-read', '{base}/extra/notes.txt', 'Read', { user: permissions({}, { additionalDirectories: ['../extra'] }) }),
  // additionalDirectories in the user's settings, a sibling whose name starts with it.
  claude('additional-dirs-sibling-read', '{base}/extra-evil/x.txt', 'Read', { user: permissions({}, { additionalDirectories: ['{base}/extra'] }) }, { tree: { 'extra-evil/x.txt': 'x\n' } }),
  // additionalDirectories in the user's settings, a write there in acceptEdits.
  claude('additional-dirs-user-write', '{base}/extra/new.txt', 'Write', { user: permissions({}, { additionalDirectories: ['{base}/extra'], defaultMode: 'acceptEdits' }) }),
  // --add-dir, a write there in acceptEdits.
  claude('add-dir-flag-write', '{base}/extra/new.txt', 'Write', { user: permissions({}, { defaultMode: 'acceptEdits' }) }, { addDirs: ['{base}/extra'] }),
  // --add-dir, a deny rule inside it.
  claude('add-dir-flag-deny-rule', '{base}/extra/notes.txt', 'Read', { project: permissions({ deny: ['Read(/{base}/extra/**)'] }) }, { addDirs: ['{base}/extra'] }),
  // defaultMode acceptEdits: a write inside.
  claude('mode-accept-edits-inside', '{base}/ws/new.txt', 'Write', { project: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // defaultMode acceptEdits: a write outside.
  claude('mode-accept-edits-outside', '{base}/outside/new.txt', 'Write', { project: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // defaultMode acceptEdits in the user's settings: a write inside.
  claude('mode-accept-edits-user', '{base}/ws/new.txt', 'Write', { user: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // defaultMode bypassPermissions: a write outside.
  claude('mode-bypass-outside', '{base}/outside/new.txt', 'Write', { project: permissions({}, { defaultMode: 'bypassPermissions' }) }),
  // defaultMode bypassPermissions in the user's settings: a write outside.
  claude('mode-bypass-outside-user', '{base}/outside/new.txt', 'Write', { user: permissions({}, { defaultMode: 'bypassPermissions' }) }),
  // defaultMode acceptEdits in the local settings: a write inside.
  claude('mode-accept-edits-local', '{base}/ws/new.txt', 'Write', { local: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // defaultMode bypassPermissions with a deny rule.
  claude('mode-bypass-deny-rule', '{base}/ws/a.txt', 'Read', { project: permissions({ deny: ['Read(./a.txt)'] }, { defaultMode: 'bypassPermissions' }) }),
  // defaultMode plan: a write inside.
  claude('mode-plan-write', '{base}/ws/new.txt', 'Write', { project: permissions({}, { defaultMode: 'plan' }) }),
  // defaultMode dontAsk: a read outside, which would ask.
  claude('mode-dont-ask-outside', '{base}/outside/secret.txt', 'Read', { project: permissions({}, { defaultMode: 'dontAsk' }) }),
  // The default mode: a write inside asks.
  claude('mode-default-write-inside', '{base}/ws/new.txt', 'Write', {}),
  // acceptEdits: a write into .claude/ inside the working folder.
  claude('protected-claude-folder', '{base}/ws/.claude/new.json', 'Write', { user: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // acceptEdits: a write into .git/ inside the working folder.
  claude('protected-git-folder', '{base}/ws/.git/new-hook', 'Write', { user: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // acceptEdits: a write into .vscode/ inside the working folder.
  claude('protected-vscode-folder', '{base}/ws/.vscode/settings.json', 'Write', { user: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // acceptEdits: a write of .env inside.
  claude('accept-edits-dotenv', '{base}/ws/conf/.env.new', 'Write', { user: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // acceptEdits: an edit of a file inside, after reading it.
  claude('accept-edits-edit-inside', '{base}/ws/a.txt', 'Edit', { user: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // acceptEdits: a write through a folder link that leads out.
  claude('accept-edits-link-out', '{base}/ws/escape/new.txt', 'Write', { user: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // acceptEdits: a write through a link outside that leads in.
  claude('accept-edits-link-in', '{base}/outside/back-in/new.txt', 'Write', { user: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // acceptEdits: a write to the sibling whose name starts with the folder's.
  claude('accept-edits-sibling', '{base}/ws-evil/new.txt', 'Write', { user: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // An allow rule on the link's target, read through the link.
  claude('allow-target-read-through-link', '{base}/ws/escape-file', 'Read', { user: permissions({ allow: ['Read(/{base}/outside/**)'] }) }),
  // An allow rule on the link's path, read through it.
  claude('allow-link-path-read', '{base}/ws/escape-file', 'Read', { user: permissions({ allow: ['Read(./escape-file)'] }) }),
  // An allow rule on both ends of the link, read through it.
  claude('allow-both-link-ends-read', '{base}/ws/escape-file', 'Read', { user: permissions({ allow: ['Read(./escape-file)', 'Read(/{base}/outside/secret.txt)'] }) }),
  // `~/` in an allow rule.
  claude('allow-read-tilde', '{home}/h.txt', 'Read', { user: permissions({ allow: ['Read(~/h.txt)'] }) }),
  // An allow `sub/**` of one name: anchored at the working folder, or a name at any depth?
  claude('allow-edit-one-name-folder-nested', '{base}/ws/conf/sub/new.txt', 'Write', { local: permissions({ allow: ['Edit(sub/**)'] }) }, { tree: { 'ws/conf/sub/c.txt': 'c\n' } }),
  // A deny `./sub/**` of one name against conf/sub/: a name at any depth?
  claude('deny-read-one-name-folder-nested', '{base}/ws/conf/sub/c.txt', 'Read', { project: permissions({ deny: ['Read(./sub/**)'] }) }, { tree: { 'ws/conf/sub/c.txt': 'c\n' } }),
  // A relative deny rule and a file in an added folder.
  claude('deny-read-relative-added-dir', '{base}/extra/.env', 'Read', { user: permissions({ deny: ['Read(.env)'] }) }, { addDirs: ['{base}/extra'], tree: { 'extra/.env': 'X=1\n' } }),
  // A deny on a folder named through a link, the file read by its real path.
  claude('deny-linked-folder-real-path', '{base}/ws/sub/b.txt', 'Read', { project: permissions({ deny: ['Read(/{base}/ws/inner/**)'] }) }),
  // acceptEdits: an edit of a link at the last name (to a file inside).
  claude('accept-edits-edit-link', '{base}/ws/to-a', 'Edit', { user: permissions({}, { defaultMode: 'acceptEdits' }) }, { tree: { 'ws/to-a': link('a.txt') } }),
  // acceptEdits: a write of a shell profile inside.
  claude('protected-bashrc', '{base}/ws/.bashrc', 'Write', { user: permissions({}, { defaultMode: 'acceptEdits' }) }),
  // A read of a name holding `~` and a digit, as a Windows short name does.
  claude('read-tilde-digit', '{base}/ws/backup~1.txt', 'Read', {}, { tree: { 'ws/backup~1.txt': 'b\n' } }),
  // A deny on the whole Write tool, and a write inside in acceptEdits.
  claude('deny-whole-write-tool', '{base}/ws/new.txt', 'Write', { user: permissions({ deny: ['Write'] }, { defaultMode: 'acceptEdits' }) }),
];

// ------------------------------------------------------------------------------------------------
// Codex: sandbox modes, writable roots, /tmp and $TMPDIR, added folders, protected folders, profiles.
// ------------------------------------------------------------------------------------------------

const codex = (name: string, input: string, tools: readonly ToolName[], settings: CodexSettings, more: Partial<DeciderCase> = {}): DeciderCase => ({
  name: `codex-${name}`,
  input,
  tools: { codex: tools },
  codex: settings,
  ...more,
});
const WRITES: readonly ToolName[] = ['apply_patch', 'shell-write'];

const CODEX: readonly DeciderCase[] = [
  // No sandbox_mode and no trusted project: the default.
  codex('default-mode-inside', '{base}/ws/new.txt', WRITES, {}),
  // read-only: a write inside.
  codex('read-only-inside', '{base}/ws/new.txt', WRITES, { config: 'sandbox_mode = "read-only"' }),
  // read-only: a read outside.
  codex('read-only-read-outside', '{base}/outside/secret.txt', ['shell-read'], { config: 'sandbox_mode = "read-only"' }),
  // danger-full-access: a write outside.
  codex('full-access-outside', '{base}/outside/new.txt', WRITES, { config: 'sandbox_mode = "danger-full-access"' }),
  // workspace-write: a write to /tmp, writable unless excluded.
  codex('tmp-writable', '/tmp/{case}.txt', WRITES, { config: WORKSPACE_WRITE }),
  // workspace-write with exclude_slash_tmp: a write to /tmp.
  codex('tmp-excluded', '/tmp/{case}.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true` }),
  // workspace-write: a write to $TMPDIR.
  codex('tmpdir-writable', '{base}/tmpdir/new.txt', WRITES, { config: WORKSPACE_WRITE, tmpdir: 'tmpdir' }, { tree: { 'tmpdir/keep': '' } }),
  // workspace-write with exclude_tmpdir_env_var: a write to $TMPDIR.
  codex('tmpdir-excluded', '{base}/tmpdir/new.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nexclude_tmpdir_env_var = true`, tmpdir: 'tmpdir' }, { tree: { 'tmpdir/keep': '' } }),
  // writable_roots: a write into the root added.
  codex('writable-roots-inside', '{base}/extra/new.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["{base}/extra"]` }),
  // writable_roots: a sibling whose name starts with the root's.
  codex('writable-roots-sibling', '{base}/extra-evil/new.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["{base}/extra"]` }, { tree: { 'extra-evil/keep': '' } }),
  // writable_roots given relative: against what?
  codex('writable-roots-relative', '{base}/extra/new.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["../extra"]` }),
  // writable_roots in read-only mode: ignored?
  codex('writable-roots-read-only', '{base}/extra/new.txt', WRITES, { config: `sandbox_mode = "read-only"\n[sandbox_workspace_write]\nwritable_roots = ["{base}/extra"]` }),
  // --add-dir: a write into the folder added.
  codex('add-dir-inside', '{base}/extra/new.txt', WRITES, { config: WORKSPACE_WRITE }, { addDirs: ['{base}/extra'] }),
  // --add-dir in read-only mode.
  codex('add-dir-read-only', '{base}/extra/new.txt', WRITES, { config: 'sandbox_mode = "read-only"' }, { addDirs: ['{base}/extra'] }),
  // Protected: .git inside the working folder (a new file in it).
  codex('protected-git', '{base}/ws/.git/new-hook', WRITES, { config: WORKSPACE_WRITE }),
  // Protected: .codex inside the working folder.
  codex('protected-codex', '{base}/ws/.codex/new.toml', WRITES, { config: WORKSPACE_WRITE }, { tree: { 'ws/.codex/keep': '' } }),
  // Protected: .agents inside the working folder.
  codex('protected-agents', '{base}/ws/.agents/new.md', WRITES, { config: WORKSPACE_WRITE }, { tree: { 'ws/.agents/keep': '' } }),
  // Protected: .git in a subfolder (a nested repository).
  codex('protected-git-nested', '{base}/ws/sub/.git/new-hook', WRITES, { config: WORKSPACE_WRITE }, { tree: { 'ws/sub/.git/HEAD': 'ref: refs/heads/main\n' } }),
  // Protected: .git inside a writable root.
  codex('protected-git-writable-root', '{base}/extra/.git/new-hook', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["{base}/extra"]` }, { tree: { 'extra/.git/HEAD': 'ref: refs/heads/main\n' } }),
  // Protected: .git that does not exist yet.
  codex('protected-git-absent', '{base}/ws/.git/HEAD', WRITES, { config: WORKSPACE_WRITE }, { tree: { 'ws/.git': { absent: true } } }),
  // .env inside: not protected.
  codex('dotenv-inside', '{base}/ws/conf/.env.new', WRITES, { config: WORKSPACE_WRITE }),
  // .aws inside the working folder.
  codex('protected-aws', '{base}/ws/.aws/credentials', WRITES, { config: WORKSPACE_WRITE }, { tree: { 'ws/.aws/keep': '' } }),
  // The legacy profile selector `profile = "open"` in config.toml.
  codex('profile-legacy-selector', '{base}/outside/new.txt', WRITES, { config: 'profile = "open"\nsandbox_mode = "workspace-write"\n[profiles.open]\nsandbox_mode = "danger-full-access"' }),
  // A legacy [profiles.locked] table chosen with --profile.
  codex('profile-legacy-table-flag', '{base}/ws/new.txt', WRITES, { config: 'sandbox_mode = "workspace-write"\n[profiles.locked]\nsandbox_mode = "read-only"', profile: 'locked' }),
  // A legacy [profiles.locked] table nobody chooses.
  codex('profile-legacy-table-unused', '{base}/ws/new.txt', WRITES, { config: 'sandbox_mode = "workspace-write"\n[profiles.locked]\nsandbox_mode = "read-only"' }),
  // A profile file chosen with --profile, over config.toml's mode.
  codex('profile-file-flag', '{base}/ws/new.txt', WRITES, { config: 'sandbox_mode = "workspace-write"', profiles: { locked: 'sandbox_mode = "read-only"' }, profile: 'locked' }),
  // A profile file chosen with --profile, adding a writable root.
  codex('profile-file-writable-roots', '{base}/extra/new.txt', WRITES, { config: 'sandbox_mode = "workspace-write"', profiles: { extra: '[sandbox_workspace_write]\nwritable_roots = ["{base}/extra"]' }, profile: 'extra' }),
  // A profile file nobody chooses.
  codex('profile-file-unused', '{base}/outside/new.txt', WRITES, { config: 'sandbox_mode = "workspace-write"', profiles: { open: 'sandbox_mode = "danger-full-access"' } }),
  // --sandbox on the command line over config.toml.
  codex('sandbox-flag-over-config', '{base}/ws/new.txt', WRITES, { config: 'sandbox_mode = "workspace-write"', sandbox: 'read-only' }),
  // A trusted project without sandbox_mode.
  codex('trusted-project-default', '{base}/ws/new.txt', WRITES, { config: '[projects."{base}/ws"]\ntrust_level = "trusted"' }),
  // A project .codex/config.toml setting the mode, the project trusted.
  codex('project-config-mode', '{base}/ws/new.txt', WRITES, { config: '[projects."{base}/ws"]\ntrust_level = "trusted"', project: 'sandbox_mode = "read-only"' }),
  // approval_policy on-request: a write outside, which would ask.
  codex('approval-on-request-outside', '{base}/outside/new.txt', WRITES, { config: `approval_policy = "on-request"\n${WORKSPACE_WRITE}` }),
  // approval_policy untrusted: a write inside.
  codex('approval-untrusted-inside', '{base}/ws/new.txt', WRITES, { config: `approval_policy = "untrusted"\n${WORKSPACE_WRITE}` }),
  // writable_roots naming a link to the folder, the file by its real path.
  codex('writable-roots-link-by-target', '{base}/extra/new.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["{base}/extra-link"]` }, { tree: { 'extra-link': link('extra') } }),
  // writable_roots naming a link to the folder, the file through the link.
  codex('writable-roots-link-by-link', '{base}/extra-link/new.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["{base}/extra-link"]` }, { tree: { 'extra-link': link('extra') } }),
  // writable_roots with `~/`.
  codex('writable-roots-tilde', '{home}/new.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["~/"]` }),
  // A dangling link inside that points out, written through.
  codex('dangling-link-out', '{base}/ws/dangling-out', ['shell-write'], { config: WORKSPACE_WRITE }, { tree: { 'ws/dangling-out': link('../outside/made-by-link.txt') } }),
  // A read outside in workspace-write.
  codex('read-outside', '{base}/outside/secret.txt', ['shell-read'], { config: WORKSPACE_WRITE }),
  // A read of the home folder in workspace-write.
  codex('read-home', '{home}/h.txt', ['shell-read'], { config: WORKSPACE_WRITE }),
  // A write into the home folder in workspace-write.
  codex('write-home', '{home}/new.txt', WRITES, { config: WORKSPACE_WRITE }),
  // A relative path through the folder link that leads out.
  codex('relative-link-out', 'escape/new.txt', WRITES, { config: WORKSPACE_WRITE }),
  // A write over an existing file through a file link that leads out.
  codex('overwrite-link-out-file', '{base}/ws/escape-file', ['shell-write'], { config: WORKSPACE_WRITE }),
  // writable_roots given relative, climbing out of $CODEX_HOME ({home}/.codex) to {base}/extra.
  codex('writable-roots-relative-to-codex-home', '{base}/extra/new.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["../../extra"]` }),
  // --add-dir given relative: against the working folder?
  codex('add-dir-relative', '{base}/extra/new.txt', WRITES, { config: WORKSPACE_WRITE }, { addDirs: ['../extra'] }),
  // A project marked untrusted, without sandbox_mode.
  codex('untrusted-project-default', '{base}/ws/new.txt', WRITES, { config: '[projects."{base}/ws"]\ntrust_level = "untrusted"' }),
  // Protected: .codex that does not exist yet.
  codex('protected-codex-absent', '{base}/ws/.codex/new.toml', WRITES, { config: WORKSPACE_WRITE }),
  // Protected: .agents that does not exist yet.
  codex('protected-agents-absent', '{base}/ws/.agents/new.md', WRITES, { config: WORKSPACE_WRITE }),
  // Protected: .aws that does not exist yet.
  codex('protected-aws-absent', '{base}/ws/.aws/credentials', WRITES, { config: WORKSPACE_WRITE }),
  // .aws in a subfolder: protected at any depth, or only at the root's top as .git is?
  codex('protected-aws-nested', '{base}/ws/sub/.aws/credentials', WRITES, { config: WORKSPACE_WRITE }, { tree: { 'ws/sub/.aws/keep': '' } }),
  // .codex in a subfolder.
  codex('protected-codex-nested', '{base}/ws/sub/.codex/new.toml', WRITES, { config: WORKSPACE_WRITE }, { tree: { 'ws/sub/.codex/keep': '' } }),
  // writable_roots naming a folder that does not exist: the patch passes Codex's check, the sandbox binds nothing there.
  codex('writable-roots-missing', '{base}/made/new.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["{base}/made"]` }),
  // A trusted project's .codex/config.toml adding a relative writable root: against its .codex folder.
  codex('project-writable-roots-relative', '{base}/extra/new.txt', WRITES, { config: '[projects."{base}/ws"]\ntrust_level = "trusted"', project: '[sandbox_workspace_write]\nwritable_roots = ["../../extra"]' }),
  // An untrusted project's .codex/config.toml asking for full access: ignored?
  codex('project-config-untrusted', '{base}/outside/new.txt', WRITES, { config: WORKSPACE_WRITE, project: 'sandbox_mode = "danger-full-access"' }),
  // A sandbox_mode Codex does not know.
  codex('sandbox-mode-invalid', '{base}/ws/new.txt', WRITES, { config: 'sandbox_mode = "workspace"' }),
  // The protected .git named as a writable root of its own.
  codex('protected-git-as-writable-root', '{base}/ws/.git/new-hook', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["{base}/ws/.git"]` }),
  // --add-dir naming a link to the folder, the file by its real path.
  codex('add-dir-link-by-target', '{base}/extra/new.txt', WRITES, { config: WORKSPACE_WRITE }, { addDirs: ['{base}/extra-link'], tree: { 'extra-link': link('extra') } }),
  // writable_roots with `..` inside it.
  codex('writable-roots-dotdot', '{base}/extra/new.txt', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["{base}/outside/../extra"]` }),
  // A project marked untrusted whose .codex/config.toml asks for full access.
  codex('project-config-marked-untrusted', '{base}/outside/new.txt', WRITES, { config: '[projects."{base}/ws"]\ntrust_level = "untrusted"', project: 'sandbox_mode = "danger-full-access"' }),
  // Started in a subfolder of a trusted repository, without sandbox_mode: the repository's trust.
  codex('trusted-repository-subfolder', '{base}/ws/sub/new.txt', WRITES, { config: '[projects."{base}/ws"]\ntrust_level = "trusted"' }, { cwd: 'ws/sub' }),
  // A new file in a folder that is not there, outside.
  codex('missing-folder-outside', '{base}/outside/nope/new.txt', WRITES, { config: WORKSPACE_WRITE }),
  // Deeper inside a protected .git that does not exist.
  codex('protected-git-absent-deeper', '{base}/ws/.git/hooks/new-hook', WRITES, { config: WORKSPACE_WRITE }, { tree: { 'ws/.git': { absent: true } } }),
  // read-only: a new file in a folder that is not there.
  codex('read-only-missing-folder', '{base}/ws/nope/new.txt', ['shell-write'], { config: 'sandbox_mode = "read-only"' }),
  // A nested repository added as a writable root: its .git, under the working folder too.
  codex('writable-root-nested-repository-git', '{base}/ws/sub/.git/new-hook', WRITES, { config: `${WORKSPACE_WRITE}\n[sandbox_workspace_write]\nwritable_roots = ["{base}/ws/sub"]` }, { tree: { 'ws/sub/.git/HEAD': 'ref: refs/heads/main\n' } }),
  // approval_policy on-failure: a write outside.
  codex('approval-on-failure-outside', '{base}/outside/new.txt', WRITES, { config: `approval_policy = "on-failure"\n${WORKSPACE_WRITE}` }),
  // --sandbox danger-full-access over read-only in config.toml.
  codex('sandbox-flag-full-access', '{base}/outside/new.txt', WRITES, { config: 'sandbox_mode = "read-only"', sandbox: 'danger-full-access' }),
  // --profile naming a file that is not there.
  codex('profile-file-missing', '{base}/ws/new.txt', WRITES, { config: WORKSPACE_WRITE, profile: 'absent' }),
  // `..` that stays inside the working folder.
  codex('dotdot-inside', '{base}/ws/sub/../new.txt', WRITES, { config: WORKSPACE_WRITE }),
  // A link inside that stays inside, a new file through it.
  codex('link-inside-change', '{base}/ws/inner/new.txt', WRITES, { config: WORKSPACE_WRITE }),
];

// ------------------------------------------------------------------------------------------------
// Gemini CLI: the workspace, blocked names, includeDirectories, trust, approval.
// ------------------------------------------------------------------------------------------------

const gemini = (name: string, input: string, tools: readonly ToolName[], settings: GeminiSettings, more: Partial<DeciderCase> = {}): DeciderCase => ({
  name: `gemini-${name}`,
  input,
  tools: { 'gemini-cli': tools },
  gemini: settings,
  ...more,
});
const READ: readonly ToolName[] = ['read_file'];
const WRITE: readonly ToolName[] = ['write_file'];

const GEMINI: readonly DeciderCase[] = [
  // .env nested in a subfolder.
  gemini('dotenv-nested', '{base}/ws/conf/.env', READ, {}),
  // .ENV: another case.
  gemini('dotenv-upper', '{base}/ws/.ENV', READ, {}, { tree: { 'ws/.ENV': 'UPPER=1\n' } }),
  // .env.local: a longer name.
  gemini('dotenv-local', '{base}/ws/.env.local', READ, {}),
  // .env. (a trailing dot).
  gemini('dotenv-trailing-dot', '{base}/ws/.env.', READ, {}, { tree: { 'ws/.env.': 'DOT=1\n' } }),
  // A folder named .env.
  gemini('dotenv-folder', '{base}/ws/.env-dir/x', READ, {}, { tree: { 'ws/.env-dir/x': 'x\n' } }),
  // node_modules inside.
  gemini('node-modules', '{base}/ws/node_modules/pkg/index.js', READ, {}),
  // node_modules as part of the working folder's own path: only names under the folder count?
  gemini('node-modules-above', '{base}/node_modules/proj/a.txt', READ, {}, { cwd: 'node_modules/proj', tree: { 'node_modules/proj/a.txt': 'a\n' } }),
  // gha-creds-*.json inside.
  gemini('gha-creds', '{base}/ws/gha-creds-1234.json', READ, {}, { tree: { 'ws/gha-creds-1234.json': '{}\n' } }),
  // .gitignore: not .git.
  gemini('gitignore', '{base}/ws/.gitignore', READ, {}, { tree: { 'ws/.gitignore': 'x\n' } }),
  // .github/: not .git.
  gemini('github-folder', '{base}/ws/.github/ci.yml', READ, {}, { tree: { 'ws/.github/ci.yml': 'x\n' } }),
  // A write of .env inside.
  gemini('dotenv-write', '{base}/ws/conf/.env.new', WRITE, {}),
  // A write of a new .env inside.
  gemini('dotenv-write-exact', '{base}/ws/sub/.env', WRITE, {}),
  // An encoded `..` that decodes to a path outside.
  gemini('encoded-dotdot-outside', '{base}/ws/%2e%2e/outside/secret.txt', READ, {}),
  // An encoded name that decodes to a path inside, for a file whose name holds the `%`.
  gemini('encoded-name-literal', '{base}/ws/100%25.txt', READ, {}, { tree: { 'ws/100%25.txt': 'literal\n' } }),
  // A `file://` URI given as the path.
  gemini('file-uri', 'file://{base}/ws/a.txt', READ, {}),
  // includeDirectories in the user's settings.
  gemini('include-dirs-user', '{base}/extra/notes.txt', READ, { user: { context: { includeDirectories: ['{base}/extra'] } } }),
  // includeDirectories in the workspace's settings (a trusted folder).
  gemini('include-dirs-workspace', '{base}/extra/notes.txt', READ, { workspace: { context: { includeDirectories: ['{base}/extra'] } } }),
  // includeDirectories in the system settings.
  gemini('include-dirs-system', '{base}/extra/notes.txt', READ, { system: { context: { includeDirectories: ['{base}/extra'] } } }),
  // includeDirectories in a system settings file anyone could have written.
  gemini('include-dirs-system-open-folder', '{base}/extra/notes.txt', READ, { system: { context: { includeDirectories: ['{base}/extra'] } }, systemInOpenFolder: true }),
  // includeDirectories relative: against the working folder.
  gemini('include-dirs-relative', '{base}/extra/notes.txt', READ, { user: { context: { includeDirectories: ['../extra'] } } }),
  // includeDirectories with `~/`.
  gemini('include-dirs-tilde', '{home}/h.txt', READ, { user: { context: { includeDirectories: ['~/'] } } }),
  // includeDirectories, a sibling whose name starts with it.
  gemini('include-dirs-sibling', '{base}/extra-evil/x.txt', READ, { user: { context: { includeDirectories: ['{base}/extra'] } } }, { tree: { 'extra-evil/x.txt': 'x\n' } }),
  // includeDirectories naming a folder that does not exist.
  gemini('include-dirs-missing', '{base}/ws/a.txt', READ, { user: { context: { includeDirectories: ['{base}/missing'] } } }),
  // includeDirectories, .env inside the added folder.
  gemini('include-dirs-dotenv', '{base}/extra/.env', READ, { user: { context: { includeDirectories: ['{base}/extra'] } } }, { tree: { 'extra/.env': 'X=1\n' } }),
  // includeDirectories, a write into the added folder.
  gemini('include-dirs-write', '{base}/extra/new.txt', WRITE, { user: { context: { includeDirectories: ['{base}/extra'] } } }),
  // The project's temporary folder under ~/.gemini/tmp/.
  gemini('project-temp-dir', '{home}/.gemini/tmp/ws/new.txt', WRITE, {}),
  // Another project's temporary folder.
  gemini('other-project-temp-dir', '{home}/.gemini/tmp/other/new.txt', WRITE, {}),
  // The global GEMINI.md.
  gemini('global-memory-file', '{home}/.gemini/GEMINI.md', READ, {}, { tree: { 'home/.gemini/GEMINI.md': '# memory\n' } }),
  // A write in the default approval mode: not offered headless.
  gemini('write-default-approval', '{base}/ws/new.txt', WRITE, { approvalMode: null }),
  // A write in yolo mode outside.
  gemini('write-yolo-outside', '{base}/outside/new.txt', WRITE, { approvalMode: 'yolo' }),
  // A read in plan mode inside.
  gemini('read-plan-mode', '{base}/ws/a.txt', READ, { approvalMode: 'plan' }),
  // A write in plan mode inside.
  gemini('write-plan-mode', '{base}/ws/new.txt', WRITE, { approvalMode: 'plan' }),
  // An untrusted folder (no rule in trustedFolders.json).
  gemini('untrusted-folder', '{base}/ws/a.txt', READ, { trusted: {} }),
  // A folder marked DO_NOT_TRUST.
  gemini('do-not-trust', '{base}/ws/a.txt', READ, { trusted: { '{base}/ws': 'DO_NOT_TRUST' } }),
  // TRUST_PARENT on a sibling: the parent, so the working folder too.
  gemini('trust-parent', '{base}/ws/a.txt', READ, { trusted: { '{base}/extra': 'TRUST_PARENT' } }),
  // Trust given to the working folder's parent.
  gemini('trust-folder-parent', '{base}/ws/a.txt', READ, { trusted: { '{base}': 'TRUST_FOLDER' } }),
  // Folder trust turned off in the user's settings, no trust rule.
  gemini('folder-trust-disabled', '{base}/ws/a.txt', READ, { user: { security: { folderTrust: { enabled: false } } }, trusted: {} }),
  // An untrusted folder whose workspace settings add a folder: ignored?
  gemini('untrusted-workspace-include', '{base}/extra/notes.txt', READ, { workspace: { context: { includeDirectories: ['{base}/extra'] } }, user: { security: { folderTrust: { enabled: false } } }, trusted: {} }),
  // The working folder reached through a link, trusted by the link's path.
  gemini('trust-through-link', '{base}/ws/a.txt', READ, { trusted: { '{base}/ws-link': 'TRUST_FOLDER' } }, { cwd: 'ws-link' }),
  // A .geminiignore entry.
  gemini('geminiignore', '{base}/ws/sub/b.txt', READ, {}, { tree: { 'ws/.geminiignore': 'sub/\n' } }),
  // `%252e%252e`: decoded once to open the file, and again by the workspace check, to `..`.
  gemini('encoded-twice', '{base}/ws/%252e%252e/outside/secret.txt', READ, {}),
  // `git~1`: a Windows short name of .git, blocked on Linux too.
  gemini('short-name-git', '{base}/ws/git~1/x.txt', READ, {}, { tree: { 'ws/git~1/x.txt': 'x\n' } }),
  // `@sub/b.txt`: the leading `@` of a file reference is dropped when no such name exists.
  gemini('at-prefix', '@sub/b.txt', READ, {}),
  // includeDirectories naming the working folder's .git: the working folder is looked at first.
  gemini('include-dirs-git-folder', '{base}/ws/.git/HEAD', READ, { user: { context: { includeDirectories: ['{base}/ws/.git'] } } }),
  // includeDirectories in the user's and the workspace's settings: both lists count.
  gemini('include-dirs-concat', '{base}/extra/notes.txt', READ, { user: { context: { includeDirectories: ['{base}/extra'] } }, workspace: { context: { includeDirectories: ['{base}/outside'] } } }),
  // general.defaultApprovalMode auto_edit in the user's settings, no flag.
  gemini('approval-setting-auto-edit', '{base}/ws/new.txt', WRITE, { user: { general: { defaultApprovalMode: 'auto_edit' } }, approvalMode: null }),
  // general.defaultApprovalMode yolo in the user's settings: only the flag turns yolo on.
  gemini('approval-setting-yolo', '{base}/ws/new.txt', WRITE, { user: { general: { defaultApprovalMode: 'yolo' } }, approvalMode: null }),
  // The workspace's default over the user's: a scalar setting from the later layer wins.
  gemini('approval-workspace-over-user', '{base}/ws/new.txt', WRITE, { user: { general: { defaultApprovalMode: 'auto_edit' } }, workspace: { general: { defaultApprovalMode: 'default' } }, approvalMode: null }),
  // The system's default over the workspace's.
  gemini('approval-system-over-workspace', '{base}/ws/new.txt', WRITE, { workspace: { general: { defaultApprovalMode: 'auto_edit' } }, system: { general: { defaultApprovalMode: 'default' } }, approvalMode: null }),
  // A name starting with `..` inside: auto_edit's path checker takes it for a way out.
  gemini('dotdot-name-write', '{base}/ws/..notes.txt', WRITE, {}),
  // The same name in yolo mode, where that checker does not run.
  gemini('dotdot-name-write-yolo', '{base}/ws/..notes.txt', WRITE, { approvalMode: 'yolo' }),
  // A build file (package.json) inside: protected in a headless run.
  gemini('build-file-write', '{base}/ws/sub/package.json', WRITE, {}),
  // .vscode/ inside: auto_edit asks for it, and nobody can answer headless.
  gemini('vscode-write', '{base}/ws/.vscode/settings.json', WRITE, {}),
  // The project's temporary folder in yolo mode.
  gemini('project-temp-dir-yolo', '{home}/.gemini/tmp/ws/new.txt', WRITE, { approvalMode: 'yolo' }),
  // A plan written in plan mode by a bare name: into the plans folder.
  gemini('write-plan-mode-plan-file', 'plan.md', WRITE, { approvalMode: 'plan' }),
  // A bare name that is not Markdown in plan mode: in the plans folder, but not a plan.
  gemini('write-plan-mode-text-file', 'notes.txt', WRITE, { approvalMode: 'plan' }),
  // Plan mode turned off in the settings: --approval-mode plan falls back to default.
  gemini('plan-disabled', '{base}/ws/new.txt', WRITE, { user: { general: { plan: { enabled: false } } }, approvalMode: 'plan' }),
  // includeDirectories in system-defaults.json, beside the system settings.
  gemini('include-dirs-system-defaults', '{base}/extra/notes.txt', READ, { systemDefaults: { context: { includeDirectories: ['{base}/extra'] } } }),
  // includeDirectories naming a variable of the environment.
  gemini('include-dirs-env-var', '{base}/extra/notes.txt', READ, { user: { context: { includeDirectories: ['$EXTRA_DIR'] } }, env: { EXTRA_DIR: '{base}/extra' } }),
  // includeDirectories naming a file.
  gemini('include-dirs-file', '{base}/ws/a.txt', READ, { user: { context: { includeDirectories: ['{base}/extra/notes.txt'] } } }),
  // --include-directories with two folders in one value.
  gemini('include-dirs-flag-comma', '{base}/extra/notes.txt', READ, { args: ['--include-directories', '{base}/outside,{base}/extra'] }),
  // The editor's folders, from GEMINI_CLI_IDE_WORKSPACE_PATH.
  gemini('ide-workspace-path', '{base}/extra/notes.txt', READ, { env: { GEMINI_CLI_IDE_WORKSPACE_PATH: '{base}/extra' } }),
  // Started in the home folder, whose .gemini/settings.json is the user's.
  gemini('started-in-home', '{base}/extra/notes.txt', READ, { user: { context: { includeDirectories: ['{base}/extra'] } } }, { cwd: 'home' }),
  // No trust rule, GEMINI_CLI_TRUST_WORKSPACE=true.
  gemini('trust-env-true', '{base}/ws/a.txt', READ, { trusted: {}, env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' } }),
  // A trusted folder, GEMINI_CLI_TRUST_WORKSPACE=false.
  gemini('trust-env-false', '{base}/ws/a.txt', READ, { env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' } }),
  // No trust rule, --skip-trust.
  gemini('skip-trust', '{base}/ws/a.txt', READ, { trusted: {}, args: ['--skip-trust'] }),
  // No trust rule, --skip-trust, includeDirectories in the workspace's settings.
  gemini('skip-trust-workspace-include', '{base}/extra/notes.txt', READ, { trusted: {}, args: ['--skip-trust'], workspace: { context: { includeDirectories: ['{base}/extra'] } } }),
  // GEMINI_RESTRICTED_MODE=true with --skip-trust.
  gemini('restricted-mode', '{base}/ws/a.txt', READ, { args: ['--skip-trust'], env: { GEMINI_RESTRICTED_MODE: 'true' } }),
  // A trustedFolders.json that does not parse.
  gemini('trusted-folders-broken', '{base}/ws/a.txt', READ, { files: { 'home/.gemini/trustedFolders.json': '{"{base}/ws": "TRUST_FOLDER",}' } }),
  // The workspace's settings file with a trailing comma.
  gemini('settings-trailing-comma', '{base}/ws/a.txt', READ, { files: { 'ws/.gemini/settings.json': '{"context": {"includeDirectories": []},}' } }),
  // general.defaultApprovalMode with a value it does not know.
  gemini('approval-setting-unknown', '{base}/ws/new.txt', WRITE, { user: { general: { defaultApprovalMode: 'autoEdit' } }, approvalMode: null }),
  // --approval-mode with a value it does not know.
  gemini('approval-flag-unknown', '{base}/ws/new.txt', WRITE, { approvalMode: 'auto' }),
  // security.disableYoloMode with --approval-mode yolo.
  gemini('disable-yolo', '{base}/ws/new.txt', WRITE, { user: { security: { disableYoloMode: true } }, approvalMode: 'yolo' }),
  // -y for yolo, .vscode inside.
  gemini('yolo-short-flag-vscode', '{base}/ws/.vscode/settings.json', WRITE, { approvalMode: null, args: ['-y'] }),
  // A write outside in the default mode: asked before the path is looked at.
  gemini('write-default-approval-outside', '{base}/outside/new.txt', WRITE, { approvalMode: null }),
  // Dockerfile.<name>, a build file, in yolo mode.
  gemini('build-file-dockerfile-yolo', '{base}/ws/Dockerfile.dev', WRITE, { approvalMode: 'yolo' }),
  // VSCODE~1, the short name of .vscode.
  gemini('vscode-short-name', '{base}/ws/VSCODE~1/settings.json', WRITE, {}),
  // Its memory inbox, in yolo mode.
  gemini('memory-inbox', '{home}/.gemini/tmp/ws/memory/.inbox/x.patch', WRITE, { approvalMode: 'yolo' }),
  // projects.json giving the project another temporary folder.
  gemini('project-registry', '{home}/.gemini/tmp/ws-2/x.txt', WRITE, { approvalMode: 'yolo', files: { 'home/.gemini/projects.json': '{"projects": {"{base}/ws": "ws-2"}}', 'home/.gemini/tmp/ws-2/.project_root': '{base}/ws', 'home/.gemini/history/ws-2/.project_root': '{base}/ws' } }),
  // context.fileName renaming the global memory file.
  gemini('memory-file-renamed', '{home}/.gemini/AGENTS.md', READ, { user: { context: { fileName: 'AGENTS.md' } } }, { tree: { 'home/.gemini/AGENTS.md': '# memory\n' } }),
  // Its own settings file.
  gemini('own-settings-file', '{home}/.gemini/settings.json', READ, {}),
  // "..." in a path longer than 20 characters.
  gemini('ellipsis-name', '{base}/ws/wait...what.txt', READ, {}, { tree: { 'ws/wait...what.txt': 'x\n' } }),
  // A dangling link inside that points out, written through.
  gemini('dangling-link-out', '{base}/ws/dl', WRITE, {}, { tree: { 'ws/dl': link('../outside/made-by-link.txt') } }),
  // A dangling link inside that stays inside, written through.
  gemini('dangling-link-in', '{base}/ws/dl', WRITE, {}, { tree: { 'ws/dl': link('made-by-link.txt') } }),
  // A loop of links.
  gemini('link-loop', '{base}/ws/a-loop', READ, {}, { tree: { 'ws/a-loop': link('b-loop'), 'ws/b-loop': link('a-loop') } }),
  // A file link inside that leads into an included folder.
  gemini('link-into-included', '{base}/ws/to-notes', READ, { user: { context: { includeDirectories: ['{base}/extra'] } } }, { tree: { 'ws/to-notes': link('../extra/notes.txt') } }),
  // A custom ignore file (context.fileFiltering.customIgnoreFilePaths).
  gemini('custom-ignore-file', '{base}/ws/a.txt', READ, { user: { context: { fileFiltering: { customIgnoreFilePaths: ['.aiignore'] } } } }, { tree: { 'ws/.aiignore': 'a.txt\n' } }),
  // .geminiignore with respectGeminiIgnore false.
  gemini('geminiignore-not-respected', '{base}/ws/sub/b.txt', READ, { user: { context: { fileFiltering: { respectGeminiIgnore: false } } } }, { tree: { 'ws/.geminiignore': 'sub/\n' } }),
];

// ------------------------------------------------------------------------------------------------
// The reference server: allowed directories, links, home, Unicode, Windows paths.
// ------------------------------------------------------------------------------------------------

const reference = (name: string, input: string, tools: readonly ToolName[], allowed: readonly string[], more: Partial<DeciderCase> = {}): DeciderCase => ({
  name: `reference-${name}`,
  input,
  tools: { 'server-filesystem': tools },
  allowed,
  ...more,
});
const TEXT: readonly ToolName[] = ['read_text_file'];
const WRITE_FILE: readonly ToolName[] = ['write_file'];

const REFERENCE: readonly DeciderCase[] = [
  // An allowed directory that is a link: the link's path.
  reference('allowed-link-by-link', '{base}/ws-link/a.txt', TEXT, ['{base}/ws-link']),
  // An allowed directory that is a link: its target's path, added too.
  reference('allowed-link-by-target', '{base}/ws/a.txt', TEXT, ['{base}/ws-link']),
  // An allowed directory that is a link, a write by its target's path.
  reference('allowed-link-write-target', '{base}/ws/new.txt', WRITE_FILE, ['{base}/ws-link']),
  // An allowed directory given with a trailing slash.
  reference('allowed-trailing-slash', '{base}/ws/a.txt', TEXT, ['{base}/ws/']),
  // An allowed directory given relative: against the server's working folder.
  reference('allowed-relative', '{base}/ws/a.txt', TEXT, ['ws'], { cwd: '.' }),
  // An allowed directory given with `~/`.
  reference('allowed-tilde', '{home}/h.txt', TEXT, ['~/']),
  // An allowed directory given with `..` inside it.
  reference('allowed-dotdot', '{base}/ws/a.txt', TEXT, ['{base}/outside/../ws']),
  // Two allowed directories, the second one's file by a relative path.
  reference('relative-second-allowed', 'notes.txt', TEXT, ['{base}/ws', '{base}/extra']),
  // A relative path with `..` that leaves the first allowed directory into the second.
  reference('relative-dotdot-into-second', '../extra/notes.txt', TEXT, ['{base}/ws', '{base}/extra']),
  // The allowed directory itself, read as a file.
  reference('allowed-dir-itself', '{base}/ws', TEXT, ['{base}/ws']),
  // A Windows drive path on Linux.
  reference('windows-drive-path', 'C:\\Users\\dev\\a.txt', TEXT, ['{base}/ws']),
  // A path in quotes.
  reference('quoted-path', '"{base}/ws/a.txt"', TEXT, ['{base}/ws']),
  // Surrounding spaces.
  reference('spaced-path', ' {base}/ws/a.txt ', TEXT, ['{base}/ws']),
  // Doubled slashes.
  reference('double-slashes', '{base}//ws//a.txt', TEXT, ['{base}/ws']),
  // NFD asked for a new file in a folder named in NFC: matched by NFC.
  reference('nfd-new-file-in-nfc-folder', `{base}/ws/${NFD}/new.txt`, WRITE_FILE, ['{base}/ws']),
  // NFD asked for a file existing only in NFC.
  reference('nfd-existing-nfc', `{base}/ws/${NFD}/n.txt`, TEXT, ['{base}/ws']),
  // A new file under a name equal in NFC to two folders on disk (Å as U+212B; U+00C5 and A+U+030A on disk): ambiguous.
  reference('nfc-ambiguous', '{base}/ws/x\u212b/new.txt', WRITE_FILE, ['{base}/ws'], { tree: { 'ws/x\u00c5/keep': '', 'ws/xA\u030a/keep': '' } }),
  // A dangling link inside that points out, written through.
  reference('dangling-link-out-write', '{base}/ws/dangling-out', WRITE_FILE, ['{base}/ws'], { tree: { 'ws/dangling-out': link('../outside/made-by-link.txt') } }),
  // A dangling link inside that stays inside, written through.
  reference('dangling-link-in-write', '{base}/ws/dangling-in', WRITE_FILE, ['{base}/ws'], { tree: { 'ws/dangling-in': link('made-by-link.txt') } }),
  // A new file in a folder that does not exist.
  reference('missing-parent-write', '{base}/ws/no-such/new.txt', WRITE_FILE, ['{base}/ws']),
  // An allowed directory that does not exist, beside one that does.
  reference('allowed-missing-dir', '{base}/ws/a.txt', TEXT, ['{base}/missing', '{base}/ws']),
  // The filesystem root allowed.
  reference('allowed-root', '{base}/outside/secret.txt', TEXT, ['/']),
  // A link in an allowed directory to another allowed directory.
  reference('link-between-allowed', '{base}/ws/to-extra/notes.txt', TEXT, ['{base}/ws', '{base}/extra'], { tree: { 'ws/to-extra': link('../extra') } }),
];

export const CASES: readonly DeciderCase[] = [...COMMON, ...CLAUDE, ...CODEX, ...GEMINI, ...REFERENCE];
