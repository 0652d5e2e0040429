// The server-filesystem decider against the reference server: on every recorded case, on the
// fixture the recording used, it decides as the server did (with its message and its allowed
// directories); on the same cases and on a table of our own (Windows, home, link and prefix
// forms), it decides as the package's own validatePath does, run in a child process per setting
// of the allowed directories (the package keeps them in a module-level variable); each refusal
// offers a fix that works on the real validatePath too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { DECIDERS, type DeciderContext, type DeciderVerdict } from '../../src/deciders/index.js';
import { nodeDeciderFileSystem } from '../../src/host/node.js';
import { link, type Tree } from '../server/table.js';
import { CASES, NFC, NFD, type DeciderCase } from './cases.js';
import { DEFAULT_SCRATCH, makeCaseFixture, removeFixture, type CaseFixture } from './fixture.js';
import { executableOf } from './programs.js';
import { readRecording } from './recording.js';
import { classifyReference } from './run/serverFilesystem.js';
import { fakeWin32Fs } from '../core/fakeWin32Fs.js';

const decider = DECIDERS['server-filesystem']!;
const recording = readRecording();
const LIB = path.join(path.dirname(executableOf('server-filesystem')), 'lib.js');
const PATH_UTILS = path.join(path.dirname(executableOf('server-filesystem')), 'path-utils.js');

interface Real {
  readonly directories: readonly string[];
  readonly results: readonly ({ readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string })[];
}

/**
 * The package's own validatePath on `inputs`, in a child process started in `cwd` with HOME set,
 * after preparing `allowed` as its dist/index.js does at start-up (index.js starts the server on
 * import, so its few lines of preparation are repeated here with the package's own helpers).
 */
function realValidatePath(allowed: readonly string[], inputs: readonly string[], cwd: string, home: string): Real {
  const script = `
    import fs from 'node:fs/promises';
    import path from 'node:path';
    import { setAllowedDirectories, validatePath } from ${JSON.stringify(LIB)};
    import { normalizePath, expandHome } from ${JSON.stringify(PATH_UTILS)};
    const { allowed, inputs } = JSON.parse(process.argv[1]);
    const prepared = (await Promise.all(allowed.map(async (dir) => {
      const absolute = path.resolve(expandHome(dir));
      const original = normalizePath(absolute);
      try {
        const resolved = normalizePath(await fs.realpath(absolute));
        return original !== resolved ? [original, resolved] : [resolved];
      } catch { return [original]; }
    }))).flat();
    const directories = [];
    for (const dir of prepared) { try { if ((await fs.stat(dir)).isDirectory()) directories.push(dir); } catch {} }
    setAllowedDirectories(directories);
    const results = [];
    for (const input of inputs) {
      try { results.push({ ok: true, path: await validatePath(input) }); }
      catch (error) { results.push({ ok: false, message: error.message }); }
    }
    process.stdout.write(JSON.stringify({ directories, results }));
  `;
  const ran = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify({ allowed, inputs })], { cwd, env: { PATH: process.env.PATH ?? '', HOME: home }, encoding: 'utf8' });
  assert.equal(ran.status, 0, ran.stderr);
  return JSON.parse(ran.stdout) as Real;
}

function contextOf(fx: CaseFixture, allowed: readonly string[], cwd = fx.cwd): DeciderContext {
  return { platform: 'linux', fs: nodeDeciderFileSystem, home: fx.home, cwd, addDirs: [], allowed, env: {} };
}

/** The real validatePath's answer as a decision, as the recording counts it. */
function realDecision(result: Real['results'][number]): 'allow' | 'deny' {
  return result.ok ? 'allow' : classifyReference(result.message, true).decision === 'deny' ? 'deny' : 'allow';
}

/** Every fix of a refusal, applied: a directory added to the command line, or the path sent instead. */
function checkFixes(verdict: DeciderVerdict, input: string, context: DeciderContext, fx: CaseFixture, what: string): void {
  assert.ok(verdict.fixes.length > 0, `${what}: a refusal offers a fix`);
  for (const fix of verdict.fixes) {
    const allowed = fix.flag === undefined ? context.allowed : [...context.allowed, fix.flag];
    const sent = fix.path ?? input;
    assert.equal(decider.decide(sent, verdict.tool, { ...context, allowed }).decision, 'allow', `${what}: the fix "${fix.text}" does not allow it in the model`);
    const real = realValidatePath(allowed, [sent], context.cwd, fx.home).results[0]!;
    assert.equal(realDecision(real), 'allow', `${what}: the fix "${fix.text}" does not allow it on the real server: ${JSON.stringify(real)}`);
  }
}

