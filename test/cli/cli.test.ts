// End-to-end tests of the `boundary-inspector` command line: they spawn the built CLI
// (`node esbuild.mjs` writes dist/cli.js) and check exit codes, stdout/stderr and JSON shapes
// against the CLI's fixed interface, which other tools script.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { main } from '../../src/cli/main.js';
import { renderTrace } from '../../src/cli/render.js';
import { trace } from '../../src/core/index.js';

const repoRoot = path.resolve(__dirname, '../..');
const cliPath = path.join(repoRoot, 'dist', 'cli.js');

/** The stages an outside trace runs; an inside one goes on to the secrets stage. */
const STAGE_NAMES = ['parse', 'refusals', 'decode', 'normalise', 'alias', 'case', 'realpath', 'containment'] as const;
const EVERY_STAGE: readonly string[] = [...STAGE_NAMES, 'secrets'];
const STAGE_KEYS = ['stage', 'status', 'input', 'output', 'rule', 'note'] as const;
const STATUSES = ['pass', 'refuse', 'note', 'skip'];
const ESC = '\u001b[';

/** The platform whose path rules the host follows, as the CLI defines its default. */
const HOST: 'linux' | 'darwin' | 'win32' =
  process.platform === 'win32' || process.platform === 'darwin' ? process.platform : 'linux';
/** A platform that is not the host's, so the filesystem is not consulted. */
const OTHER: 'linux' | 'darwin' | 'win32' = HOST === 'win32' ? 'linux' : 'win32';

/** An environment without colour switches, so piped output is judged on the TTY rule alone. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  return { ...env, ...extra };
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[], env: NodeJS.ProcessEnv = plainEnv()): Run {
  const result = spawnSync(process.execPath, [cliPath, ...args], { cwd: repoRoot, encoding: 'utf8', env });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs with --json and parses the single JSON object printed on stdout. */
function runJson(args: readonly string[]): Run & { readonly body: Record<string, unknown> } {
  const result = run([...args, '--json']);
  const lines = result.stdout.split('\n').filter((line) => line.trim() !== '');
  assert.equal(lines.length, 1, `expected exactly one JSON line on stdout, got:\n${result.stdout}\nstderr:\n${result.stderr}`);
  const body: unknown = JSON.parse(lines[0]!);
  assert.equal(typeof body, 'object');
  assert.ok(body !== null && !Array.isArray(body), 'the JSON output is one object');
  return { ...result, body: body as Record<string, unknown> };
}

interface StageJson {
  readonly stage: string;
  readonly status: string;
  readonly input: string;
  readonly output: string | null;
  readonly rule: string;
  readonly note: string;
}

/** Checks the trace JSON shape: the required keys and the stage rows' keys and types. */
function assertTraceShape(body: Record<string, unknown>): StageJson[] {
  for (const key of ['verdict', 'code', 'stage', 'reason', 'path', 'stages', 'nearMisses']) {
    assert.ok(key in body, `trace JSON has key ${key}: ${JSON.stringify(body)}`);
  }
  assert.ok(['inside', 'outside', 'refused'].includes(body.verdict as string), `verdict ${String(body.verdict)}`);
  assert.ok(body.code === null || typeof body.code === 'string');
  assert.equal(typeof body.stage, 'string');
  assert.equal(typeof body.reason, 'string');
  assert.ok((body.reason as string).length > 0, 'reason is not empty');
  assert.ok(body.path === null || typeof body.path === 'string');
  assert.ok(Array.isArray(body.stages), 'stages is an array');
  assert.ok(Array.isArray(body.nearMisses), 'nearMisses is an array');
  const stages = body.stages as StageJson[];
  for (const row of stages) {
    for (const key of STAGE_KEYS) assert.ok(key in row, `stage row has key ${key}: ${JSON.stringify(row)}`);
    assert.ok(EVERY_STAGE.includes(row.stage), `stage name ${row.stage}`);
    assert.ok(STATUSES.includes(row.status), `stage status ${row.status}`);
    assert.equal(typeof row.input, 'string');
    assert.ok(row.output === null || typeof row.output === 'string');
    assert.equal(typeof row.rule, 'string');
    assert.equal(typeof row.note, 'string');
  }
  // Stages that ran appear in pipeline order.
  const order = stages.map((row) => EVERY_STAGE.indexOf(row.stage));
  assert.deepEqual(order, [...order].sort((a, b) => a - b), 'stages are in pipeline order');
  return stages;
}

function stageRow(stages: readonly StageJson[], name: string): StageJson {
  const row = stages.find((stage) => stage.stage === name);
  assert.ok(row, `stage ${name} is in the trace`);
  return row;
}

