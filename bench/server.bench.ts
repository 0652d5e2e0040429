// Server start-up, side by side with a bare Node start in the same run: the time from spawn to
// the answer of the first tools/list, as a ratio to `node -e ""`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = path.resolve(__dirname, '..');
const server = path.join(repo, 'dist', 'server.js');

function bareNode(): number {
  const start = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Spawn, initialize (2025-11-25 handshake), tools/list; milliseconds until the list arrives. */
function firstToolsList(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [server, ...args], { stdio: ['pipe', 'pipe', 'ignore'] });
    let buffer = '';
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, newline)) as { id?: number };
        buffer = buffer.slice(newline + 1);
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
          child.stdin.end();
          child.once('exit', () => resolve(elapsed));
        }
      }
    });
    child.once('error', reject);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
  });
}

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

async function main() {
  if (!fs.existsSync(server)) throw new Error('build first: npm run build');
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-bench-ws-'));
  try {
    const args = ['--workspace', pathToFileURL(ws).href];
    const rows: Record<string, number[]> = { 'node -e "" (baseline)': [], 'server, --sandbox off': [], 'server, sandbox auto': [] };
    for (let round = 0; round < 7; round++) {
      rows['node -e "" (baseline)']!.push(bareNode());
      rows['server, --sandbox off']!.push(await firstToolsList([...args, '--sandbox', 'off']));
      rows['server, sandbox auto']!.push(await firstToolsList(args));
    }
    const base = median([...rows['node -e "" (baseline)']!]);
    console.log('\nStart-up: spawn to the first tools/list answer (median of 7, interleaved)');
    for (const [name, values] of Object.entries(rows)) {
      const value = median([...values]);
      console.log(`  ${name.padEnd(28)} ${value.toFixed(1).padStart(8)} ms   ${(value / base).toFixed(2).padStart(6)} x`);
    }
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
