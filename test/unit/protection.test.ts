// The extension shows the server's protection before the server has started: the facts it shows
// must be the server's own, found and worded the same way (src/host/protection.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostProtection } from '../../src/extension/protection.js';
import { hostPlatform } from '../../src/host/node.js';
import { sandboxProspect, sandboxSummary } from '../../src/host/protection.js';
import { sandboxDetail, startInSandbox } from '../../src/server/launch/sandbox.js';
import { anchorOf } from '../../src/server/fs/index.js';
import { buildGrants } from '../../src/server/grants.js';
import { parseServeArgs } from '../../src/server/launch/options.js';
import { nodeFileSystem } from '../../src/host/node.js';
import { makeTempDir, removeDir } from '../server/helpers.js';
import { pathToFileURL } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';
import { NOT_GUARDED, PROTECTION_SCOPE } from '../../src/shared/layers.js';

const platform = hostPlatform();
const sandboxOf = (env: NodeJS.ProcessEnv) => hostProtection(undefined, env).find((layer) => layer.name === 'sandbox')!;

test('without a sandbox program, the extension says what the server says when it tries to start one', async () => {
  const env = { PATH: '' };
  const server = await startInSandbox({ platform, workspaces: [], runtime: process.execPath }, process.execPath, ['-e', ''], env);
  assert.ok(!('child' in server), 'nothing was started');
  if (platform === 'darwin') return; // sandbox-exec is at a fixed place, not on PATH
  assert.deepEqual(sandboxOf(env), { name: 'sandbox', active: false, detail: (server as { detail: string }).detail });
});

test('with one, the extension\'s words before the check begin as the server\'s own detail does', () => {
  const prospect = sandboxProspect(platform, process.env);
  if (!prospect.available) return;
  const before = sandboxOf(process.env);
  assert.equal(before.active, true);
  assert.equal(before.detail, `${sandboxSummary(prospect.mechanism)} (not checked yet)`);
  const server = sandboxDetail(prospect.mechanism, { platform, workspaces: [{ path: '/w', realPath: '/w', rights: 'read-write' }], runtime: process.execPath });
  assert.ok(server.startsWith(sandboxSummary(prospect.mechanism)), server);
  assert.match(server, /writable: \/w/);
});

test('the anchored layer the extension shows is the anchor the server opens', () => {
  const base = makeTempDir('bi-protection-');
  try {
    const options = parseServeArgs(['--workspace', pathToFileURL(base).href]);
    const { grants } = buildGrants(options.grants, {
      platform,
      policy: options.policy,
      fs: nodeFileSystem,
      isDirectory: (target) => fs.statSync(target).isDirectory(),
    });
    const anchored = hostProtection({ active: false, detail: 'x' }).find((layer) => layer.name === 'anchored I/O')!;
    assert.equal(anchored.active, anchorOf(grants[0]!, platform).mode === 'descriptor');
  } finally {
    removeDir(base);
  }
});

test('the README says, beside the layers, what they do not guard: each thing the inspector and the side bar name', () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Protection layers, by platform'), readme.indexOf('| layer |')).replace(/\s+/g, ' ');
  for (const said of ["only the calls the agent makes to this server's tools", ...NOT_GUARDED]) {
    assert.ok(section.includes(said), `the README's protection section does not say ${JSON.stringify(said)}`);
    assert.ok(PROTECTION_SCOPE.includes(said), `the panel's note does not say ${JSON.stringify(said)}`);
  }
});
