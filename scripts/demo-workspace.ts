/**
 * A demo workspace holding the classic boundary traps, for `npm start` and the VS Code tests:
 *
 *   <base>/notes/                    the workspace folder to open
 *     README.md, hello.txt, src/index.ts
 *     café/ (NFC) and café/ (NFD)    two different folders on Linux
 *     report#2 draft.pdf             a `#` and a space: file:///.../report%232%20draft.pdf
 *     c#/notes.md                    a `#` in a folder name
 *     🦊 fox.md                      an emoji name
 *     escape -> ../outside           a link whose chain lands outside
 *     inside-link -> src             a link that stays inside
 *     TODO.md and todo.md            case twins: one file on Windows and macOS
 *     dangling -> draft.md           a link to nothing
 *     .claude/settings.local.json    Claude Code's local settings: Edit(./drafts/**) allowed on line 4,
 *                                    Read(./private/**) denied on line 7
 *     drafts/plan.md                 a change Claude Code allows and Codex, read-only by default, refuses
 *     private/keys.txt               a read Claude Code denies
 *   <base>/notes-evil/secret.md      the sibling whose name starts with the workspace's name
 *   <base>/outside/secret.txt        where the escaping link leads
 *
 * Idempotent: files are rewritten with the same content, links re-pointed when they differ.
 * Usage: tsx scripts/demo-workspace.ts [base]   (default .vscode-test/demo)
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

export const CAFE_NFC = 'caf\u00e9';
export const CAFE_NFD = 'cafe\u0301';

export interface DemoWorkspace {
  readonly base: string;
  /** The workspace folder to open. */
  readonly notes: string;
  readonly hello: string;
  readonly helloText: string;
  readonly readme: string;
  readonly cafeNfc: string;
  readonly cafeNfd: string;
  readonly reportPdf: string;
  readonly cSharpNotes: string;
  readonly emoji: string;
  /** `notes/escape`, a link to `../outside`. */
  readonly escapeLink: string;
  readonly insideLink: string;
  /** `TODO.md` and `todo.md`: names that differ only by case. */
  readonly caseTwins: readonly [string, string];
  /** `notes/dangling`, a link to `draft.md`, which does not exist. */
  readonly danglingLink: string;
  /** The sibling-prefix trap: `notes-evil/secret.md`, beside `notes`. */
  readonly evilSecret: string;
  /** `.claude/settings.local.json`: its grants apply at once, the folder trusted or not. */
  readonly claudeSettings: string;
  /** The line of `claudeSettings` that allows edits below `drafts/`, and the one that denies reads below `private/`. */
  readonly claudeAllowLine: number;
  readonly claudeDenyLine: number;
  /** `drafts/plan.md`: Claude Code allows changing it, Codex (read-only by default) does not. */
  readonly draft: string;
  /** `private/keys.txt`: Claude Code denies reading it. */
  readonly privateFile: string;
  readonly outside: string;
  readonly outsideSecret: string;
}