const referenceCases = CASES.filter((c) => c.tools['server-filesystem'] !== undefined);

describe('server-filesystem: every recorded case', { skip: (process.platform !== 'linux' && 'recorded on Linux') || (!recording && 'nothing recorded') }, () => {
  const fixtures: CaseFixture[] = [];
  after(() => fixtures.forEach(removeFixture));
  let agreed = 0;
  after(() => console.log(`server-filesystem: ${agreed} of ${referenceCases.length} recorded cases agree`));

  test('the table has the 54 recorded cases', () => assert.equal(referenceCases.length, 54));

  for (const c of referenceCases) {
    for (const tool of c.tools['server-filesystem']!) {
      test(`${c.name} (${tool})`, () => {
        const seen = recording!.cases[c.name]!['server-filesystem']![tool]!;
        const fx = makeCaseFixture(DEFAULT_SCRATCH, c, 'server-filesystem');
        fixtures.push(fx);
        const allowed = (c.allowed ?? ['{base}/ws']).map(fx.expand);
        const context = contextOf(fx, allowed);
        const input = fx.expand(c.input);
        const verdict = decider.decide(input, tool, context);
        assert.equal(verdict.decision, seen.decision, `${c.name}: ${seen.message}`);
        assert.equal(verdict.tool, tool);
        // The directories the server kept at start-up, as it logged them.
        const directories = (seen.detail?.allowedDirectories as string[] | undefined)?.map(fx.expand);
        if (directories) assert.equal(verdict.stages[0]!.output, directories.join(', '));
        // A refusal in the server's own words.
        if (seen.decision === 'deny') assert.equal(fx.unexpand(verdict.rule.text), seen.message);
        // The real validatePath, on the same fixture.
        const real = realValidatePath(allowed, [input], fx.cwd, fx.home);
        assert.deepEqual(real.directories, directories ?? real.directories);
        assert.equal(realDecision(real.results[0]!), verdict.decision, JSON.stringify(real.results[0]));
        if (real.results[0]!.ok) assert.equal(verdict.path, real.results[0]!.path);
        if (verdict.decision === 'deny') checkFixes(verdict, input, context, fx, c.name);
        agreed++;
      });
    }
  }
});

/** A row of our own: the tree added to the base one, the allowed directories, the input. */
interface Row {
  readonly name: string;
  readonly input: string;
  readonly allowed: readonly string[];
  readonly tree?: Tree;
  /** The server's working folder, relative to {base}; ws by default. */
  readonly cwd?: string;
  readonly tool?: string;
}

