import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import * as vscode from 'vscode';
import type { ToolAnswer } from '../shared/messages.js';
import type { ToolName } from '../shared/operations.js';
import { REFUSAL_META_KEY, runArguments } from '../shared/runOnServer.js';
import type { ServerProvider } from './mcpProvider.js';

/** Text of an answer the panel shows; the rest is counted, not sent. */
const MAX_SHOWN_CHARS = 8_000;
const CALL_TIMEOUT_MS = 30_000;

interface Session {
  readonly version: string;
  readonly client: Client;
}

/**
 * The inspector's "Run on the server": the bundled server, started with exactly the arguments the
 * editor gives the agent's (the same grants, sandbox and refusal log), answering the panel's calls
 * as it would answer the agent's. One session while the panel is open; a new one once the grants
 * or settings change.
 */
export class ServerCalls implements vscode.Disposable {
  private session: Promise<Session> | undefined;

  constructor(
    private readonly provider: ServerProvider,
    /** The pids of the servers started here, which are not the agent's (serverProcess.ts). */
    private readonly pids: Set<number>,
  ) {}

  async call(tool: ToolName, workspaceUri: string, input: string): Promise<ToolAnswer> {
    const args = runArguments(tool, input);
    if (args === undefined) return { kind: 'not-run', reason: vscode.l10n.t('{0} needs more than a path; it is not run from the inspector.', tool) };
    const launch = this.provider.launch();
    if (launch.args.length === 0) return { kind: 'not-run', reason: vscode.l10n.t('No folder is granted to the agent, so its server is not running.') };
    if (!launch.roots.some((root) => root.uri === workspaceUri && root.rights !== 'none')) {
      return { kind: 'not-run', reason: vscode.l10n.t('{0} is not granted to the agent: choose one of its workspace folders as the root.', workspaceUri) };
    }
    try {
      const { client } = await this.sessionFor(launch.version, launch.args);
      const result = await client.callTool({ name: tool, arguments: { workspaceUri, ...args } }, { timeout: CALL_TIMEOUT_MS });
      return answerOf(result as { isError?: boolean; content?: unknown[]; _meta?: Record<string, unknown> });
    } catch (error) {
      this.close();
      return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  private sessionFor(version: string, args: readonly string[]): Promise<Session> {
    const current = this.session;
    if (current !== undefined) {
      return current.then((session) => {
        if (session.version === version) return session;
        this.close();
        return this.sessionFor(version, args);
      });
    }
    const started = (async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [this.provider.serverScript, ...args],
        env: { ...(process.env as Record<string, string>), ELECTRON_RUN_AS_NODE: '1' },
        stderr: 'ignore',
      });
      const client = new Client({ name: 'boundary-inspector-panel', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(transport);
      const pid = transport.pid;
      if (pid !== null) {
        this.pids.add(pid);
        // After the client's own handler, which connect() set.
        const closed = transport.onclose;
        transport.onclose = () => {
          this.pids.delete(pid);
          closed?.();
        };
      }
      return { version, client };
    })();
    this.session = started;
    started.catch(() => {
      if (this.session === started) this.session = undefined;
    });
    return started;
  }

  private close(): void {
    const closing = this.session;
    this.session = undefined;
    void closing?.then((session) => session.client.close()).catch(() => undefined);
  }

  dispose(): void {
    this.close();
  }
}

/** The server's result as the panel shows it: its text, and the refusal's fields when it refused. */
export function answerOf(result: { isError?: boolean; content?: unknown[]; _meta?: Record<string, unknown> }): ToolAnswer {
  const texts: string[] = [];
  for (const block of result.content ?? []) {
    const { type, text, mimeType } = block as { type?: string; text?: string; mimeType?: string };
    texts.push(type === 'text' && typeof text === 'string' ? text : `[${type ?? 'unknown'} block${mimeType ? `, ${mimeType}` : ''}]`);
  }
  const whole = texts.join('\n');
  const text = whole.length > MAX_SHOWN_CHARS ? whole.slice(0, MAX_SHOWN_CHARS) : whole;
  const refusal = result._meta?.[REFUSAL_META_KEY] as { code?: unknown; stage?: unknown } | undefined;
  return {
    kind: result.isError === true ? (refusal !== undefined ? 'refused' : 'error') : 'ok',
    text,
    omittedChars: whole.length - text.length,
    ...(refusal !== undefined && typeof refusal.code === 'string' && typeof refusal.stage === 'string' ? { code: refusal.code, stage: refusal.stage } : {}),
  };
}