function write(file: string, content: string | Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function link(at: string, target: string): void {
  let current: string | null = null;
  try {
    if (lstatSync(at).isSymbolicLink()) current = readlinkSync(at);
    else rmSync(at, { recursive: true, force: true });
  } catch {
    // not there yet
  }
  if (current === target) return;
  if (current !== null) rmSync(at, { force: true });
  symlinkSync(target, at);
}

const MINIMAL_PDF = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >> endobj
trailer << /Root 1 0 R >>
%%EOF
`;

export function createDemoWorkspace(base: string): DemoWorkspace {
  base = path.resolve(base);
  const notes = path.join(base, 'notes');
  const demo: DemoWorkspace = {
    base,
    notes,
    hello: path.join(notes, 'hello.txt'),
    helloText: 'Hello from inside the workspace.\n',
    readme: path.join(notes, 'README.md'),
    cafeNfc: path.join(notes, CAFE_NFC),
    cafeNfd: path.join(notes, CAFE_NFD),
    reportPdf: path.join(notes, 'report#2 draft.pdf'),
    cSharpNotes: path.join(notes, 'c#', 'notes.md'),
    emoji: path.join(notes, '\u{1F98A} fox.md'),
    escapeLink: path.join(notes, 'escape'),
    insideLink: path.join(notes, 'inside-link'),
    caseTwins: [path.join(notes, 'TODO.md'), path.join(notes, 'todo.md')],
    danglingLink: path.join(notes, 'dangling'),
    evilSecret: path.join(base, 'notes-evil', 'secret.md'),
    claudeSettings: path.join(notes, '.claude', 'settings.local.json'),
    claudeAllowLine: 4,
    claudeDenyLine: 7,
    draft: path.join(notes, 'drafts', 'plan.md'),
    privateFile: path.join(notes, 'private', 'keys.txt'),
    outside: path.join(base, 'outside'),
    outsideSecret: path.join(base, 'outside', 'secret.txt'),
  };

  write(
    demo.readme,
    [
      '# notes: a Boundary Inspector demo workspace',
      '',
      'Open the inspector (Boundary Inspector: Open Inspector) and try:',
      '',
      `- \`${pathToFileURL(demo.evilSecret).href}\`: a sibling whose name starts with this folder's name (outside)`,
      `- \`${pathToFileURL(notes).href}/%2e%2e/outside/secret.txt\`: an encoded dot-dot (outside)`,
      '- `escape/secret.txt`: a link whose chain lands outside (ERR_SYMLINK_ESCAPE)',
      '- `inside-link/index.ts`: a link that stays inside (inside)',
      `- \`${CAFE_NFC}/nfc.md\` and \`${CAFE_NFD}/nfd.md\`: two folders on Linux, one on macOS`,
      `- \`${pathToFileURL(demo.reportPdf).href}\`: a \`#\` that must be percent-encoded in a URI`,
      '- `file:///c%3A/Users/dev/app/src/a.ts` against the root `file:///c%3A/Users/dev/app`, platform win32',
      '- `readme.md`: no such file on Linux, and "Did you mean" offers `README.md`',
      '- `escape` "as seen by" get_file_info (the link itself, inside) and read_text_file (where it leads, outside)',
      '- Boundary Inspector: Audit Workspace Boundaries: the escaping and the dangling link, `TODO.md` and `todo.md`, the two cafés',
      '- `drafts/plan.md` "as seen by" write_file: "Every program, side by side" shows Claude Code allowing it (`.claude/settings.local.json` line 4) and Codex refusing it',
      '- `private/keys.txt` "decided by" Claude Code: denied by line 7, and the fix opens the file there',
      '',
    ].join('\n'),
  );
  write(demo.hello, demo.helloText);
  // Line numbers as claudeAllowLine and claudeDenyLine say.
  write(demo.claudeSettings, '{\n  "permissions": {\n    "allow": [\n      "Edit(./drafts/**)"\n    ],\n    "deny": [\n      "Read(./private/**)"\n    ]\n  }\n}\n');
  write(demo.draft, '# plan\n');
  write(demo.privateFile, 'not for agents\n');
  write(path.join(notes, 'src', 'index.ts'), "export const greeting = 'inside';\n");
  write(path.join(demo.cafeNfc, 'nfc.md'), `This folder's name is NFC: ${Buffer.from(CAFE_NFC).toString('hex')}\n`);
  write(path.join(demo.cafeNfd, 'nfd.md'), `This folder's name is NFD: ${Buffer.from(CAFE_NFD).toString('hex')}\n`);
  write(demo.reportPdf, MINIMAL_PDF);
  write(demo.cSharpNotes, '# c# notes\n\nA `#` in a folder name is `%23` in a URI.\n');
  write(demo.emoji, '# \u{1F98A}\n\nA name outside the Basic Multilingual Plane.\n');
  write(demo.evilSecret, '# notes-evil\n\nA sibling of the workspace: `notes` is a string prefix of `notes-evil`, not a path prefix.\n');
  write(demo.outsideSecret, 'Outside the workspace: reached only through the escape link.\n');
  write(demo.caseTwins[0], '# TODO\n\n- one list\n');
  write(demo.caseTwins[1], '# todo\n\n- another list, the same file on Windows and macOS\n');
  link(demo.escapeLink, path.join('..', 'outside'));
  link(demo.insideLink, 'src');
  link(demo.danglingLink, 'draft.md');
  return demo;
}

if (require.main === module) {
  const base = process.argv[2] ?? path.resolve(__dirname, '..', '.vscode-test', 'demo');
  const demo = createDemoWorkspace(base);
  console.log(JSON.stringify(demo, null, 2));
  if (!existsSync(demo.notes)) process.exit(1);
}