const ROWS: readonly Row[] = [
  // Windows forms on a POSIX host.
  { name: 'drive letter, forward slashes', input: 'C:/Users/dev/a.txt', allowed: ['{base}/ws'] },
  { name: 'bare drive', input: 'c:', allowed: ['{base}/ws'] },
  { name: 'drive-relative', input: 'C:a.txt', allowed: ['{base}/ws'] },
  { name: 'UNC path: a relative name on POSIX', input: '\\\\server\\share\\a.txt', allowed: ['{base}/ws'] },
  { name: 'Git Bash drive form /c/: left alone on POSIX', input: '/c/Users/a.txt', allowed: ['{base}/ws'] },
  { name: 'WSL mount path', input: '/mnt/c/Users/a.txt', allowed: ['{base}/ws'] },
  { name: 'backslash .. is a name on POSIX', input: '{base}/ws/..\\outside\\secret.txt', allowed: ['{base}/ws'] },
  { name: 'file URI: a relative name', input: 'file://{base}/ws/a.txt', allowed: ['{base}/ws'] },
  // Home.
  { name: 'tilde alone, home allowed', input: '~', allowed: ['~'] },
  { name: 'tilde path, home allowed by its path', input: '~/h.txt', allowed: ['{home}'] },
  { name: '~user is not expanded', input: '~root/h.txt', allowed: ['{base}/ws'] },
  { name: 'tilde then dot-dot out of home', input: '~/../outside/secret.txt', allowed: ['~'] },
  { name: 'allowed tilde without slash', input: '{home}/h.txt', allowed: ['~'] },
  // Links.
  { name: 'a link chain that leaves and comes back in', input: '{base}/ws/round/a.txt', allowed: ['{base}/ws'], tree: { 'ws/round': link('../outside/back-in') } },
  { name: 'a link to the allowed directory from outside, as allowed dir', input: '{base}/outside/back-in/a.txt', allowed: ['{base}/outside/back-in'] },
  { name: 'a new file below a link that leads out', input: '{base}/ws/escape/deeper/new.txt', allowed: ['{base}/ws'], tool: 'write_file' },
  { name: 'a link loop', input: '{base}/ws/loop', allowed: ['{base}/ws'], tree: { 'ws/loop': link('loop') } },
  { name: 'a name below a file', input: '{base}/ws/a.txt/new.txt', allowed: ['{base}/ws'], tool: 'write_file' },
  { name: 'an allowed directory that is a file', input: '{base}/ws/a.txt', allowed: ['{base}/ws/a.txt', '{base}/ws'] },
  { name: 'no accessible directory: the server exits', input: '{base}/ws/a.txt', allowed: ['{base}/missing'] },
  { name: 'allowed dir given with trailing /..', input: '{base}/outside/secret.txt', allowed: ['{base}/ws/..'] },
  // Prefixes.
  { name: 'sibling prefix through dot-dot', input: '{base}/ws/../ws-evil/secret.txt', allowed: ['{base}/ws'] },
  { name: 'sibling prefix, relative', input: '../ws-evil/secret.txt', allowed: ['{base}/ws'] },
  { name: 'the allowed directory with a trailing slash asked', input: '{base}/ws/', allowed: ['{base}/ws'] },
  { name: 'the allowed directory NFD, the path NFC', input: `{base}/${NFC}-dir/x.txt`, allowed: [`{base}/${NFD}-dir`], tree: { [`${NFD}-dir/x.txt`]: 'x' } },
  { name: 'a relative path into the second allowed directory that exists only there', input: 'notes.txt', allowed: ['{base}/extra', '{base}/ws'] },
  { name: 'single-quoted', input: "'{base}/ws/a.txt'", allowed: ['{base}/ws'] },
  { name: 'NUL in the path', input: '{base}/ws/a\u0000.txt', allowed: ['{base}/ws'] },
];

describe("server-filesystem: the package's own validatePath on a table of forms", { skip: process.platform !== 'linux' && 'the table is of POSIX hosts' }, () => {
  const fixtures: CaseFixture[] = [];
  after(() => fixtures.forEach(removeFixture));
  for (const row of ROWS) {
    test(row.name, () => {
      const c: DeciderCase = { name: `own-${row.name.replace(/\W+/g, '-')}`, input: row.input, tools: { 'server-filesystem': [] }, ...(row.tree ? { tree: row.tree } : {}), ...(row.cwd ? { cwd: row.cwd } : {}) };
      const fx = makeCaseFixture(DEFAULT_SCRATCH, c, 'server-filesystem');
      fixtures.push(fx);
      const allowed = row.allowed.map(fx.expand);
      const input = fx.expand(row.input);
      const context = contextOf(fx, allowed);
      const verdict = decider.decide(input, row.tool ?? 'read_text_file', context);
      const real = realValidatePath(allowed, [input], fx.cwd, fx.home);
      if (real.directories.length === 0) {
        assert.equal(verdict.decision, 'deny');
        return;
      }
      assert.equal(verdict.stages[0]!.output, real.directories.join(', '));
      const result = real.results[0]!;
      assert.equal(verdict.decision, realDecision(result), JSON.stringify(result));
      if (result.ok) assert.equal(verdict.path, result.path);
      else if (verdict.decision === 'deny') assert.equal(verdict.rule.text, result.message);
      else assert.ok(verdict.rule.text.endsWith(result.message), `${verdict.rule.text} / ${result.message}`);
      if (verdict.decision === 'deny' && verdict.fixes.some((fix) => fix.path !== undefined || fix.flag !== undefined)) checkFixes(verdict, input, context, fx, row.name);
    });
  }
});

