/**
 * An MCP Apps host in headless Chromium, made of ext-apps' own host side (`AppBridge` and its
 * `PostMessageTransport`): the view from the real server's `ui://` resource goes into a sandboxed
 * iframe (scripts only, an opaque origin), the host sends it a tool's input and result, and passes
 * the tools/call requests it makes to the real server over stdio.
 *
 * The view test saves its pictures in .vscode-test/screenshots; with UPDATE_SCREENSHOT=1 it also
 * refreshes the README's media/app-view.png.
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';
import { CHROMIUM_FLAGS, ensureChromium, REPO } from '../../scripts/vscode-env';

/** A tools/call result, as the page passes it on whole. */
export type ToolResultLike = object;

// Page-side code, run in the browser by evaluate(): typed loosely here, where the program has no DOM.
declare const document: any;
declare const window: any;

export type CallTool = (name: string, args: Record<string, unknown>) => Promise<ToolResultLike>;

/** A dark host's MCP Apps variables, as a chat client would hand them. */
export const DARK_HOST_CONTEXT = {
  theme: 'dark',
  platform: 'desktop',
  styles: {
    variables: {
      '--color-background-primary': '#1f1f1f',
      '--color-background-secondary': '#2a2a2a',
      '--color-background-tertiary': '#333333',
      '--color-text-primary': '#e6e6e6',
      '--color-text-secondary': '#b3b3b3',
      '--color-text-success': '#73c991',
      '--color-text-danger': '#f48771',
      '--color-text-warning': '#cca700',
      '--color-text-info': '#75beff',
      '--color-border-primary': '#454545',
      '--color-ring-primary': '#0078d4',
      '--font-sans': 'system-ui, sans-serif',
      '--font-mono': 'ui-monospace, monospace',
    },
  },
} as const;

let bridgeBundle: Promise<string> | undefined;

/** ext-apps' host side, bundled for the page. */
function appBridgeScript(): Promise<string> {
  bridgeBundle ??= esbuild
    .build({
      stdin: {
        contents: "import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'; window.ViewHost = { AppBridge, PostMessageTransport };",
        resolveDir: REPO,
        loader: 'js',
      },
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      logLevel: 'warning',
    })
    .then((result) => result.outputFiles[0]!.text);
  return bridgeBundle;
}

const HOST_PAGE = (script: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;background:#1f1f1f}iframe{display:block;width:100%;height:200px;border:0}</style></head>` +
  `<body><iframe id="view" sandbox="allow-scripts" title="Boundary Inspector view"></iframe><script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`;

export interface ViewHost {
  readonly page: Page;
  /** The view's frame, once loaded. */
  frame(): Frame;
  /** Every request the page made besides its own document and the view's: the view must make none. */
  readonly requests: string[];
  /** Every tools/call the view asked the host for. */
  readonly calls: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** Loads the view and waits for its ui/notifications/initialized. */
  load(html: string, hostContext?: Record<string, unknown>): Promise<void>;
  /** Sends the tool's input and result, as a host does after the call. */
  show(args: Record<string, unknown>, result: ToolResultLike): Promise<void>;
  /** A picture of the view's frame, at the height the view asked for. */
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

export async function openViewHost(callTool: CallTool, viewport = { width: 900, height: 700 }): Promise<ViewHost> {
  const executablePath = await ensureChromium();
  const { chromium } = await import('playwright-core');
  const browser: Browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
  const page = await browser.newPage({ viewport });
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (url !== 'about:blank' && url !== 'about:srcdoc' && !url.startsWith('data:')) requests.push(url);
  });
  const calls: ViewHost['calls'] = [];
  await page.exposeFunction('callServerTool', async (name: string, args: Record<string, unknown>) => {
    calls.push({ name, arguments: args });
    return callTool(name, args);
  });
  await page.setContent(HOST_PAGE(await appBridgeScript()));
  return {
    page,
    requests,
    calls,
    frame() {
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      if (frame === undefined) throw new Error('the view has no frame');
      return frame;
    },
    async load(html, hostContext = DARK_HOST_CONTEXT) {
      await page.evaluate(
        async ({ html, hostContext }) => {
          type Bridge = {
            oncalltool: (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown>;
            onsizechange: (size: { height?: number }) => void;
            oninitialized: () => void;
            connect(transport: unknown): Promise<void>;
          };
          const host = (window as unknown as { ViewHost: { AppBridge: new (...args: unknown[]) => Bridge; PostMessageTransport: new (target: Window, source: Window) => unknown } }).ViewHost;
          const frame = document.getElementById('view');
          const bridge = new host.AppBridge(null, { name: 'boundary-inspector-test-host', version: '1.0.0' }, { serverTools: {} }, { hostContext });
          const call = (window as unknown as { callServerTool(name: string, args: Record<string, unknown>): Promise<unknown> }).callServerTool;
          bridge.oncalltool = (params) => call(params.name, params.arguments ?? {});
          bridge.onsizechange = ({ height }) => {
            if (height !== undefined) frame.style.height = `${height}px`;
          };
          const initialized = new Promise<void>((resolve) => (bridge.oninitialized = resolve));
          // Listening before the document loads: its ui/initialize is the first thing it says.
          await bridge.connect(new host.PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
          frame.srcdoc = html;
          await initialized;
          (window as unknown as { viewBridge: Bridge }).viewBridge = bridge;
        },
        { html, hostContext },
      );
    },
    async show(args, result) {
      await page.evaluate(
        async ({ args, result }) => {
          const bridge = (window as unknown as { viewBridge: { sendToolInput(p: unknown): Promise<void>; sendToolResult(p: unknown): Promise<void> } }).viewBridge;
          await bridge.sendToolInput({ arguments: args });
          await bridge.sendToolResult(result);
        },
        { args, result },
      );
    },
    async screenshot(file) {
      // The frame's height follows the view's size-changed notices: wait until it holds still.
      let height = -1;
      for (let settled = 0; settled < 3; ) {
        await page.waitForTimeout(50);
        const now = await page.evaluate(() => document.getElementById('view')!.getBoundingClientRect().height);
        settled = now === height ? settled + 1 : 0;
        height = now;
      }
      await page.setViewportSize({ width: viewport.width, height: Math.max(Math.ceil(height), 100) });
      await page.locator('#view').screenshot({ path: file });
    },
    close: () => browser.close(),
  };
}

export const SCREENSHOT_DIR = path.join(REPO, '.vscode-test', 'screenshots');

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, name);
}
