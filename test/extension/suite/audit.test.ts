/// <reference types="mocha" />
/**
 * "Audit Workspace Boundaries" on the demo workspace (scripts/demo-workspace.ts): its findings
 * reach the Problems panel as diagnostics from "Boundary Inspector", one per finding, and a
 * re-run replaces them.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AuditSummary } from '../../../src/shared/messages';
import { EXTENSION_ID, workspaceFolder } from './helpers';

const SOURCE = 'Boundary Inspector';

interface Published {
  readonly path: string;
  readonly code: string;
  readonly severity: vscode.DiagnosticSeverity;
  readonly line: number;
  readonly message: string;
}

function published(): Published[] {
  return vscode.languages.getDiagnostics().flatMap(([uri, diagnostics]) =>
    diagnostics
      .filter((diagnostic) => diagnostic.source === SOURCE)
      .map((diagnostic) => ({
        path: uri.fsPath,
        code: String(typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code),
        severity: diagnostic.severity,
        line: diagnostic.range.start.line,
        message: diagnostic.message,
      })),
  );
}

function audit(): Thenable<AuditSummary[] | undefined> {
  return vscode.commands.executeCommand<AuditSummary[] | undefined>('boundaryInspector.auditWorkspace');
}

suite('Audit (Problems panel)', function () {
  this.timeout(120_000);

  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
  });

  test('the audit command puts each finding in the Problems panel, on its entry', async () => {
    const notes = workspaceFolder().uri.fsPath;
    const summaries = await audit();
    assert.ok(summaries, 'the command ran no audit');
    assert.equal(summaries.length, 1, JSON.stringify(summaries));
    const [summary] = summaries;
    assert.equal(summary!.error, null);
    assert.equal(summary!.root, workspaceFolder().uri.toString());
    assert.ok(summary!.scanned > 0);

    const found = published();
    const expected: readonly [string, string][] = [
      ['link-escapes', 'escape'],
      ['link-dangling', 'dangling'],
      ['case-twins', 'TODO.md'],
      ['case-twins', 'todo.md'],
      ['unicode-twins', 'caf\u00e9'],
      ['unicode-twins', 'cafe\u0301'],
    ];
    for (const [code, name] of expected) {
      const entry = path.join(notes, name);
      assert.ok(
        found.some((diagnostic) => diagnostic.code === code && diagnostic.path === entry),
        `no ${code} diagnostic on ${entry}; published: ${JSON.stringify(found.map(({ path: at, code: kind }) => [kind, at]))}`,
      );
    }
    for (const diagnostic of found) {
      assert.equal(diagnostic.line, 0);
      assert.equal(diagnostic.severity, diagnostic.code === 'hard-link' ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Warning, diagnostic.code);
      assert.notEqual(diagnostic.message, '');
    }
    // One diagnostic per finding.
    assert.equal(found.length, summary!.total);
  });

  test('a second run replaces the diagnostics, it does not add to them', async () => {
    const before = published().length;
    assert.ok(before > 0);
    await audit();
    assert.equal(published().length, before);
  });
});
