import path from 'node:path';

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain', '.md': 'text/markdown', '.json': 'application/json', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.cjs': 'text/javascript', '.ts': 'text/x-typescript', '.tsx': 'text/x-typescript', '.html': 'text/html', '.css': 'text/css',
  '.csv': 'text/csv', '.xml': 'application/xml', '.yaml': 'application/yaml', '.yml': 'application/yaml', '.py': 'text/x-python',
  '.sh': 'text/x-shellscript', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif',
  '.webp': 'image/webp', '.svg': 'image/svg+xml', '.bmp': 'image/bmp', '.ico': 'image/x-icon', '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.flac': 'audio/flac', '.m4a': 'audio/mp4', '.pdf': 'application/pdf',
  '.zip': 'application/zip',
};

export function mimeTypeOf(name: string): string {
  return MIME_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}
