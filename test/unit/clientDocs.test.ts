// The client snippets in docs/clients.md and the shorter set in README.md: every JSON block
// parses, and every command line they start is `npx -y boundary-inspector serve` with flags that
// serve really parses.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parseServeArgs } from '../../src/server/launch/options.js';

// Each document, with how many JSON snippets and `claude mcp add` lines it holds at least. The
// README holds no other JSON block and no other unlabelled one starting with `claude mcp add`.
const DOCS = [
  { file: 'docs/clients.md', json: 5, claude: 2 },
  { file: 'README.md', json: 2, claude: 1 },
] as const;

function read(file: string): string {
  return fs.readFileSync(path.resolve(__dirname, '../..', file), 'utf8');
}

/** The fenced code blocks of one language ('' for none), read fence by fence. */
function blocks(doc: string, language: string): string[] {
  const found: string[] = [];
  let open: { language: string; lines: string[] } | undefined;
  for (const line of doc.split('\n')) {
    if (!line.startsWith('```')) open?.lines.push(line);
    else if (open === undefined) open = { language: line.slice(3).trim(), lines: [] };
    else {
      if (open.language === language) found.push(open.lines.join('\n'));
      open = undefined;
    }
  }
  return found;
}

/** Checks one command line from the doc (after any `cmd /c`) and returns the server's arguments. */
function serveArgs(line: readonly string[], where: string): string[] {
  const start = line[0] === 'cmd' ? 2 : 0;
  assert.deepEqual(line.slice(start, start + 4), ['npx', '-y', 'boundary-inspector', 'serve'], where);
  const args = line.slice(start + 4);
  assert.doesNotThrow(() => parseServeArgs(args), where);
  assert.ok(parseServeArgs(args).grants.length > 0, `${where}: grants a workspace`);
  return args;
}

for (const { file, json, claude } of DOCS) {
  test(`${file}: each JSON snippet parses and starts the server with flags serve accepts`, () => {
    const snippets = blocks(read(file), 'json');
    assert.ok(snippets.length >= json, `${snippets.length} JSON snippets`);
    for (const text of snippets) {
      const config = JSON.parse(text) as { mcpServers?: Record<string, Server>; servers?: Record<string, Server> };
      // VS Code's format keys servers under `servers` and requires `type`; the others use `mcpServers`.
      const servers = config.servers ?? config.mcpServers;
      assert.ok(servers, `no servers in ${text}`);
      for (const [name, server] of Object.entries(servers)) {
        assert.equal(name, 'boundary-inspector');
        if (config.servers) assert.equal(server.type, 'stdio', 'VS Code needs type: stdio');
        serveArgs([server.command, ...server.args], text);
      }
    }
  });

  test(`${file}: each \`claude mcp add\` line puts its options before the name and the server after --`, () => {
    const lines = blocks(read(file), '').flatMap((block) => block.split('\n')).filter((line) => line.startsWith('claude mcp add'));
    assert.ok(lines.length >= claude, `${lines.length} claude mcp add lines`);
    for (const line of lines) {
      const words = line.split(/\s+/);
      const dash = words.indexOf('--');
      assert.deepEqual(words.slice(dash - 1, dash), ['boundary-inspector'], `${line}: the name just before --`);
      serveArgs(words.slice(dash + 1), line);
    }
  });
}

interface Server {
  readonly type?: string;
  readonly command: string;
  readonly args: string[];
}
