// `boundary-inspector audit` through the built CLI (dist/cli.js): exit codes, the JSON shape
// other tools script against, and the text report.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { MAX_KEPT_FINDINGS } from '../../src/audit/audit.js';
import { main } from '../../src/cli/main.js';
import { makeFastTempDir, removeDir } from '../server/helpers.js';
import { isRoot, makeFindingFlood, makeFixture, type Fixture } from './fixture.js';

const repoRoot = path.resolve(__dirname, '../..');
const cliPath = path.join(repoRoot, 'dist', 'cli.js');
const KINDS = ['link-escapes', 'link-dangling', 'link-loop', 'case-twins', 'unicode-twins', 'not-portable', 'hidden-characters', 'hard-link', 'unreadable'];
const LINK_KINDS_WITH_TARGET = ['link-escapes', 'link-dangling'];

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[]): Run {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  // A report of every finding kept runs to megabytes.
  const result = spawnSync(process.execPath, [cliPath, ...args], { cwd: repoRoot, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function runJson(args: readonly string[]): Run & { readonly body: Record<string, unknown> } {
  const result = run([...args, '--json']);
  const lines = result.stdout.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, 1, `one JSON line on stdout; got:\n${result.stdout}\nstderr:\n${result.stderr}`);
  return { ...result, body: JSON.parse(lines[0]!) as Record<string, unknown> };
}

function assertUsageError(result: Run, mention: string): void {
  assert.equal(result.status, 2, `exit 2; stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  assert.equal(result.stdout, '');
  assert.ok(result.stderr.includes(mention), `stderr names ${mention}: ${result.stderr}`);
  assert.ok(result.stderr.includes('boundary-inspector audit --help'), result.stderr);
}

/** The JSON shape, exactly: these keys and no others, findings with a target only for link kinds that land. */
function assertReportShape(body: Record<string, unknown>): void {
  assert.deepEqual(Object.keys(body), ['root', 'rootPath', 'scanned', 'truncated', 'notKept', 'findings']);
  assert.equal(typeof body.root, 'string');
  assert.equal(typeof body.rootPath, 'string');
  assert.ok(path.isAbsolute(body.rootPath as string));
  assert.ok(Number.isSafeInteger(body.scanned) && (body.scanned as number) >= 0);
  assert.equal(typeof body.truncated, 'boolean');
  for (const [kind, count] of Object.entries(body.notKept as Record<string, unknown>)) {
    assert.ok(KINDS.includes(kind) && Number.isSafeInteger(count) && (count as number) > 0, `notKept ${kind}: ${count}`);
  }
  assert.ok(Array.isArray(body.findings));
  for (const finding of body.findings as Record<string, unknown>[]) {
    const expectedKeys = LINK_KINDS_WITH_TARGET.includes(finding.kind as string)
      ? ['kind', 'path', 'detail', 'target']
      : ['kind', 'path', 'detail'];
    assert.deepEqual(Object.keys(finding), expectedKeys, JSON.stringify(finding));
    assert.ok(KINDS.includes(finding.kind as string), String(finding.kind));
    assert.ok((finding.path as string).startsWith(`${body.rootPath as string}${path.sep}`), String(finding.path));
    assert.ok(typeof finding.detail === 'string' && finding.detail.length > 0);
    if ('target' in finding) assert.ok(path.isAbsolute(finding.target as string));
  }
}

let fixture: Fixture;

before(() => {
  assert.ok(fs.existsSync(cliPath), `${cliPath} is missing: build it first with "npm run build"`);
  fixture = makeFixture();
});
after(() => fixture.cleanup());

describe('audit: help', () => {
  test('--help: usage, every kind, the exit codes', () => {
    const result = run(['audit', '--help']);
    assert.equal(result.status, 0);
    assert.equal(result.stderr, '');
    assert.ok(result.stdout.startsWith('Usage: boundary-inspector audit --root <uri-or-path>'), result.stdout);
    for (const kind of KINDS) assert.ok(result.stdout.includes(kind), kind);
    assert.match(result.stdout, /Exit status: 0 nothing found, 3 findings, 2 usage error/);
  });

  test('the main help lists the command', () => {
    const result = run(['--help']);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^ {2}audit --root <uri>/m);
  });
});

describe('audit: exit codes and the JSON report', () => {
  test('a workspace with findings: exit 3, the exact shape, root as given', () => {
    const root = pathToFileURL(fixture.ws).href;
    const { status, stderr, body } = runJson(['audit', '--root', root]);
    assert.equal(status, 3, stderr);
    assert.equal(stderr, '');
    assertReportShape(body);
    assert.equal(body.root, root);
    assert.equal(body.rootPath, fixture.ws);
    assert.equal(body.truncated, false);
    const kinds = new Set((body.findings as { kind: string }[]).map((finding) => finding.kind));
    const expected = KINDS.filter((kind) => !(kind === 'case-twins' && !fixture.caseSensitive));
    // Unreadable: the chmod 000 folder when not root; a path past PATH_MAX otherwise.
    for (const kind of expected) {
      if (kind === 'unreadable' && isRoot && fixture.tooDeep === undefined) continue;
      assert.ok(kinds.has(kind), `a ${kind} finding`);
    }
    const escape = (body.findings as { kind: string; path: string; target?: string }[]).find(
      (finding) => finding.path === path.join(fixture.ws, 'escape-abs'),
    );
    assert.deepEqual(escape && { kind: escape.kind, target: escape.target }, {
      kind: 'link-escapes',
      target: path.join(fixture.outside, 'secret.txt'),
    });
  });

  test('a clean workspace: exit 0, no findings, every entry scanned', () => {
    const { status, stderr, body } = runJson(['audit', '--root', fixture.clean]);
    assert.equal(status, 0, stderr);
    assertReportShape(body);
    assert.deepEqual(body.findings, []);
    assert.deepEqual(body.notKept, {});
    assert.equal(body.scanned, 16);
    assert.equal(body.truncated, false);
  });

  test('a root reached through a link: rootPath is the real folder', () => {
    const link = path.join(fixture.base, 'clean-link');
    fs.symlinkSync(fixture.clean, link);
    const { status, body } = runJson(['audit', '--root', link]);
    assert.equal(status, 0);
    assert.equal(body.root, link);
    assert.equal(body.rootPath, fixture.clean);
  });

  test('--max-entries stops the walk: truncated, scanned as many', () => {
    const { status, body } = runJson(['audit', '--root', fixture.clean, '--max-entries', '2']);
    assert.equal(status, 0);
    assertReportShape(body);
    assert.equal(body.scanned, 2);
    assert.equal(body.truncated, true);
  });

  test(`past ${MAX_KEPT_FINDINGS.toLocaleString('en-US')} findings: "notKept" counts by kind what is not listed, and the text says so`, () => {
    const base = makeFastTempDir('bi-audit-cli-');
    try {
      const ws = path.join(base, 'ws');
      const { escape } = makeFindingFlood(ws);
      const { status, stderr, body } = runJson(['audit', '--root', ws]);
      assert.equal(status, 3, stderr);
      assertReportShape(body);
      assert.deepEqual(body.notKept, { 'not-portable': 1, 'hard-link': 2 });
      const findings = body.findings as { kind: string; path: string }[];
      assert.equal(findings.length, MAX_KEPT_FINDINGS);
      assert.ok(findings.some((finding) => finding.kind === 'link-escapes' && finding.path === escape));
      const text = run(['audit', '--root', ws]);
      assert.equal(text.status, 3);
      assert.match(text.stdout, /^not-portable \(10,000, 1 not kept\): /m);
      assert.match(text.stdout, /^hard-link \(2, 2 not kept\): /m);
      assert.match(text.stdout, /^10,003 findings: 1 link-escapes, 10,000 not-portable, 2 hard-link$/m);
      assert.match(text.stdout, /^3 findings were not kept \(not-portable 1, hard-link 2\): an audit keeps at most 10,000 findings and 4 MiB of their text, the most serious kinds first\.$/m);
    } finally {
      removeDir(base);
    }
  });

  // [what is wrong, arguments after `audit`, what stderr names]
  const usageRows: readonly [string, () => string[], string][] = [
    ['no --root', () => [], '--root'],
    ['--root without a value', () => ['--root'], '--root'],
    ['a relative root', () => ['--root', 'ws'], 'ERR_NOT_ABSOLUTE'],
    ['another scheme', () => ['--root', 'https://example.com/ws'], 'ERR_SCHEME'],
    ['a root that does not exist', () => ['--root', path.join(fixture.base, 'nothing')], 'does not exist'],
    ['a root that is a file', () => ['--root', path.join(fixture.clean, 'read.md')], 'not a folder'],
    ['--max-entries 0', () => ['--root', fixture.clean, '--max-entries', '0'], '--max-entries'],
    ['--max-entries -1', () => ['--root', fixture.clean, '--max-entries', '-1'], '--max-entries'],
    ['--max-entries 1.5', () => ['--root', fixture.clean, '--max-entries', '1.5'], '--max-entries'],
    ['--max-entries abc', () => ['--root', fixture.clean, '--max-entries', 'abc'], '--max-entries'],
    ['--max-entries past 2^53', () => ['--root', fixture.clean, '--max-entries', '99999999999999999999'], '--max-entries'],
    ['an unknown option', () => ['--root', fixture.clean, '--follow-links'], '--follow-links'],
    ['a stray argument', () => ['--root', fixture.clean, 'extra'], 'extra'],
  ];
  for (const [name, args, mention] of usageRows) {
    test(`usage error: ${name}`, () => assertUsageError(run(['audit', ...args()]), mention));
  }
});

describe('audit: the text report', () => {
  test('grouped by kind with counts, names shown safely, no colour when piped', () => {
    const result = run(['audit', '--root', fixture.ws]);
    assert.equal(result.status, 3);
    assert.equal(result.stderr, '', 'no progress line when stderr is not a terminal');
    assert.ok(!result.stdout.includes('\u001b'), 'no escape sequence');
    assert.ok(!result.stdout.includes('\u0001'), 'a control character in a name is escaped');
    assert.ok(result.stdout.includes('portable/ctl\\u0001'), result.stdout);
    assert.ok(result.stdout.includes('"portable/name "'), 'a trailing space is made visible');
    assert.match(result.stdout, /^link-escapes \(4\): /m);
    assert.match(result.stdout, /^link-loop \(2\): /m);
    assert.match(result.stdout, /^not-portable \(7\): /m);
    // Names that would reorder or hide text on screen: listed, and escaped.
    assert.match(result.stdout, /^hidden-characters \(4\): /m);
    assert.ok(result.stdout.includes('hidden/invoice\\u202etxt.exe'), result.stdout);
    assert.equal(/(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.exec(result.stdout), null, 'nothing in the report drives the terminal');
    assert.match(result.stdout, /^hard-link \(3\): /m);
    assert.match(result.stdout, /^ {2}escape-abs -> .*secret\.txt$/m);
    assert.match(result.stdout, /^\d+ findings: \d+ link-escapes, /m);
  });

  test('a clean workspace says so', () => {
    const result = run(['audit', '--root', fixture.clean]);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^scanned 16 entries/m);
    assert.match(result.stdout, /\nNothing found\.\n$/);
  });

  test('a truncated walk says where it stopped', () => {
    const result = run(['audit', '--root', fixture.clean, '--max-entries', '5']);
    assert.match(result.stdout, /^stopped at --max-entries 5: the rest was not examined$/m);
    assert.match(result.stdout, /Nothing found in the entries examined\.\n$/);
  });

  test('a package store: every hard link in JSON, one line per node_modules folder in text', () => {
    const ws = path.join(fixture.base, 'pnpm-ws');
    const store = path.join(fixture.base, 'store');
    fs.mkdirSync(store);
    fs.mkdirSync(path.join(ws, 'node_modules', '.pnpm', 'pkg@1.0.0', 'node_modules', 'pkg'), { recursive: true });
    for (let i = 0; i < 30; i++) {
      fs.writeFileSync(path.join(store, `f${i}`), `${i}\n`);
      fs.linkSync(path.join(store, `f${i}`), path.join(ws, 'node_modules', '.pnpm', 'pkg@1.0.0', 'node_modules', 'pkg', `f${i}.js`));
    }
    fs.writeFileSync(path.join(store, 'lone'), '');
    fs.linkSync(path.join(store, 'lone'), path.join(ws, 'lone.txt'));

    const { body } = runJson(['audit', '--root', ws]);
    assert.equal((body.findings as { kind: string }[]).filter((finding) => finding.kind === 'hard-link').length, 31);
    const text = run(['audit', '--root', ws]);
    assert.equal(text.status, 3);
    assert.match(text.stdout, /^hard-link \(31\): /m);
    assert.match(text.stdout, /^ {2}node_modules\/ 30 files: a package store/m);
    assert.match(text.stdout, /^ {2}lone\.txt$/m);
    assert.ok(!text.stdout.includes('f0.js'), 'store files are not listed one by one');
  });
});

describe('audit: main() in process', () => {
  class Sink extends Writable {
    text = '';
    override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
      this.text += chunk.toString();
      done();
    }
  }

  test('a usage error is answered at once; a walk is a promise of the exit status', async () => {
    const stdout = new Sink();
    const stderr = new Sink();
    assert.equal(main(['audit', '--max-entries', '2'], { stdout, stderr, env: {} }), 2);
    assert.match(stderr.text, /--root <uri-or-path> is required/);

    const walking = main(['audit', '--root', fixture.clean, '--json'], { stdout, stderr, env: {} });
    assert.ok(walking instanceof Promise);
    assert.equal(await walking, 0);
    assert.deepEqual(JSON.parse(stdout.text).findings, []);
  });
});
