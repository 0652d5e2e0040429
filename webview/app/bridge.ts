/**
 * The view's side of MCP Apps (the `io.modelcontextprotocol/ui` extension, protocol 2026-01-26):
 * JSON-RPC over postMessage with the host that framed it. It asks `ui/initialize`, says
 * `ui/notifications/initialized`, hears the tool's input and result, answers the host's pings and
 * teardown, reports its size, and calls the server's tools through the host.
 *
 * Written here rather than taken from ext-apps' `App`: that class brings zod and the MCP client
 * (about 660 KB minified) into a view whose budget is a tenth of that. The tests drive this bridge
 * with ext-apps' own host side (`AppBridge`).
 */
import type { McpUiHostContext, McpUiInitializeResult } from '@modelcontextprotocol/ext-apps';

export const UI_PROTOCOL_VERSION = '2026-01-26';

/** What a tool call answers: the fields of MCP's CallToolResult the view reads. */
export interface ToolResult {
  readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  readonly _meta?: Record<string, unknown>;
}

export interface ViewEvents {
  toolInput(args: Record<string, unknown>): void;
  toolResult(result: ToolResult): void;
  toolCancelled(reason: string | undefined): void;
  hostContext(context: McpUiHostContext): void;
}

interface Message {
  readonly jsonrpc?: unknown;
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

const JSON_RPC = '2.0';

export class ViewBridge {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  /** What the host said it offers, once initialized: `serverTools` lets the view call the server's tools. */
  hostCapabilities: McpUiInitializeResult['hostCapabilities'] | undefined;

  constructor(
    private readonly events: ViewEvents,
    private readonly host: Window = window.parent,
  ) {
    window.addEventListener('message', (event) => {
      // Only the frame's host speaks to it: anything else posting here is ignored.
      if (event.source !== this.host) return;
      this.receive(event.data as Message);
    });
  }

  async connect(appInfo: { name: string; version: string }): Promise<void> {
    const result = (await this.request('ui/initialize', { appInfo, appCapabilities: {}, protocolVersion: UI_PROTOCOL_VERSION })) as McpUiInitializeResult;
    this.hostCapabilities = result.hostCapabilities;
    this.events.hostContext(result.hostContext ?? {});
    this.notify('ui/notifications/initialized', {});
  }

  /** Whether the host passes the view's tool calls to the server. */
  canCallTools(): boolean {
    return this.hostCapabilities?.serverTools !== undefined;
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return (await this.request('tools/call', { name, arguments: args })) as ToolResult;
  }

  sizeChanged(width: number, height: number): void {
    this.notify('ui/notifications/size-changed', { width, height });
  }

  private request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.host.postMessage({ jsonrpc: JSON_RPC, id, method, params }, '*');
    });
  }

  private notify(method: string, params: Record<string, unknown>): void {
    this.host.postMessage({ jsonrpc: JSON_RPC, method, params }, '*');
  }

  private respond(id: number | string, result: Record<string, unknown>): void {
    this.host.postMessage({ jsonrpc: JSON_RPC, id, result }, '*');
  }

  private receive(message: Message): void {
    if (message === null || typeof message !== 'object' || message.jsonrpc !== JSON_RPC) return;
    if (message.method === undefined) {
      const waiting = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (waiting === undefined) return;
      this.pending.delete(message.id as number);
      if (message.error !== undefined) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
      return;
    }
    const params = message.params ?? {};
    switch (message.method) {
      case 'ui/notifications/tool-input':
        this.events.toolInput((params['arguments'] as Record<string, unknown> | undefined) ?? {});
        break;
      case 'ui/notifications/tool-result':
        this.events.toolResult(params as ToolResult);
        break;
      case 'ui/notifications/tool-cancelled':
        this.events.toolCancelled(typeof params['reason'] === 'string' ? params['reason'] : undefined);
        break;
      case 'ui/notifications/host-context-changed':
        this.events.hostContext(params as McpUiHostContext);
        break;
      case 'ping':
      case 'ui/resource-teardown':
        if (message.id !== undefined) this.respond(message.id, {});
        break;
      default:
        // A request the view does not serve is answered, so the host does not wait on it.
        if (message.id !== undefined) this.host.postMessage({ jsonrpc: JSON_RPC, id: message.id, error: { code: -32601, message: `${message.method} is not served by this view` } }, '*');
    }
  }
}