describe('server-filesystem on Windows, simulated (its win32 branches, read from its code)', () => {
  const volume = () => fakeWin32Fs().dir('C:\\ws').file('C:\\ws\\a.txt').dir('C:\\outside').file('C:\\outside\\s.txt').dir('C:\\ws-evil').link('C:\\ws\\out', 'C:\\outside');
  const context = (allowed: readonly string[]): DeciderContext => ({
    platform: 'win32',
    fs: { ...volume(), readText: () => undefined },
    home: 'C:\\Users\\dev',
    cwd: 'C:\\ws',
    addDirs: [],
    allowed,
    env: {},
  });
  // Each: the input, the allowed directories, the decision.
  const WIN32_ROWS: readonly [string, string, readonly string[], 'allow' | 'deny'][] = [
    ['inside', 'C:\\ws\\a.txt', ['C:\\ws'], 'allow'],
    ['a lower-case drive letter: upper-cased by normalizePath', 'c:\\ws\\a.txt', ['C:\\ws'], 'allow'],
    ['forward slashes', 'C:/ws/a.txt', ['C:\\ws'], 'allow'],
    ['the folder in another case: compared with case, refused', 'C:\\WS\\a.txt', ['C:\\ws'], 'deny'],
    ['sibling prefix', 'C:\\ws-evil\\x.txt', ['C:\\ws'], 'deny'],
    ['a link out', 'C:\\ws\\out\\s.txt', ['C:\\ws'], 'deny'],
    ['dot-dot out', 'C:\\ws\\..\\outside\\s.txt', ['C:\\ws'], 'deny'],
    ['a Git Bash path /c/ws: absolute on the current drive, C:\\c\\ws', '/c/ws/a.txt', ['C:\\ws'], 'deny'],
    ['a relative path', 'a.txt', ['C:\\ws'], 'allow'],
    ['the drive root allowed', 'C:\\outside\\s.txt', ['C:\\'], 'allow'],
  ];
  for (const [name, input, allowed, want] of WIN32_ROWS) {
    test(name, () => {
      const verdict = decider.decide(input, 'read_text_file', context(allowed));
      assert.equal(verdict.decision, want, JSON.stringify(verdict.stages, null, 1));
      assert.equal(verdict.basis, 'documented');
      if (want === 'deny') assert.ok(verdict.fixes.length > 0);
    });
  }
  test('a path in another case than the allowed directory is named as a difference', () => {
    const verdict = decider.decide('C:\\WS\\a.txt', 'read_text_file', context(['C:\\ws']));
    assert.ok(verdict.differences.some((line) => /letter case/.test(line)), verdict.differences.join('\n'));
  });
});

test('simulated Windows, with nothing of the disk: the allowed directories taken as they are, the path rules applied', () => {
  const NO_DISK = { lstat: () => ({ kind: 'missing' as const }), readlink: () => ({ ok: false as const, errno: 'ENOENT' }), readText: () => undefined };
  const simulated: DeciderContext = { platform: 'win32', fs: NO_DISK, simulated: true, home: 'C:\\Users\\dev', cwd: 'C:\\ws', addDirs: [], allowed: ['c:/ws'], env: {} };
  const inside = decider.decide('C:\\ws\\a.txt', 'read_text_file', simulated);
  assert.equal(inside.decision, 'allow');
  assert.equal(inside.stages[0]!.output, 'C:\\ws');
  assert.equal(inside.stages.find((stage) => stage.name === 'fs.realpath')?.status, 'skip');
  assert.equal(decider.decide('C:\\ws-evil\\a.txt', 'read_text_file', simulated).decision, 'deny');
});

test('each of its own tools keeps its name; this server names map by access', () => {
  for (const tool of [...decider.tools.read, ...decider.tools.change]) {
    assert.equal(decider.decide('x', tool, { platform: 'linux', fs: nodeDeciderFileSystem, home: '/nonexistent', cwd: '/', addDirs: [], allowed: [], env: {} }).tool, tool);
  }
});

