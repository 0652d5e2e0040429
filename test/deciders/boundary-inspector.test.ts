// The boundary-inspector decider is this server's own judgement: `allow` exactly when the tool's
// trace is inside, its stages the seven stages, its fixes the near misses and the code's advice.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { REFUSAL_CODES, STAGES, trace } from '../../src/core/index.js';
import { DECIDERS, toolFor, type DeciderContext } from '../../src/deciders/index.js';
import { nodeDeciderFileSystem, nodeFileSystem } from '../../src/host/node.js';
import { OPERATIONS, PATH_TOOL_NAMES } from '../../src/shared/operations.js';

const decider = DECIDERS['boundary-inspector']!;

describe('boundary-inspector', { skip: process.platform === 'win32' && 'needs symbolic links' }, () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-decider-')));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const ws = path.join(dir, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a');
  fs.writeFileSync(path.join(dir, 'secret.txt'), 's');
  fs.symlinkSync('../secret.txt', path.join(ws, 'escape-file'));
  const context: DeciderContext = { platform: 'linux', fs: nodeDeciderFileSystem, home: dir, cwd: dir, addDirs: [], allowed: [], env: {}, root: `file://${ws}` };

  // Each: the input, and the trap.
  const ROWS = [
    `${ws}/a.txt`, // inside
    'a.txt', // relative
    `${ws}-evil/x`, // sibling prefix
    `file://${ws}/%2e%2e/secret.txt`, // encoded dot-dot
    'escape-file', // a link that leads out: followed by reads, judged itself by get_file_info and write_file
    'A.TXT', // case: a near miss on a case-sensitive disk
    'file://host/x', // a host
  ];
  for (const input of ROWS) {
    test(input, () => {
      for (const tool of PATH_TOOL_NAMES) {
        const verdict = decider.decide(input, tool, context);
        const own = trace(input, `file://${ws}`, { platform: 'linux', fs: nodeFileSystem, followFinal: OPERATIONS[tool].followFinal });
        assert.equal(verdict.decision, own.verdict === 'inside' ? 'allow' : 'deny', `${input} ${tool}`);
        assert.deepEqual(verdict.stages.map((stage) => stage.name), STAGES.slice(0, verdict.stages.length));
        assert.equal(verdict.path, own.path);
        if (verdict.decision === 'deny') {
          assert.ok(verdict.fixes.length > 0, `${input} ${tool}: a fix`);
          const advice = REFUSAL_CODES[own.code!].advice;
          assert.ok(verdict.fixes.some((fix) => fix.text.toLowerCase().startsWith(advice.slice(0, 20).toLowerCase())), `${input}: the code's advice`);
        }
      }
    });
  }

  test('a near miss is offered as a path that works', () => {
    // Written as if the workspace were the filesystem's root.
    const verdict = decider.decide('/a.txt', 'read_text_file', context);
    const fix = verdict.fixes.find((f) => f.path !== undefined);
    assert.equal(fix?.path, path.join(ws, 'a.txt'));
    assert.equal(decider.decide(fix!.path!, 'read_text_file', context).decision, 'allow');
  });

  test('a root refused: its own stages, the root refusal as the rule', () => {
    const verdict = decider.decide('a.txt', 'read_text_file', { ...context, root: 'relative/root' });
    assert.equal(verdict.decision, 'deny');
    assert.match(verdict.rule.text, /^ERR_NOT_ABSOLUTE at root/);
  });

  test('simulated: nothing is looked up', () => {
    const verdict = decider.decide('C:\\ws\\a.txt', 'read_text_file', { ...context, platform: 'win32', simulated: true, root: 'C:\\ws' });
    assert.equal(verdict.decision, 'allow');
    assert.equal(verdict.stages.find((stage) => stage.name === 'realpath')?.status, 'skip');
  });

  test('toolFor: every tool of this server is its own', () => {
    for (const tool of PATH_TOOL_NAMES) assert.deepEqual(toolFor(decider, tool), { tool, access: OPERATIONS[tool].changes ? 'change' : 'read' });
  });
});
