// The npm package as a user gets it: `npm pack` (its prepack makes the production build), the
// tarball installed offline into an empty folder, the server started through
// `npx boundary-inspector serve`, and real MCP clients of both eras listing its tools and
// reading a file.
//
// It packs a copy of the tree, so the production build never replaces the development bundles
// in dist/ that the other tests run while this one does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { patience } from '../patience.js';

const repoRoot = path.resolve(__dirname, '../..');

// What runs and nothing else. `serve` runs the server inside the CLI's process (and relaunches
// that same bundle inside the sandbox), so dist/server.js, the extension's copy, is not shipped.
const EXPECTED_FILES = ['CHANGELOG.md', 'LICENSE', 'README.md', 'dist/cli.js', 'dist/re2-wasm/LICENSE', 'dist/re2-wasm/src/re2.js', 'dist/re2-wasm/wasm/re2.js', 'dist/re2-wasm/wasm/re2.wasm', 'package.json', 'server.json'];
// Not copied to pack: dependencies (linked), history, caches, build output, earlier packages.
const NOT_COPIED = new Set(['node_modules', '.git', '.vscode-test', 'out', 'dist']);

// npm run-script exports npm_config_local_prefix and friends: inherited, they would point the
// nested npm at this repository instead of the folder it runs in.
const env: Record<string, string> = Object.fromEntries(
  Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !/^npm_/i.test(entry[0])),
);

function npm(args: readonly string[], cwd: string): string {
  const result = spawnSync('npm', args, { cwd, env, encoding: 'utf8', shell: process.platform === 'win32' });
  assert.equal(result.status, 0, `npm ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
  return result.stdout;
}

interface Packed {
  readonly filename: string;
  readonly size: number;
  readonly files: readonly { readonly path: string; readonly size: number }[];
}

describe('the npm package', { timeout: patience(120_000) }, () => {
  let base: string;
  let packed: Packed;
  let app: string;
  let workspace: string;

  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-pack-')));
    const tree = path.join(base, 'tree');
    for (const entry of fs.readdirSync(repoRoot)) {
      if (NOT_COPIED.has(entry) || /\.(vsix|tgz)$/.test(entry)) continue;
      fs.cpSync(path.join(repoRoot, entry), path.join(tree, entry), { recursive: true, verbatimSymlinks: true });
    }
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(tree, 'node_modules'), 'junction');
    const destination = path.join(base, 'packed');
    fs.mkdirSync(destination);
    packed = (JSON.parse(npm(['pack', '--json', '--pack-destination', destination], tree)) as [Packed])[0];
    const tarball = path.join(destination, packed.filename);

    app = path.join(base, 'app');
    fs.mkdirSync(app);
    // --offline: a package without dependencies installs from its tarball alone.
    npm(['install', '--offline', '--no-audit', '--no-fund', tarball], app);

    // A space, so the URI on the command line is percent-encoded as clients write it.
    workspace = path.join(base, 'work space');
    fs.mkdirSync(path.join(workspace, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'docs', 'hello.txt'), 'hello from the packed server\n');
  });

  after(() => {
    if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  });

  test('the tarball holds the CLI bundle, server.json and the docs, and nothing else', () => {
    assert.deepEqual(packed.files.map((file) => file.path).sort(), EXPECTED_FILES);
    assert.ok(packed.size < 1024 * 1024, `tarball is ${packed.size} bytes`);
    const installed = path.join(app, 'node_modules', 'boundary-inspector');
    const cli = fs.readFileSync(path.join(installed, 'dist', 'cli.js'), 'utf8');
    assert.ok(cli.startsWith('#!/usr/bin/env node\n'), 'dist/cli.js starts with a node shebang');
    assert.doesNotMatch(cli, /sourceMappingURL/, 'the production bundle, without source maps');
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
    assert.equal(manifest.dependencies, undefined, 'everything is bundled: no runtime dependencies');
    assert.deepEqual(manifest.bin, { 'boundary-inspector': 'dist/cli.js' });
  });

  test('installed into an empty folder, it brings nothing else', () => {
    const modules = fs.readdirSync(path.join(app, 'node_modules')).filter((name) => !name.startsWith('.'));
    assert.deepEqual(modules, ['boundary-inspector']);
  });

  for (const kind of ['v2', 'v1'] as const) {
    test(`started with npx, a ${kind} client lists the tools and reads a file`, async () => {
      const params = {
        command: 'npx',
        args: ['--no-install', 'boundary-inspector', 'serve', '--workspace', pathToFileURL(workspace).href],
        cwd: app,
        env,
        stderr: 'pipe' as const,
      };
      let stderr = '';
      let client: Client | V1Client;
      if (kind === 'v2') {
        client = new Client({ name: 'bi-pack-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
        const transport = new StdioClientTransport(params);
        transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        await client.connect(transport);
      } else {
        client = new V1Client({ name: 'bi-pack-v1', version: '1.0.0' });
        const transport = new V1StdioClientTransport(params);
        transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        await client.connect(transport);
      }
      try {
        const tools = (await client.listTools()).tools.map((tool) => tool.name);
        for (const name of ['list_workspaces', 'read_text_file']) assert.ok(tools.includes(name), `${name} in ${tools.join(', ')}`);
        const result = (await client.callTool({
          name: 'read_text_file',
          arguments: { workspaceUri: pathToFileURL(workspace).href, path: 'docs/hello.txt' },
        })) as { isError?: boolean; content: { type: string; text?: string }[] };
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        assert.deepEqual(result.content, [{ type: 'text', text: 'hello from the packed server\n' }]);
        const listed = (await client.callTool({ name: 'list_workspaces', arguments: {} })) as { content: { type: string; text?: string }[]; structuredContent?: { layers: { sandbox: { active: boolean } } } };
        assert.match(listed.content[0]?.text ?? '', /^file:\/\/\S+work%20space \(read-write\)$/m);
        // Nothing on stderr, which clients show as errors, unless the sandbox asked for is not running.
        if (listed.structuredContent?.layers.sandbox.active === true) assert.equal(stderr, '');
        else if (process.platform !== 'win32') assert.match(stderr, /^boundary-inspector: serving .*sandbox/);
      } finally {
        await client.close();
      }
    });
  }
});