/** A usage error: exit 2, a message on stderr, nothing on stdout. */
function assertUsageError(result: Run, mention?: string): void {
  assert.equal(result.status, 2, `exit 2 expected; stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  assert.equal(result.stdout, '', 'nothing on stdout for a usage error');
  assert.ok(result.stderr.trim().length > 0, 'a message on stderr');
  if (mention !== undefined) assert.ok(result.stderr.includes(mention), `stderr names ${mention}: ${result.stderr}`);
}

before(() => {
  assert.ok(fs.existsSync(cliPath), `${cliPath} is missing: build it first with "node esbuild.mjs"`);
});

describe('trace: the README example', () => {
  const args = ['trace', 'file:///srv/ws/%2e%2e/private.md', '--root', 'file:///srv/ws'];

  test('--json: outside, ERR_OUTSIDE at containment, exit 3, eight stages in order', () => {
    const { status, stderr, body } = runJson(args);
    assert.equal(status, 3);
    assert.equal(stderr, '');
    const stages = assertTraceShape(body);
    assert.equal(body.verdict, 'outside');
    assert.equal(body.code, 'ERR_OUTSIDE');
    assert.equal(body.stage, 'containment');
    assert.deepEqual(
      stages.map((row) => row.stage),
      [...STAGE_NAMES],
    );
    assert.equal(stageRow(stages, 'containment').status, 'refuse');
    assert.equal(body.path, HOST === 'win32' ? body.path : '/srv/private.md');
  });

  test('human table: every stage, the deciding row marked with ">", no colour when piped', () => {
    const result = run(args);
    assert.equal(result.status, 3);
    assert.equal(result.stderr, '');
    assert.ok(!result.stdout.includes(ESC), 'no ANSI escape when stdout is not a terminal');
    const lines = result.stdout.split('\n');
    for (const name of STAGE_NAMES) {
      assert.ok(
        lines.some((line) => new RegExp(`^[> ] ${name}\\s`).test(line)),
        `a row for stage ${name}:\n${result.stdout}`,
      );
    }
    const marked = lines.filter((line) => line.startsWith('>'));
    assert.equal(marked.length, 1, `exactly one deciding row:\n${result.stdout}`);
    assert.match(marked[0]!, /^> containment\s/);
    assert.ok(!result.stdout.trimStart().startsWith('{'), 'not JSON without --json');
  });
});

describe('trace: verdicts', () => {
  test('a path inside the root exits 0 with verdict inside and code null', () => {
    const { status, body } = runJson(['trace', 'file:///srv/ws/docs/readme.md', '--root', 'file:///srv/ws']);
    assert.equal(status, 0);
    const stages = assertTraceShape(body);
    assert.equal(body.verdict, 'inside');
    assert.equal(body.code, null);
    assert.equal(body.stage, 'containment');
    assert.deepEqual(
      stages.map((row) => row.stage),
      EVERY_STAGE,
    );
    if (HOST !== 'win32') assert.equal(body.path, '/srv/ws/docs/readme.md');
  });

  test('a plain path inside a plain-path root exits 0', () => {
    const { status, body } = runJson(['trace', '/srv/ws/a.md', '--root', '/srv/ws', '--platform', 'linux']);
    assert.equal(status, 0);
    assertTraceShape(body);
    assert.equal(body.verdict, 'inside');
  });

  test('a request refused at refusals: verdict refused, exit 3, the deciding row marked', () => {
    const { status, body } = runJson(['trace', 'file:///srv/ws/a?x=1', '--root', 'file:///srv/ws']);
    assert.equal(status, 3);
    assertTraceShape(body);
    assert.equal(body.verdict, 'refused');
    assert.equal(body.code, 'ERR_QUERY_OR_FRAGMENT');
    assert.equal(body.stage, 'refusals');

    const table = run(['trace', 'file:///srv/ws/a?x=1', '--root', 'file:///srv/ws']);
    assert.equal(table.status, 3);
    const marked = table.stdout.split('\n').filter((line) => line.startsWith('>'));
    assert.equal(marked.length, 1, table.stdout);
    assert.match(marked[0]!, /^> refusals\s/);
  });

  test('a localhost request is refused (ERR_HOST) and accepted with --allow-localhost', () => {
    const refused = runJson(['trace', 'file://localhost/srv/ws/a.md', '--root', 'file:///srv/ws']);
    assert.equal(refused.status, 3);
    assert.equal(refused.body.verdict, 'refused');
    assert.equal(refused.body.code, 'ERR_HOST');
    assert.equal(refused.body.stage, 'refusals');

    const allowed = runJson(['trace', 'file://localhost/srv/ws/a.md', '--root', 'file:///srv/ws', '--allow-localhost']);
    assert.equal(allowed.status, 0);
    assert.equal(allowed.body.verdict, 'inside');
  });
});

describe('trace: a refused root', () => {
  test('https root: verdict refused, stage root, ERR_SCHEME, exit 3', () => {
    const { status, body } = runJson(['trace', '/srv/ws/a.md', '--root', 'https://example.com/ws']);
    assert.equal(status, 3);
    assertTraceShape(body);
    assert.equal(body.verdict, 'refused');
    assert.equal(body.stage, 'root');
    assert.equal(body.code, 'ERR_SCHEME');
  });

  test('localhost root: verdict refused, stage root, ERR_HOST; accepted with --allow-localhost', () => {
    const refused = runJson(['trace', '/srv/ws/a.md', '--root', 'file://localhost/srv/ws']);
    assert.equal(refused.status, 3);
    assert.equal(refused.body.verdict, 'refused');
    assert.equal(refused.body.stage, 'root');
    assert.equal(refused.body.code, 'ERR_HOST');

    const allowed = runJson(['trace', '/srv/ws/a.md', '--root', 'file://localhost/srv/ws', '--allow-localhost']);
    assert.equal(allowed.status, 0);
    assert.equal(allowed.body.verdict, 'inside');
  });

  test('UNC root on win32: refused at root with ERR_UNC; inside with --allow-unc', () => {
    const refused = runJson(['trace', 'file://build-01/shared/app/x.txt', '--root', 'file://build-01/shared/app', '--platform', 'win32']);
    assert.equal(refused.status, 3);
    assert.equal(refused.body.verdict, 'refused');
    assert.equal(refused.body.stage, 'root');
    assert.equal(refused.body.code, 'ERR_UNC');

    const allowed = runJson([
      'trace', 'file://build-01/shared/app/x.txt', '--root', 'file://build-01/shared/app', '--platform', 'win32', '--allow-unc',
    ]);
    assert.equal(allowed.status, 0);
    assert.equal(allowed.body.verdict, 'inside');
    assert.equal(allowed.body.path, '\\\\build-01\\shared\\app\\x.txt');
  });

  test('human table for a refused root: a deciding row marked with ">", verdict shown', () => {
    const result = run(['trace', '/srv/ws/a.md', '--root', 'https://example.com/ws']);
    assert.equal(result.status, 3);
    assert.equal(result.stderr, '');
    const marked = result.stdout.split('\n').filter((line) => line.startsWith('>'));
    assert.equal(marked.length, 1, result.stdout);
    assert.ok(result.stdout.includes('ERR_SCHEME'), result.stdout);
    assert.ok(!result.stdout.includes(ESC));
  });
});

describe('root: conversions', () => {
  test('plain file URI', () => {
    const { status, stderr, body } = runJson(['root', 'file:///srv/ws', '--platform', 'linux']);
    assert.equal(status, 0);
    assert.equal(stderr, '');
    assert.deepEqual(body, { ok: true, path: '/srv/ws' });
  });

  test('%20 decodes to a space', () => {
    const { status, body } = runJson(['root', 'file:///srv/my%20ws', '--platform', 'linux']);
    assert.equal(status, 0);
    assert.deepEqual(body, { ok: true, path: '/srv/my ws' });
  });

  test('localhost is refused (ERR_HOST at refusals)', () => {
    const { status, body } = runJson(['root', 'file://localhost/srv/ws', '--platform', 'linux']);
    assert.equal(status, 3);
    assert.equal(body.ok, false);
    assert.equal(body.code, 'ERR_HOST');
    assert.equal(body.stage, 'refusals');
    assert.equal(typeof body.reason, 'string');
    assert.ok((body.reason as string).length > 0);
  });

  test('localhost is accepted with --allow-localhost', () => {
    const { status, body } = runJson(['root', 'file://localhost/srv/ws', '--platform', 'linux', '--allow-localhost']);
    assert.equal(status, 0);
    assert.deepEqual(body, { ok: true, path: '/srv/ws' });
  });

  test('https is refused (ERR_SCHEME)', () => {
    const { status, body } = runJson(['root', 'https://example.com/ws']);
    assert.equal(status, 3);
    assert.equal(body.ok, false);
    assert.equal(body.code, 'ERR_SCHEME');
    assert.equal(body.stage, 'refusals');
    assert.equal(typeof body.reason, 'string');
  });

  test('win32 drive letter with an encoded colon', () => {
    const { status, body } = runJson(['root', 'file:///c%3A/Users/dev/app', '--platform', 'win32']);
    assert.equal(status, 0);
    assert.deepEqual(body, { ok: true, path: 'C:\\Users\\dev\\app' });
  });

  test('UNC on win32 is refused (ERR_UNC) and accepted with --allow-unc', () => {
    const refused = runJson(['root', 'file://build-01/shared/app', '--platform', 'win32']);
    assert.equal(refused.status, 3);
    assert.equal(refused.body.ok, false);
    assert.equal(refused.body.code, 'ERR_UNC');
    assert.equal(refused.body.stage, 'refusals');

    const allowed = runJson(['root', 'file://build-01/shared/app', '--platform', 'win32', '--allow-unc']);
    assert.equal(allowed.status, 0);
    assert.deepEqual(allowed.body, { ok: true, path: '\\\\build-01\\shared\\app' });
  });

  test('without --json: a converted root exits 0 and prints the path; a refused one exits 3', () => {
    const converted = run(['root', 'file:///c%3A/Users/dev/app', '--platform', 'win32']);
    assert.equal(converted.status, 0);
    assert.equal(converted.stdout.trim(), 'C:\\Users\\dev\\app');

    const refused = run(['root', 'https://example.com/ws']);
    assert.equal(refused.status, 3);
    assert.ok(!refused.stdout.trimStart().startsWith('{'), 'not JSON without --json');
  });
});

describe('--platform', () => {
  test('defaults to the host: the realpath stage consults the filesystem', () => {
    const { body } = runJson(['trace', 'file:///srv/ws/a.md', '--root', 'file:///srv/ws']);
    const stages = assertTraceShape(body);
    if ('platform' in body) assert.equal(body.platform, HOST);
    assert.notEqual(stageRow(stages, 'realpath').status, 'skip');
    assert.ok(!stageRow(stages, 'realpath').note.includes('simulated'));
  });

  test(`another platform (${OTHER}) is simulated: realpath skipped, note says "simulated"`, () => {
    const input = OTHER === 'win32' ? 'file:///C:/ws/a.txt' : 'file:///srv/ws/a.txt';
    const root = OTHER === 'win32' ? 'file:///c%3A/ws' : 'file:///srv/ws';
    const { status, body } = runJson(['trace', input, '--root', root, '--platform', OTHER]);
    assert.equal(status, 0);
    const stages = assertTraceShape(body);
    assert.equal(body.verdict, 'inside');
    const realpath = stageRow(stages, 'realpath');
    assert.equal(realpath.status, 'skip');
    assert.ok(realpath.note.includes('simulated'), `realpath note: ${realpath.note}`);
  });

  test('--platform win32 (simulated on a non-Windows host): a drive-letter URI converts', { skip: HOST === 'win32' }, () => {
    const { status, body } = runJson(['trace', 'file:///C:/ws/a.txt', '--root', 'file:///c%3A/ws', '--platform', 'win32']);
    assert.equal(status, 0);
    const stages = assertTraceShape(body);
    assert.equal(body.verdict, 'inside');
    assert.equal(body.path, 'C:\\ws\\a.txt');
    assert.equal(stageRow(stages, 'realpath').status, 'skip');
    assert.ok(stageRow(stages, 'realpath').note.includes('simulated'));
    assert.equal(stageRow(stages, 'normalise').output, 'C:\\ws\\a.txt');
  });

  test('--platform darwin (simulated on a non-macOS host): realpath skipped', { skip: HOST === 'darwin' }, () => {
    const { body } = runJson(['trace', '/Users/dev/app/x', '--root', '/Users/dev/app', '--platform', 'darwin']);
    const stages = assertTraceShape(body);
    assert.equal(stageRow(stages, 'realpath').status, 'skip');
    assert.ok(stageRow(stages, 'realpath').note.includes('simulated'));
  });

  test('the human table says the platform is simulated', { skip: HOST === 'win32' }, () => {
    const result = run(['trace', 'file:///C:/ws/a.txt', '--root', 'file:///c%3A/ws', '--platform', 'win32']);
    assert.equal(result.status, 0);
    assert.ok(result.stdout.includes('simulated'), result.stdout);
    const marked = result.stdout.split('\n').filter((line) => line.startsWith('>'));
    assert.equal(marked.length, 1, result.stdout);
    assert.match(marked[0]!, /^> containment\s/);
  });
});

describe('case policy', () => {
  const mixed = '/Users/Dev/App/x';
  const lower = '/users/dev/app';
  const cafeNfc = 'caf\u00e9';
  const cafeNfd = 'cafe\u0301';

  test('--platform darwin folds case by default: inside', { skip: HOST === 'darwin' }, () => {
    const { status, body } = runJson(['trace', mixed, '--root', lower, '--platform', 'darwin']);
    assert.equal(status, 0);
    assert.equal(body.verdict, 'inside');
  });

  test('--platform darwin folds Unicode normalisation by default: NFD inside an NFC root', { skip: HOST === 'darwin' }, () => {
    const { status, body } = runJson(['trace', `/Users/dev/${cafeNfd}/x`, '--root', `/Users/dev/${cafeNfc}`, '--platform', 'darwin']);
    assert.equal(status, 0);
    assert.equal(body.verdict, 'inside');
  });

  test('--platform darwin --case sensitive: case no longer folded, outside', () => {
    const { status, body } = runJson(['trace', mixed, '--root', lower, '--platform', 'darwin', '--case', 'sensitive']);
    assert.equal(status, 3);
    assert.equal(body.verdict, 'outside');
    assert.equal(body.code, 'ERR_OUTSIDE');
    assert.equal(body.stage, 'containment');
  });

  test('--platform linux --case sensitive: outside', () => {
    const { status, body } = runJson(['trace', mixed, '--root', lower, '--platform', 'linux', '--case', 'sensitive']);
    assert.equal(status, 3);
    assert.equal(body.verdict, 'outside');
    assert.equal(body.code, 'ERR_OUTSIDE');
  });

  test('--platform linux (simulated on a non-Linux host) folds nothing by default: outside', { skip: HOST === 'linux' }, () => {
    const { status, body } = runJson(['trace', mixed, '--root', lower, '--platform', 'linux']);
    assert.equal(status, 3);
    assert.equal(body.verdict, 'outside');
  });

  test('--platform linux --case insensitive: case folded, inside', () => {
    const { status, body } = runJson(['trace', mixed, '--root', lower, '--platform', 'linux', '--case', 'insensitive']);
    assert.equal(status, 0);
    assert.equal(body.verdict, 'inside');
  });

  test('--platform linux --case insensitive does not fold Unicode normalisation: outside', () => {
    const { status, body } = runJson([
      'trace', `/srv/${cafeNfd}/x`, '--root', `/srv/${cafeNfc}`, '--platform', 'linux', '--case', 'insensitive',
    ]);
    assert.equal(status, 3);
    assert.equal(body.verdict, 'outside');
  });

  test('--platform win32 folds case by default: inside; --case sensitive: outside', () => {
    const folded = runJson(['trace', 'C:\\Users\\Dev\\App\\x', '--root', 'file:///c%3A/users/dev/app', '--platform', 'win32']);
    assert.equal(folded.status, 0);
    assert.equal(folded.body.verdict, 'inside');

    const strict = runJson([
      'trace', 'C:\\Users\\Dev\\App\\x', '--root', 'file:///c%3A/users/dev/app', '--platform', 'win32', '--case', 'sensitive',
    ]);
    assert.equal(strict.status, 3);
    assert.equal(strict.body.verdict, 'outside');
  });

  test('a bad --case value is a usage error', () => {
    assertUsageError(run(['trace', mixed, '--root', lower, '--case', 'weird']), '--case');
  });
});

describe('--symlinks against a real directory', () => {
  let dir = '';
  let ws = '';
  let canLink = true;

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-cli-')));
    ws = path.join(dir, 'ws');
    fs.mkdirSync(path.join(ws, 'real'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'real', 'f.txt'), 'inside\n');
    fs.mkdirSync(path.join(dir, 'out'));
    fs.writeFileSync(path.join(dir, 'out', 'secret.txt'), 'outside\n');
    try {
      fs.symlinkSync('real', path.join(ws, 'link'), 'dir');
      fs.symlinkSync(path.join('..', 'out'), path.join(ws, 'esc'), 'dir');
    } catch {
      canLink = false;
    }
  });

  after(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test('contain (default): a link below the root that lands inside is followed, exit 0', (t) => {
    if (!canLink) return t.skip('cannot create symlinks here');
    const { status, body } = runJson(['trace', path.join(ws, 'link', 'f.txt'), '--root', ws]);
    assert.equal(status, 0);
    const stages = assertTraceShape(body);
    assert.equal(body.verdict, 'inside');
    assert.equal(body.path, path.join(ws, 'real', 'f.txt'));
    assert.notEqual(stageRow(stages, 'realpath').status, 'skip');
  });

  test('--symlinks contain explicitly: same verdict', (t) => {
    if (!canLink) return t.skip('cannot create symlinks here');
    const { status, body } = runJson(['trace', path.join(ws, 'link', 'f.txt'), '--root', ws, '--symlinks', 'contain']);
    assert.equal(status, 0);
    assert.equal(body.verdict, 'inside');
  });

  test('--symlinks refuse: any link below the root is refused (ERR_SYMLINK_REFUSED at realpath), exit 3', (t) => {
    if (!canLink) return t.skip('cannot create symlinks here');
    const { status, body } = runJson(['trace', path.join(ws, 'link', 'f.txt'), '--root', ws, '--symlinks', 'refuse']);
    assert.equal(status, 3);
    assertTraceShape(body);
    assert.equal(body.verdict, 'refused');
    assert.equal(body.code, 'ERR_SYMLINK_REFUSED');
    assert.equal(body.stage, 'realpath');
  });

  test('--symlinks refuse with a file: URI request and root', (t) => {
    if (!canLink) return t.skip('cannot create symlinks here');
    const input = pathToFileURL(path.join(ws, 'link', 'f.txt')).href;
    const root = pathToFileURL(ws).href;
    const { status, body } = runJson(['trace', input, '--root', root, '--symlinks', 'refuse']);
    assert.equal(status, 3);
    assert.equal(body.code, 'ERR_SYMLINK_REFUSED');
  });

  test('--symlinks refuse: a path with no link is still inside', (t) => {
    if (!canLink) return t.skip('cannot create symlinks here');
    const { status, body } = runJson(['trace', path.join(ws, 'real', 'f.txt'), '--root', ws, '--symlinks', 'refuse']);
    assert.equal(status, 0);
    assert.equal(body.verdict, 'inside');
  });

  test('contain: a link whose chain lands outside is an escape (outside, ERR_SYMLINK_ESCAPE), exit 3', (t) => {
    if (!canLink) return t.skip('cannot create symlinks here');
    const { status, body } = runJson(['trace', path.join(ws, 'esc', 'secret.txt'), '--root', ws]);
    assert.equal(status, 3);
    assertTraceShape(body);
    assert.equal(body.verdict, 'outside');
    assert.equal(body.code, 'ERR_SYMLINK_ESCAPE');
    assert.equal(body.stage, 'realpath');
    // The path asked for: where the chain goes outside is never looked up.
    assert.equal(body.path, path.join(ws, 'esc', 'secret.txt'));
    assert.deepEqual((body.links as { link: string }[]).map((hop) => hop.link), [path.join(ws, 'esc')]);
  });

  test('a bad --symlinks value is a usage error', () => {
    assertUsageError(run(['trace', '/srv/ws/a', '--root', '/srv/ws', '--symlinks', 'weird']), '--symlinks');
  });
});

describe('trace: near misses ("Did you mean")', () => {
  let dir = '';
  let ws = '';
  const uri = (...names: string[]) => pathToFileURL(path.join(dir, ...names)).href;

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-cli-near-')));
    ws = path.join(dir, 'ws');
    fs.mkdirSync(path.join(ws, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'docs', 'README.md'), 'inside\n');
    fs.writeFileSync(path.join(ws, 'a#b.txt'), 'inside\n');
    fs.mkdirSync(path.join(dir, 'outside'));
    fs.writeFileSync(path.join(dir, 'outside', 'secret'), 'outside\n');
  });

  after(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test('--json: a case twin of a missing name, with its path, URI and why', { skip: HOST !== 'linux' && 'needs a filesystem that keeps case apart' }, () => {
    const { status, body } = runJson(['trace', 'Docs/README.md', '--root', ws]);
    assert.equal(status, 0);
    assertTraceShape(body);
    assert.equal(body.kind, 'missing');
    assert.deepEqual(body.nearMisses, [{ path: path.join(ws, 'docs', 'README.md'), uri: uri('ws', 'docs', 'README.md'), why: 'case' }]);
  });

  test('text: a "Did you mean" section lists each near miss with its why and URI', { skip: HOST !== 'linux' && 'needs a filesystem that keeps case apart' }, () => {
    const result = run(['trace', 'Docs/README.md', '--root', ws]);
    assert.equal(result.status, 0);
    const lines = result.stdout.split('\n');
    const heading = lines.indexOf('Did you mean:');
    assert.ok(heading > 0, result.stdout);
    assert.equal(lines[heading + 1], `  case  ${uri('ws', 'docs', 'README.md')}`);
  });

  test('a name in the other Unicode form: the line names the code points that differ', { skip: HOST !== 'linux' && 'needs a filesystem that keeps NFC and NFD apart' }, () => {
    fs.mkdirSync(path.join(ws, 'cafe\u0301'));
    fs.writeFileSync(path.join(ws, 'cafe\u0301', 'menu.md'), 'menu\n');
    const lines = run(['trace', 'caf\u00e9/menu.md', '--root', ws]).stdout.split('\n');
    assert.equal(
      lines[lines.indexOf('Did you mean:') + 1],
      `  unicode  ${uri('ws', 'cafe\u0301', 'menu.md')}  ("e\u0301" (U+0065 U+0301) here, "\u00e9" (U+00E9) in the input)`,
    );
  });

  test('a fragment that cut a name: refused, and the encoded spelling offered', () => {
    const input = `${uri('ws')}/a#b.txt`;
    const { status, body } = runJson(['trace', input, '--root', ws]);
    assert.equal(status, 3);
    assert.equal(body.code, 'ERR_QUERY_OR_FRAGMENT');
    assert.deepEqual(body.nearMisses, [{ path: path.join(ws, 'a#b.txt'), uri: uri('ws', 'a#b.txt'), why: 'percent-encoding' }]);
    const lines = run(['trace', input, '--root', ws]).stdout.split('\n');
    assert.equal(lines[lines.indexOf('Did you mean:') + 1], `  percent-encoding  ${uri('ws', 'a#b.txt')}`);
  });

  test('inside and existing, outside, or simulated: none, and no section', () => {
    for (const args of [
      ['trace', 'docs/README.md', '--root', ws],
      ['trace', '../outside/Secret', '--root', ws],
      ['trace', 'Docs/README.md', '--root', ws, '--platform', OTHER],
    ]) {
      const { body } = runJson(args);
      assert.deepEqual(body.nearMisses, [], args.join(' '));
      assert.ok(!run(args).stdout.includes('Did you mean'), args.join(' '));
    }
  });
});

