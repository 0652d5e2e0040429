// The MCP Apps view as the server serves it: one HTML document whose script and style are inline,
// under a policy that lets it load and fetch nothing.

export const VIEW_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'";

/**
 * What the document may weigh: it is sent whole to each client that shows it. The build stops
 * past it, and a test holds it.
 */
export const VIEW_BUDGET_BYTES = 48 * 1024;

/** The document, from the view's bundled script and style. */
export function composeViewHtml(script, style) {
  // Inline code must not end its own element early.
  if (/<\/script/i.test(script)) throw new Error('the view script holds "</script", which would end the inline script');
  if (/<\/style/i.test(style)) throw new Error('the view style holds "</style", which would end the inline style');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${VIEW_CONTENT_SECURITY_POLICY}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Boundary Inspector</title>' +
    `<style>${style}</style></head><body><script>${script}</script></body></html>`
  );
}
