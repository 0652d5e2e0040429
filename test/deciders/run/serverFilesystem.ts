// The reference filesystem server, over stdio with the v1 SDK client (no roots capability, so the
// directories on its command line stay in force), one server per case.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { DeciderCase, ToolName } from '../cases.js';
import { baseEnv, whereWritten, type CaseFixture } from '../fixture.js';
import { executableOf } from '../programs.js';
import type { Observation } from '../recording.js';

/** The server's own refusals, all thrown by its validatePath before any file is touched. */
const REFUSED = /^(?:Error: )?(?:Access denied|Ambiguous Unicode path component|Parent directory does not exist)/;

export function classifyReference(text: string, isError: boolean): Pick<Observation, 'decision' | 'failed'> {
  if (!isError) return { decision: 'allow' };
  return REFUSED.test(text) ? { decision: 'deny' } : { decision: 'allow', failed: true };
}

export async function runServerFilesystem(c: DeciderCase, tool: ToolName, fx: CaseFixture, timeoutMs: number): Promise<Observation> {
  const allowed = (c.allowed ?? ['{base}/ws']).map(fx.expand);
  const transport = new StdioClientTransport({ command: process.execPath, args: [executableOf('server-filesystem'), ...allowed], cwd: fx.cwd, env: baseEnv(fx), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'record-deciders', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const input = fx.expand(c.input);
    const args = tool === 'write_file' ? { path: input, content: fx.marker } : { path: input };
    const result = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs })) as { isError?: boolean; content?: { type: string; text?: string }[] };
    const text = (result.content ?? []).map((part) => part.text ?? '').join('');
    const isError = result.isError === true;
    const written = tool === 'write_file' ? { written: whereWritten(c, fx) } : {};
    // The directories in force, as the server logs them: a link's target is added beside the link.
    const logged = /using allowed directories set from server args: (\[[\s\S]*?\])/.exec(stderr)?.[1];
    const directories = logged === undefined ? undefined : [...logged.matchAll(/'((?:[^'\\]|\\.)*)'/g)].map((match) => fx.unexpand(match[1] ?? ''));
    return { ...classifyReference(text, isError), message: fx.unexpand(text), ...written, ...(directories ? { detail: { allowedDirectories: directories } } : {}) };
  } catch (error) {
    // A server that exits at start (no directory accessible) is a refusal of everything.
    return { decision: 'deny', message: fx.unexpand(`${(error as Error).message}; stderr: ${stderr.trim()}`) };
  } finally {
    await client.close();
  }
}
