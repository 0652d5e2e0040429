/** The MCP Apps view's document (tools/appViews.ts), as resources/read serves it. */
import { readFileSync } from 'node:fs';
import nodePath from 'node:path';
import { VIEW_MIME_TYPE, type AppView } from '../tools/appViews.js';

declare const APP_VIEW_HTML: string | undefined;

let fromSources: string | undefined;

/** The document, inlined in the bundle by the build; run from the sources, the built copy in dist/. */
function viewHtml(): string {
  if (typeof APP_VIEW_HTML === 'string') return APP_VIEW_HTML;
  fromSources ??= readFileSync(nodePath.join(__dirname, '..', '..', '..', 'dist', 'app', 'view.html'), 'utf8');
  return fromSources;
}

/**
 * resources/read of a view: the document, with the host's sandbox asked for nothing beyond it
 * (no origin to connect to or load from) and for clipboard writes ("Copy as test case").
 */
export function readView(view: AppView): { contents: Array<Record<string, unknown>> } {
  return {
    contents: [
      {
        uri: view,
        mimeType: VIEW_MIME_TYPE,
        text: viewHtml(),
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, permissions: { clipboardWrite: {} }, prefersBorder: true } },
      },
    ],
  };
}
