// VS Code's agent: the file tools of GitHub Copilot Chat 0.67.0 as bundled with VS Code 1.139.1,
// in their order: the workspace folders, the path the model gave made a file (resolveFilePath,
// normalizePath), read_file's outside-the-workspace check or the edit tools' confirmation with
// the sensitive-file globs of `chat.tools.edits.autoApprove`, then the workbench's auto approval.
// Read from that version's code; not recorded from a live run, so every verdict is "documented".
import { visible } from '../../core/index.js';
import { lineOf } from '../jsonSettings.js';
import { nodePath } from '../shared/node.js';
import { toolFor } from '../tools.js';
import type { ConfigFile, Decider, DeciderContext, DeciderStage, DeciderVerdict, Decision, Fix, RuleSource, VsCodeContext } from '../types.js';
import { autoApproval, editCheck, readCheck, type Approval, type EditJudged, type Setup, type ToolIdentity } from './judge.js';
import { fsPathOf, normalized, resolveFilePath } from './paths.js';
import { AUTO_APPROVE, PERMISSIONS_DEFAULT, READ_ACCESS, readVsCodeContext } from './settings.js';

const PROGRAM = "VS Code's agent (GitHub Copilot Chat 0.67.0)";
const VERSION = '1.139.1';
const FROM_SOURCE = `Taken from VS Code ${VERSION}'s source (its bundled GitHub Copilot Chat 0.67.0), not recorded from a live run.`;

/** The tools the model calls, by access, with the workbench's id and the names eligibility may use. */
const IDENTITIES: Readonly<Record<string, { id: string; reference: string; legacy?: readonly string[] }>> = {
  read_file: { id: 'copilot_readFile', reference: 'readFile', legacy: ['search/readFile'] },
  create_file: { id: 'copilot_createFile', reference: 'createFile', legacy: ['createFile'] },
  replace_string_in_file: { id: 'copilot_replaceString', reference: 'replaceString' },
  multi_replace_string_in_file: { id: 'copilot_multiReplaceString', reference: 'multiReplaceString' },
  apply_patch: { id: 'copilot_applyPatch', reference: 'applyPatch' },
  insert_edit_into_file: { id: 'copilot_insertEdit', reference: 'insertEdit' },
  create_directory: { id: 'copilot_createDirectory', reference: 'createDirectory', legacy: ['createDirectory'] },
  edit_notebook_file: { id: 'copilot_editNotebook', reference: 'editNotebook' },
};

function identity(tool: string): ToolIdentity {
  const { id, reference, legacy = [] } = IDENTITIES[tool]!;
  // The workbench's full name first, then each legacy name and its last part.
  const keys = [`github.copilot-chat/${reference}`, ...legacy.flatMap((name) => (name.includes('/') ? [name, name.split('/').pop()!] : [name]))];
  return { id, eligibilityKeys: keys };
}

const note = (text: string) => (text === '' ? FROM_SOURCE : `${text} ${FROM_SOURCE}`);

const stage = (name: string, status: DeciderStage['status'], input: string, output: string | null, rule: string, noteText: string, source?: RuleSource): DeciderStage => ({
  name,
  status,
  input,
  output,
  rule,
  note: note(noteText),
  ...(source ? { source } : {}),
});

/** Where a fix to a setting goes: user settings (the file where it is known, at the setting's line). */
function userSettingsAt(vscode: VsCodeContext, ctx: DeciderContext, setting: string): { file?: string; line?: number; where: string } {
  const file = vscode.files?.find((each) => each.role === 'user settings');
  if (file === undefined) return { where: 'your user settings (Preferences: Open User Settings (JSON))' };
  const text = ctx.fs.readText(file.path);
  return { file: file.path, line: text === undefined ? 1 : lineOf(text, [setting]), where: visible(file.path) };
}

/** A path relative to its folder as a glob that matches only it: `/` between names, glob characters in brackets. */
function literalGlob(path: string, folder: string, ctx: DeciderContext): string {
  const relative = nodePath(ctx.platform).relative(folder, folder, path).split(ctx.platform === 'win32' ? '\\' : '/').join('/');
  return relative.replace(/[*?[\]{}]/g, (char) => `[${char}]`);
}

