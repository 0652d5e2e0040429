// vscode-agent against the VS Code it models, running: its default sensitive-file globs are this
// VS Code's own default, in order; and the context the extension builds reflects what the
// workspace settings say, as VS Code applies them (a window setting read, an application
// setting written there ignored, as `inspect` shows).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_AUTO_APPROVE } from '../../../src/deciders/index';
import { vscodeAgentContext } from '../../../src/extension/vscodeAgent';
import { waitFor, workspaceFolder } from './helpers';

suite("vscode-agent: VS Code's agent as this VS Code has it", () => {
  test("the model's default globs are this VS Code's chat.tools.edits.autoApprove default, in order", () => {
    const inspected = vscode.workspace.getConfiguration().inspect<Record<string, boolean>>('chat.tools.edits.autoApprove');
    assert.ok(inspected?.defaultValue, 'VS Code knows the setting');
    assert.deepEqual(Object.entries(inspected.defaultValue), Object.entries(DEFAULT_AUTO_APPROVE));
  });

  test('the context reflects the workspace settings as VS Code applies them', async () => {
    const folder = workspaceFolder().uri.fsPath;
    const file = path.join(folder, '.vscode', 'settings.json');
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    const settings = { ...(before === undefined ? {} : (JSON.parse(before) as object)), 'chat.permissions.default': 'autoApprove', 'chat.tools.edits.autoApprove': { '**/.env': true } };
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
      await waitFor(() => (vscode.workspace.getConfiguration().inspect('chat.permissions.default')?.workspaceValue === 'autoApprove' ? true : undefined), 'VS Code reads the workspace settings written');
      const context = vscodeAgentContext();
      assert.deepEqual(context.workspaceFolders, (vscode.workspace.workspaceFolders ?? []).map((each) => each.uri.fsPath));
      // A window setting: applied, from the workspace file at its line.
      assert.equal(context.permissionsDefault?.value, 'autoApprove');
      assert.equal(context.permissionsDefault?.source.file, file);
      assert.equal(context.permissionsDefault?.source.line, JSON.stringify(settings, null, 2).split('\n').findIndex((line) => line.includes('"chat.permissions.default"')) + 1);
      // An application setting: VS Code ignores it in workspace settings, and so does the model.
      assert.equal(vscode.workspace.getConfiguration().inspect('chat.tools.edits.autoApprove')?.workspaceValue, undefined);
      assert.ok(!context.autoApprove.some((entry) => entry.glob === '**/.env'), 'the workspace entry is not applied');
      assert.ok(context.unapplied?.some((entry) => entry.setting === 'chat.tools.edits.autoApprove' && entry.source.file === file), JSON.stringify(context.unapplied));
    } finally {
      if (before === undefined) fs.rmSync(file, { force: true });
      else fs.writeFileSync(file, before);
      await waitFor(() => (vscode.workspace.getConfiguration().inspect('chat.permissions.default')?.workspaceValue === undefined ? true : undefined), 'VS Code reads the workspace settings restored');
    }
  });
});