/**
 * What a terminal must never be handed raw: controls other than the line feed the report ends
 * its own lines with, format characters (bidi controls, zero-width ones), line and paragraph
 * separators. Written here on its own, apart from the CLI's escaping, as the attacker sees it.
 */
const DRIVES_TERMINAL = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function assertNothingDrivesTerminal(result: Run, what: string): void {
  for (const [stream, text] of [['stdout', result.stdout], ['stderr', result.stderr]] as const) {
    const found = DRIVES_TERMINAL.exec(text);
    assert.equal(found, null, `${what}: ${stream} holds U+${found?.[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} raw:\n${JSON.stringify(text)}`);
  }
}

/** The lines that begin with `verdict`: a report draws exactly one. */
function verdictLines(text: string): string[] {
  return text.split('\n').filter((line) => line.startsWith('verdict'));
}

describe('a report must not drive the terminal: text from the disk or the input is escaped', () => {
  let dir = '';
  let ws = '';
  let canLink = true;
  // Erases the real realpath row, draws a fake one and a fake verdict, then conceals the rest (SGR 8).
  const forged =
    '/root/.ssh/id_rsa\u001b[2K\u001b[1A\u001b[2K\r' +
    '\n> containment  pass    inside\n\nverdict INSIDE (at containment)\nreason  it is inside the workspace\u001b[8m';

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-cli-forge-')));
    ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    try {
      fs.symlinkSync(forged, path.join(ws, 'notes.md'));
    } catch {
      canLink = false;
    }
  });

  after(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test("trace of a link whose target draws a fake verdict: escaped, and the one verdict line is the true one", (t) => {
    if (!canLink) return t.skip('cannot create symlinks here');
    const result = run(['trace', 'notes.md', '--root', ws]);
    assert.equal(result.status, 3);
    assertNothingDrivesTerminal(result, 'trace');
    assert.deepEqual(verdictLines(result.stdout), ['verdict OUTSIDE (ERR_SYMLINK_ESCAPE at realpath)'], result.stdout);
    // The target is still shown, escaped, where it was.
    assert.ok(result.stdout.includes('/root/.ssh/id_rsa\\u001b[2K'), result.stdout);
    // --json keeps the real text, and stays one line a terminal cannot be driven by.
    const json = run(['trace', 'notes.md', '--root', ws, '--json']);
    assertNothingDrivesTerminal(json, 'trace --json');
    const body = JSON.parse(json.stdout) as { verdict: string; links: { target: string }[] };
    assert.equal(body.verdict, 'outside');
    assert.equal(body.links[0]!.target, forged);
  });

  test('trace of a file: URI whose escapes decode to ESC, CR, LF and U+202E: escaped at every stage after decode', () => {
    const input = `${pathToFileURL(dir).href}/etc/passwd%0d%0averdict%20INSIDE%20(at%20containment)%1b%5b8m%e2%80%ae`;
    const result = run(['trace', input, '--root', ws]);
    assert.equal(result.status, 3);
    assertNothingDrivesTerminal(result, 'trace');
    assert.deepEqual(verdictLines(result.stdout), ['verdict OUTSIDE (ERR_OUTSIDE at containment)'], result.stdout);
    assert.ok(result.stdout.includes('\\u000d\\u000averdict INSIDE'), result.stdout);
    assert.ok(result.stdout.includes('\\u001b[8m\\u202e'), result.stdout);
    const json = run(['trace', input, '--root', ws, '--json']);
    assertNothingDrivesTerminal(json, 'trace --json');
    assert.equal((JSON.parse(json.stdout) as { path: string }).path, path.join(dir, 'etc', 'passwd\r\nverdict INSIDE (at containment)\u001b[8m\u202e'));
  });

  test('root: a converted path holding decoded controls is escaped; --json keeps it exact', () => {
    const uri = 'file:///srv/ws%1b%5b2J%e2%80%ae%e2%80%8b';
    const result = run(['root', uri, '--platform', 'linux']);
    assert.equal(result.status, 0);
    assertNothingDrivesTerminal(result, 'root');
    assert.equal(result.stdout, '/srv/ws\\u001b[2J\\u202e\\u200b\n');
    const json = run(['root', uri, '--platform', 'linux', '--json']);
    assertNothingDrivesTerminal(json, 'root --json');
    assert.equal((JSON.parse(json.stdout) as { path: string }).path, '/srv/ws\u001b[2J\u202e\u200b');
  });

  test('usage errors that echo an argument escape it', () => {
    for (const args of [
      ['\u001b[2J\u202ecommand'],
      ['trace', 'a', '--root', ws, '--\u001b[8mbogus'],
      ['trace', 'a', '--root', ws, '--platform', 'plan9\u001b[8m\u2028'],
      ['audit', '--root', `${ws}/missing\u001b[2K\r\u202e`],
    ]) {
      const result = run(args);
      assertUsageError(result);
      assertNothingDrivesTerminal(result, args.join(' '));
    }
  });

  test('a 2,000-character name: ERR_NAME_TOO_LONG, each line cuts it to its ends; --json has it whole', () => {
    const name = 'n'.repeat(2000);
    const result = run(['trace', name, '--root', ws]);
    assert.equal(result.status, 3);
    assert.deepEqual(verdictLines(result.stdout), ['verdict REFUSED (ERR_NAME_TOO_LONG at realpath)'], result.stdout);
    const longest = Math.max(...result.stdout.split('\n').map((line) => line.length));
    assert.ok(longest < 400, `the longest line has ${longest} characters`);
    assert.ok(result.stdout.includes(`${'n'.repeat(40)}…(1,920 characters)…${'n'.repeat(40)}`), result.stdout);
    const body = JSON.parse(run(['trace', name, '--root', ws, '--json']).stdout) as { input: unknown; path: string };
    assert.equal(body.path, path.join(ws, name));
  });

  test("serve's start-up errors that echo a path escape it", () => {
    const result = run(['serve', '--workspace', `${ws}/missing\u001b[2K\r\u202e`, '--sandbox', 'off']);
    assert.equal(result.status, 2, result.stderr);
    assertNothingDrivesTerminal(result, 'serve');
    assert.ok(result.stderr.includes('missing\\u001b[2K\\u000d\\u202e'), result.stderr);
  });
});