function decide(this: Decider, input: string, toolName: string, ctx: DeciderContext): DeciderVerdict {
  const own = toolFor(this, toolName);
  if (!own) throw new Error(`VS Code's agent has no tool ${toolName}: its tools are ${[...this.tools.read, ...this.tools.change].join(', ')}`);
  const vscode = ctx.vscode ?? readVsCodeContext(ctx);
  const simulated = ctx.simulated === true;
  const setup: Setup = { platform: ctx.platform, fs: ctx.fs, simulated, home: ctx.home, env: ctx.env, vscode };
  const folders = vscode.workspaceFolders.map((folder) => fsPathOf(folder, ctx.platform));
  const stages: DeciderStage[] = [];
  const differences: string[] = [];
  const usedFiles = new Set<string>();
  const finish = (decision: Decision, rule: { text: string; source?: RuleSource }, path: string | null, fixes: readonly Fix[]): DeciderVerdict => {
    for (const each of [rule.source, ...stages.map((s) => s.source)]) if (each?.file !== undefined) usedFiles.add(each.file);
    const configFiles: ConfigFile[] = (vscode.files ?? []).map((file) => ({ path: file.path, role: file.role, found: file.found, used: usedFiles.has(file.path) }));
    return { decider: 'vscode-agent', program: `${PROGRAM} in VS Code ${VERSION}`, version: VERSION, basis: 'documented', tool: own.tool, access: own.access, input, decision, rule, path, stages, fixes: decision === 'allow' ? [] : fixes, differences, configFiles };
  };

  // 1. The workspace folders, and the settings as VS Code resolved them.
  const unapplied = (vscode.unapplied ?? []).map((entry) => entry.why);
  const absent = (vscode.files ?? []).filter((file) => !file.found).map((file) => `${file.role} ${visible(file.path)} is absent: its defaults apply`);
  stages.push(stage('workspace folders', 'pass', folders.join(', ') || '(none)', folders.join(', ') || null, 'the folders open in the window; settings merged default → user → workspace (chat.tools.edits.autoApprove from user settings only)', [folders.length === 0 ? 'no folder is open: every file is outside the workspace.' : '', ...absent, ...unapplied].filter(Boolean).join('; ')));

  // 2. The model's path made a file.
  const resolved = resolveFilePath(input, ctx.platform, folders);
  if (!resolved.ok) {
    stages.push(stage('resolveFilePath', 'refuse', input, null, 'an absolute path or a URI; a relative path is refused', resolved.reason));
    const fixes: Fix[] = resolved.scheme === undefined && folders[0] !== undefined ? [{ text: 'Give the tool the absolute path.', path: nodePath(ctx.platform).resolve(folders[0], input) }] : [{ text: 'Give the tool the file as an absolute path on this disk.' }];
    return finish('deny', { text: resolved.reason }, null, fixes);
  }
  const path = normalized(resolved.path, ctx.platform);
  stages.push(stage('resolveFilePath', 'pass', input, path, 'an absolute path as it is, a file: URI decoded; then normalizePath takes `.` and `..`', resolved.how));

  const outsideFixes = (target: string, forRead: boolean): Fix[] => {
    const folder = nodePath(ctx.platform).dirname(target);
    const fixes: Fix[] = [{ text: `Add the folder ${visible(folder)} to the workspace (File > Add Folder to Workspace...).`, path: folder }];
    if (forRead) {
      const at = userSettingsAt(vscode, ctx, READ_ACCESS);
      fixes.push({ text: `Add ${JSON.stringify(folder)} to ${READ_ACCESS} in ${at.where}.`, ...(at.file ? { file: at.file, line: at.line } : {}), add: `"${READ_ACCESS}": [${JSON.stringify(folder)}]` });
    }
    return fixes;
  };
  const levelFix = (): Fix => {
    const at = userSettingsAt(vscode, ctx, PERMISSIONS_DEFAULT);
    return { text: `Set ${PERMISSIONS_DEFAULT} to "autoApprove" in ${at.where}: every tool's question is then approved, this one included.`, ...(at.file ? { file: at.file, line: at.line } : {}), add: `"${PERMISSIONS_DEFAULT}": "autoApprove"` };
  };

  // 3. The tool's own check.
  let asks: { rule: string; source?: RuleSource; fixes: Fix[] } | undefined;
  if (own.access === 'read') {
    const read = readCheck(path, setup);
    const which = folders.length === 1 ? 'the current folder' : 'the current workspace';
    switch (read.kind) {
      case 'inside':
        stages.push(stage('isFileExternalAndNeedsConfirmation', 'pass', path, read.real ?? path, 'a file in a workspace folder is read without asking, unless its real path leaves every folder', read.real !== undefined ? `a link, into ${visible(read.real)}: still inside` : `in ${visible(read.folder)}`));
        break;
      case 'link out':
        asks = { rule: `${path} links to ${read.real}, which is outside ${which}`, fixes: outsideFixes(read.real, true) };
        stages.push(stage('isFileExternalAndNeedsConfirmation', 'ask', path, read.real, 'a file in a workspace folder is read without asking, unless its real path leaves every folder', `Allow reading external files? ${asks.rule}.`));
        differences.push('A link out of the workspace is a question to VS Code; Boundary Inspector refuses it.');
        break;
      case 'read access':
        stages.push(stage('isFileExternalAndNeedsConfirmation', 'pass', path, path, `outside the workspace: a folder of ${READ_ACCESS} reads without asking`, '', read.source));
        break;
      case 'missing':
        stages.push(stage('isFileExternalAndNeedsConfirmation', 'refuse', path, null, 'outside the workspace a file that does not exist is an error before any question', `File ${path} does not exist`));
        return finish('deny', { text: `File ${path} does not exist (outside the workspace)` }, path, outsideFixes(path, false));
      case 'outside':
        asks = { rule: `${path} is outside of ${which}`, fixes: outsideFixes(path, true) };
        stages.push(stage('isFileExternalAndNeedsConfirmation', 'ask', path, null, 'outside the workspace folders read_file asks (open editors, instruction and skill files aside, which this model does not see)', `Allow reading external files? ${asks.rule}.`));
        differences.push('Outside the workspace VS Code asks before reading; Boundary Inspector refuses.');
        break;
    }
  } else {
    const edit = editCheck(path, setup);
    if (edit.kind === 'error') {
      stages.push(stage('createEditConfirmation', 'refuse', path, null, 'assertPathIsSafe: a path Windows could take two ways is refused', edit.error));
      return finish('deny', { text: edit.error }, path, [{ text: 'Give the tool the full path of the file as Windows names it: no 8.3 short name, alternate data stream, device name, or name ending in a dot or a space.' }]);
    }
    const describe = (one: EditJudged) => {
      if (one.reason === 'outside') return `${visible(one.path)}: outside every workspace folder`;
      if (one.reason === 'system') return `${visible(one.path)}: under ${one.system}, a system file`;
      const last = one.matched.at(-1);
      return `${visible(one.path)}: ${last ? `"${last.glob}": ${last.approve} decides (of ${one.matched.length} matching)` : 'no glob matches: approved'}`;
    };
    const worst = edit.worst;
    const rule = 'the path and its real path each judged: outside a workspace folder, a system file (home dotfiles, the system settings folders), else the last matching glob of chat.tools.edits.autoApprove, then the tools\' own list and the hook file locations; the gravest answer stands';
    const output = edit.judged.map(describe).join('; ');
    const last = worst.matched.at(-1);
    if (worst.reason === 'approved') {
      stages.push(stage('createEditConfirmation', 'pass', path, output, rule, '', last?.source));
    } else if (worst.reason === 'outside') {
      const real = worst.path !== path;
      asks = { rule: `The model wants to edit files outside of your workspace (${worst.path})`, fixes: outsideFixes(worst.path, false) };
      stages.push(stage('createEditConfirmation', 'ask', path, output, rule, real ? `the real path ${visible(worst.path)} is outside every workspace folder, though the path is inside one: a workspace folder opened through a link makes every edit "outside of your workspace".` : ''));
      differences.push(real ? 'VS Code judges an edit by its real path against the workspace folders as opened, unresolved: a folder opened through a link asks for every file in it; Boundary Inspector resolves both.' : 'Outside the workspace VS Code asks before an edit; Boundary Inspector refuses.');
    } else if (worst.reason === 'system') {
      asks = { rule: `The model wants to edit system files (${worst.path}, under ${worst.system})`, fixes: [levelFix()] };
      stages.push(stage('createEditConfirmation', 'ask', path, output, rule, 'a system file asks before any glob is matched: no entry of chat.tools.edits.autoApprove lifts it'));
    } else {
      const decidedBy = last!;
      const fixes: Fix[] = [];
      if (decidedBy.list === 'setting') {
        const glob = literalGlob(worst.path, worst.folder!, ctx);
        const at = userSettingsAt(vscode, ctx, AUTO_APPROVE);
        fixes.push({ text: `Add "${glob}": true to ${AUTO_APPROVE} in ${at.where} (an application setting: workspace settings cannot change it).`, ...(at.file ? { file: at.file, line: at.line } : {}), add: `"${glob}": true` });
      }
      fixes.push(levelFix());
      asks = { rule: `The model wants to edit sensitive files (${worst.path}): "${decidedBy.glob}": false`, source: decidedBy.source, fixes };
      const why = decidedBy.list === 'always' ? "one of the tools' own globs, which no setting lifts" : decidedBy.list === 'hook' ? `a location of chat.hookFilesLocations (its key counts, whatever its value), which no entry of ${AUTO_APPROVE} lifts` : 'later entries win: an entry approves only where no later one matches';
      stages.push(stage('createEditConfirmation', 'ask', path, output, rule, why, decidedBy.source));
      differences.push('VS Code asks before editing a file its sensitive-file globs match, inside the workspace too; Boundary Inspector has no such list.');
    }
    if (ctx.platform !== 'linux') differences.push(`VS Code compares paths without case on ${ctx.platform === 'darwin' ? 'macOS' : 'Windows'} whatever the disk does; Boundary Inspector follows its case policy.`);
  }

  // 4. The workbench's answer to a question.
  if (asks !== undefined) {
    const approval: Approval = autoApproval(identity(own.tool), vscode);
    stages.push(stage('shouldAutoConfirm', approval.asks ? 'ask' : 'pass', asks.rule, approval.asks ? null : 'approved', 'the permission level (chat.permissions.default), chat.tools.eligibleForAutoApproval, then chat.tools.global.autoApprove', `${approval.why}; an "Allow" kept from an earlier chat is not seen here.`, approval.source));
    if (!approval.asks) return finish('allow', { text: approval.why, source: approval.source }, path, []);
    return finish('ask', { text: asks.rule, ...(asks.source ? { source: asks.source } : approval.source ? { source: approval.source } : {}) }, path, asks.fixes);
  }

  // 5. create_file refuses a file that is there already.
  if (own.tool === 'create_file' && !simulated && ctx.fs.lstat(path).kind === 'file' && (ctx.fs.readText(path) ?? '') !== '') {
    stages.push(stage('invoke', 'refuse', path, null, 'create_file writes only a file that is not there (or is empty)', 'File already exists. You must use an edit tool to modify it.'));
    return finish('deny', { text: 'File already exists. You must use an edit tool to modify it.' }, path, [{ text: 'Use replace_string_in_file (or another edit tool) for a file that is there.' }]);
  }
  const lastPass = stages.at(-1)!;
  return finish('allow', { text: own.access === 'read' ? `${path} is read without asking` : `${path} is edited without asking`, ...(lastPass.source ? { source: lastPass.source } : {}) }, path, []);
}

export const vscodeAgent: Decider = {
  name: 'vscode-agent',
  program: PROGRAM,
  version: VERSION,
  tools: {
    read: ['read_file'],
    change: ['create_file', 'replace_string_in_file', 'multi_replace_string_in_file', 'apply_patch', 'insert_edit_into_file', 'create_directory', 'edit_notebook_file'],
  },
  decide,
};
