// The server inside a WSL distribution, simulated on Linux as WSL shows itself: WSL_DISTRO_NAME,
// and WSL's interop (the socket WSL_INTEROP names). Windows' drive C: is at /mnt/c, given to the
// server by bubblewrap (a /mnt of its own, nothing of this machine's changed). A Windows path to
// a file of the granted folder is refused as another system's, with its /mnt spelling in the
// reason and under "Did you mean"; the /mnt spelling itself reads the file. With the sandbox on,
// the launcher's reading of the host crosses into the sandbox, where the interop is out of sight.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findOnPath } from '../../src/host/node.js';
import { patience } from '../patience.js';
import { expectContent, expectRefusal, makeTempDir, readLog, removeDir, type ToolResult } from './helpers.js';
import { serverCommand } from './rawServer.js';

const PROJECT = '/mnt/c/Users/me/proj';
const WORKSPACE = `file://${PROJECT}`;

function unavailable(): string | undefined {
  if (process.platform !== 'linux') return 'WSL is Linux';
  const bwrap = findOnPath('bwrap', process.env);
  if (!bwrap) return 'bwrap is not installed (package bubblewrap)';
  const probe = spawnSync(bwrap, ['--dev-bind', '/', '/', '--tmpfs', '/mnt', '--', process.execPath, '-e', ''], { timeout: 30_000 });
  return probe.status === 0 ? undefined : 'bwrap cannot mount a /mnt of its own here';
}

const skip = unavailable();

describe('the server inside WSL (simulated)', { skip }, () => {
  let base: string;
  let interop: string;

  before(() => {
    base = makeTempDir('bi-wsl-');
    fs.mkdirSync(path.join(base, 'proj'));
    fs.writeFileSync(path.join(base, 'proj', 'a.txt'), 'from the Windows drive\n');
    interop = path.join(base, 'interop');
    fs.writeFileSync(interop, '');
  });
  after(() => removeDir(base));

  for (const sandbox of ['off', 'default'] as const) {
    test(`sandbox ${sandbox}: a Windows path is refused with its /mnt spelling, which reads the file`, async () => {
      const { Client } = require('@modelcontextprotocol/client') as typeof import('@modelcontextprotocol/client');
      const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio') as typeof import('@modelcontextprotocol/client/stdio');
      const log = path.join(base, `refusals-${sandbox}.jsonl`);
      const server = serverCommand(['--workspace', WORKSPACE, '--refusal-log', log], { sandbox: sandbox === 'off' ? 'off' : 'as given' });
      const transport = new StdioClientTransport({
        command: findOnPath('bwrap', process.env)!,
        args: ['--dev-bind', '/', '/', '--tmpfs', '/mnt', '--bind', path.join(base, 'proj'), PROJECT, '--', server.command, ...server.args],
        env: { ...(process.env as Record<string, string>), WSL_DISTRO_NAME: 'Ubuntu', WSL_INTEROP: interop },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const client = new Client({ name: 'bi-wsl', version: '1.0.0' });
      await client.connect(transport, { timeout: patience(60_000) });
      try {
        const call = async (name: string, args: Record<string, unknown>) =>
          (await client.callTool({ name, arguments: { workspaceUri: WORKSPACE, ...args } }, { timeout: patience(60_000) })) as unknown as ToolResult;
        const refused = expectRefusal(await call('read_text_file', { path: 'C:\\Users\\me\\proj\\a.txt' }), { code: 'ERR_FOREIGN_PATH', stage: 'refusals' }, 'a Windows path');
        assert.match(refused.reason, /WSL distribution "Ubuntu".*Here the same path is \/mnt\/c\/Users\/me\/proj\/a\.txt: send that/, refused.reason);
        assert.match(stderr, /inside WSL \(Ubuntu\)/, 'the server says at start-up that it runs inside WSL');
        // The workspace named as Windows names it: refused at the root, with the spelling that works.
        const windowsUri = (await client.callTool({ name: 'read_text_file', arguments: { workspaceUri: 'file:///c%3A/Users/me/proj', path: 'a.txt' } }, { timeout: patience(60_000) })) as unknown as ToolResult;
        const atRoot = expectRefusal(windowsUri, { code: 'ERR_FOREIGN_PATH', stage: 'root' }, 'a Windows workspaceUri');
        assert.match(atRoot.reason, /\/mnt\/c\/Users\/me\/proj: send that/, atRoot.reason);

        const explained = (await call('explain_path', { path: 'file:///c%3A/Users/me/proj/a.txt' })).structuredContent as Record<string, any>;
        assert.equal(explained.code, 'ERR_FOREIGN_PATH');
        assert.deepEqual(explained.nearMisses, [{ path: `${PROJECT}/a.txt`, uri: `${WORKSPACE}/a.txt`, why: 'other-system' }]);

        assert.equal(expectContent(await call('read_text_file', { path: `${PROJECT}/a.txt` }), 'the /mnt spelling'), 'from the Windows drive\n');
        // A refused input changed nothing: the folder holds what it held.
        assert.deepEqual(fs.readdirSync(path.join(base, 'proj')), ['a.txt']);
        const logged = readLog(log).find((entry) => entry.code === 'ERR_FOREIGN_PATH');
        assert.deepEqual(logged?.trace.nearMisses, [{ path: `${PROJECT}/a.txt`, uri: `${WORKSPACE}/a.txt`, why: 'other-system' }]);
      } finally {
        await client.close();
      }
    });
  }

  test('without the interop, WSL_DISTRO_NAME alone is not WSL: no /mnt spelling is offered', async () => {
    const { Client } = require('@modelcontextprotocol/client') as typeof import('@modelcontextprotocol/client');
    const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio') as typeof import('@modelcontextprotocol/client/stdio');
    const server = serverCommand(['--workspace', WORKSPACE]);
    const transport = new StdioClientTransport({
      command: findOnPath('bwrap', process.env)!,
      args: ['--dev-bind', '/', '/', '--tmpfs', '/mnt', '--bind', path.join(base, 'proj'), PROJECT, '--', server.command, ...server.args],
      env: { ...(process.env as Record<string, string>), WSL_DISTRO_NAME: 'Ubuntu', WSL_INTEROP: path.join(base, 'no-such-socket') },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'bi-wsl', version: '1.0.0' });
    await client.connect(transport, { timeout: patience(60_000) });
    try {
      const result = (await client.callTool({ name: 'read_text_file', arguments: { workspaceUri: WORKSPACE, path: 'C:\\Users\\me\\proj\\a.txt' } }, { timeout: patience(60_000) })) as unknown as ToolResult;
      const refused = expectRefusal(result, { code: 'ERR_FOREIGN_PATH' }, 'a Windows path, not in WSL');
      assert.doesNotMatch(refused.reason, /\/mnt\//, refused.reason);
    } finally {
      await client.close();
    }
  });
});