describe('colour', () => {
  const sample = () => trace('file:///srv/ws/%2e%2e/private.md', 'file:///srv/ws', { platform: 'linux' });

  test('renderTrace: {color:true} has ANSI escapes, {color:false} has none', () => {
    const result = sample();
    const coloured = renderTrace(result, { color: true });
    const plain = renderTrace(result, { color: false });
    assert.ok(coloured.includes(ESC), 'colour on');
    assert.ok(!plain.includes(ESC), 'colour off');
    // Same text once the escapes are stripped.
    assert.equal(coloured.replace(/\u001b\[[0-9;]*m/g, ''), plain);
    for (const name of STAGE_NAMES) assert.ok(plain.includes(name), `table names ${name}`);
    assert.ok(plain.split('\n').some((line) => /^> containment\s/.test(line)));
  });

  test('piped stdout has no ANSI escapes (even with NO_COLOR unset)', () => {
    const result = run(['trace', '/srv/ws/a.md', '--root', '/srv/ws'], plainEnv());
    assert.equal(result.status, 0);
    assert.ok(!result.stdout.includes(ESC), result.stdout);
  });

  /** An in-memory stdout that can claim to be a terminal. */
  class Sink extends Writable {
    text = '';
    constructor(readonly isTTY: boolean) {
      super();
    }
    override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
      this.text += chunk.toString();
      done();
    }
  }

  function runMain(isTTY: boolean, env: NodeJS.ProcessEnv) {
    const stdout = new Sink(isTTY);
    const stderr = new Sink(false);
    const status = main(['trace', 'file:///srv/ws/a.md', '--root', 'file:///srv/ws', '--platform', 'linux'], {
      stdout,
      stderr,
      env,
    });
    return { status, stdout: stdout.text, stderr: stderr.text };
  }

  test('main(): colour when stdout is a terminal and NO_COLOR is unset', () => {
    const result = runMain(true, {});
    assert.equal(result.status, 0);
    assert.ok(result.stdout.includes(ESC), result.stdout);
  });

  test('main(): no colour on a terminal when NO_COLOR is set', () => {
    const result = runMain(true, { NO_COLOR: '1' });
    assert.equal(result.status, 0);
    assert.ok(!result.stdout.includes(ESC), result.stdout);
  });

  test('main(): no colour when stdout is not a terminal', () => {
    const result = runMain(false, {});
    assert.ok(!result.stdout.includes(ESC), result.stdout);
  });

  // A real pseudo-terminal through util-linux `script`, where it is available.
  const haveScript = process.platform === 'linux' && spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  const underPty = (env: NodeJS.ProcessEnv) => {
    const command = `'${process.execPath}' '${cliPath}' trace /srv/ws/a.md --root /srv/ws`;
    return spawnSync('script', ['-qec', command, '/dev/null'], { cwd: repoRoot, encoding: 'utf8', env });
  };

  test('under a real pseudo-terminal: colour, unless NO_COLOR is set', { skip: !haveScript && 'util-linux script not available' }, () => {
    const coloured = underPty(plainEnv());
    assert.equal(coloured.status, 0, coloured.stderr);
    assert.ok(coloured.stdout.includes(ESC), coloured.stdout);

    const plain = underPty(plainEnv({ NO_COLOR: '1' }));
    assert.equal(plain.status, 0, plain.stderr);
    assert.ok(!plain.stdout.includes(ESC), plain.stdout);
  });
});

