// The no-check floor: a newline JSON-RPC server with no SDK and no checks, answering the three
// light round trips (no file, a file's facts, a 4 KiB read) as plainly as Node can. What our
// server costs above it is the price of the SDK, the checks and the explanations.
import fs from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';

const root = process.argv[2];
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const text = (value) => ({ content: [{ type: 'text', text: value }] });

const tools = {
  list_workspaces: async () => text(root),
  get_file_info: async ({ path: name }) => {
    const stats = await fs.stat(path.join(root, name));
    return text(`size: ${stats.size}\nmodified: ${stats.mtime.toISOString()}\ntype: ${stats.isDirectory() ? 'directory' : 'file'}`);
  },
  read_text_file: async ({ path: name }) => text(await fs.readFile(path.join(root, name), 'utf8')),
};

readline.createInterface({ input: process.stdin }).on('line', async (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === 'initialize') {
    send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'floor', version: '0.0.0' } } });
  } else if (message.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: message.id, result: { tools: Object.keys(tools).map((name) => ({ name, inputSchema: { type: 'object' } })) } });
  } else if (message.method === 'tools/call') {
    try {
      send({ jsonrpc: '2.0', id: message.id, result: await tools[message.params.name](message.params.arguments ?? {}) });
    } catch (error) {
      send({ jsonrpc: '2.0', id: message.id, result: { ...text(String(error)), isError: true } });
    }
  } else send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no such method' } });
});
