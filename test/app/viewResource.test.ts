// The MCP Apps view as a resource: its size, the policy it carries, that it reaches for nothing,
// and what a client without MCP Apps still gets (the same text and structured results).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { VIEW_BUDGET_BYTES, VIEW_CONTENT_SECURITY_POLICY } from '../../scripts/app-view.mjs';
import { TRACE_FACTS_META_KEY } from '../../src/shared/appView.js';
import { EXPLAIN_HINT } from '../../src/server/refusals/refusal.js';
import { AUDIT_VIEW, TRACE_VIEW } from '../../src/server/tools/appViews.js';
import { connect, expectOk, expectRefusal, fileUri, type Session } from '../server/helpers';

let base: string;
let workspace: string;
let session: Session;

before(async () => {
  base = mkdtempSync(path.join(os.tmpdir(), 'bi-view-resource-'));
  workspace = path.join(base, 'notes');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(path.join(workspace, 'README.md'), '# notes');
  session = await connect('v2', { args: ['--workspace', fileUri(workspace)], inProcess: true });
});

after(async () => {
  await session?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

async function viewText(uri: string): Promise<string> {
  const [content] = await session.readResource(uri);
  return (content as { text: string }).text;
}

/** A CSP's directives, each with its sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).filter((words) => words[0] !== '').map(([name, ...sources]) => [name!, sources]));
}

describe('the MCP Apps view resource', () => {
  test(`it stays within its budget of ${VIEW_BUDGET_BYTES} bytes`, async () => {
    const html = await viewText(TRACE_VIEW);
    const size = Buffer.byteLength(html);
    assert.ok(size <= VIEW_BUDGET_BYTES, `${size} bytes`);
    assert.equal(await viewText(AUDIT_VIEW), html, 'one document draws both results');
  });

  test('its own policy comes before anything it governs, and allows no origin at all', async () => {
    const html = await viewText(TRACE_VIEW);
    const meta = `<meta http-equiv="Content-Security-Policy" content="${VIEW_CONTENT_SECURITY_POLICY}">`;
    const at = html.indexOf(meta);
    assert.ok(at > 0, 'the policy is in the document');
    assert.ok(at < html.indexOf('<style>') && at < html.indexOf('<script>'), 'before the style and the script');
    const policy = directives(VIEW_CONTENT_SECURITY_POLICY);
    assert.deepEqual(policy.get('default-src'), ["'none'"]);
    assert.deepEqual(policy.get('connect-src'), ["'none'"]);
    for (const [name, sources] of policy) {
      for (const source of sources) assert.ok(["'none'", "'unsafe-inline'", 'data:'].includes(source), `${name} allows ${source}`);
    }
  });

  test('it names nothing to load: no src, href, url(), @import or web address', async () => {
    const html = await viewText(TRACE_VIEW);
    for (const pattern of [/\ssrc\s*=/i, /\shref\s*=/i, /url\(/i, /@import/i, /@font-face/i, /https?:\/\//i, /\/\/[a-z0-9.-]+\.[a-z]{2,}\//i]) {
      assert.doesNotMatch(html, pattern);
    }
    assert.equal((html.match(/<script>/g) ?? []).length, 1, 'one inline script');
    assert.equal((html.match(/<style>/g) ?? []).length, 1, 'one inline style');
  });

  test('an unknown ui:// resource is refused as any URI outside the workspaces is', async () => {
    await assert.rejects(session.readResource('ui://boundary-inspector/nothing.html'), /ERR_SCHEME/);
  });
});

describe('without MCP Apps: the same answers', () => {
  test("explain_path's structured result holds exactly its output schema's fields; the view's facts travel in _meta", async () => {
    const result = await session.call('explain_path', { workspaceUri: fileUri(workspace), path: 'readme.md' });
    const structured = expectOk(result, 'explain_path');
    assert.deepEqual(Object.keys(structured).sort(), ['acts', 'nearMisses', 'path', 'reason', 'stage', 'stages', 'tool', 'verdict']);
    const facts = (result as { _meta?: Record<string, any> })._meta?.[TRACE_FACTS_META_KEY];
    assert.equal(facts?.input, 'readme.md');
    assert.equal(facts?.root, fileUri(workspace));
    assert.equal(facts?.kind, 'missing');
    assert.ok(!JSON.stringify(result.content).includes(TRACE_FACTS_META_KEY), 'nothing of it in the text');
  });

  test('a refusal of a path sends the model to explain_path in one short sentence, once', async () => {
    for (const [input, code] of [['../outside.md', 'ERR_OUTSIDE'], ['file://host/share/x', 'ERR_HOST'], [`${fileUri(workspace)}/a%2fb`, 'ERR_ENCODED_SEPARATOR']] as const) {
      const result = await session.call('read_text_file', { workspaceUri: fileUri(workspace), path: input });
      expectRefusal(result, { code }, input);
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      assert.equal(text.split('explain_path').length - 1, 1, `${input}: ${text}`);
    }
    assert.ok(Buffer.byteLength(EXPLAIN_HINT) <= 60, EXPLAIN_HINT);
    // A refusal by the grant's rights, or of the workspace itself, is no question of path stages.
    const notGranted = await session.call('read_text_file', { workspaceUri: 'file:///elsewhere', path: 'x' });
    assert.ok(!(notGranted.content as Array<{ text: string }>)[0]!.text.includes('explain_path'));
  });
});