describe('help and version', () => {
  for (const args of [['--help'], ['-h'], ['root', '--help'], ['root', '-h'], ['trace', '--help'], ['trace', '-h']]) {
    test(`${args.join(' ')}: exit 0, usage on stdout`, () => {
      const result = run(args);
      assert.equal(result.status, 0);
      assert.ok(result.stdout.includes('Usage'), result.stdout);
      assert.equal(result.stderr, '');
    });
  }

  test('command help names the command and its options', () => {
    const rootHelp = run(['root', '--help']).stdout;
    assert.ok(rootHelp.includes('root'));
    for (const flag of ['--platform', '--allow-localhost', '--allow-unc', '--json']) assert.ok(rootHelp.includes(flag), flag);
    const traceHelp = run(['trace', '--help']).stdout;
    for (const flag of ['--root', '--platform', '--case', '--symlinks', '--allow-localhost', '--allow-unc', '--json']) {
      assert.ok(traceHelp.includes(flag), flag);
    }
  });

  test('trace --help needs no --root and no input', () => {
    const result = run(['trace', '--help']);
    assert.equal(result.status, 0);
  });

  test("--version prints package.json's version", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const result = run(['--version']);
    assert.equal(result.status, 0);
    assert.equal(result.stdout.trim(), version);
    assert.equal(result.stderr, '');
  });
});

describe('usage errors: exit 2, message on stderr, nothing on stdout', () => {
  test('unknown flag on trace', () => {
    assertUsageError(run(['trace', '/srv/ws/a', '--root', '/srv/ws', '--bogus']), '--bogus');
  });

  test('unknown flag on root', () => {
    assertUsageError(run(['root', 'file:///srv/ws', '--frobnicate']), '--frobnicate');
  });

  test('unknown flag with --json still prints nothing on stdout', () => {
    assertUsageError(run(['trace', '/srv/ws/a', '--root', '/srv/ws', '--json', '--bogus']), '--bogus');
  });

  test('unknown top-level flag', () => {
    assertUsageError(run(['--bogus']), '--bogus');
  });

  test('bad --platform value on trace', () => {
    assertUsageError(run(['trace', '/srv/ws/a', '--root', '/srv/ws', '--platform', 'plan9']), 'plan9');
  });

  test('bad --platform value on root', () => {
    assertUsageError(run(['root', 'file:///srv/ws', '--platform', 'plan9', '--json']), 'plan9');
  });

  test('missing --root', () => {
    assertUsageError(run(['trace', '/srv/ws/a', '--json']), '--root');
  });

  test('--root without its value', () => {
    assertUsageError(run(['trace', '/srv/ws/a', '--root']));
  });

  test('missing input on trace', () => {
    assertUsageError(run(['trace', '--root', '/srv/ws', '--json']));
  });

  test('missing uri on root', () => {
    assertUsageError(run(['root', '--json']));
  });

  test('unknown command', () => {
    assertUsageError(run(['frobnicate']), 'frobnicate');
  });

  test('no command: usage on stderr', () => {
    const result = run([]);
    assertUsageError(result, 'Usage');
  });
});
