// The secrets policy as the core decides it: each default pattern against a path it holds and a
// look-alike it must not, for reading and for changing; case on each platform (simulated); links
// inside that lead to a secret or are named like one, on this machine's disk; patterns added,
// `!` exceptions, the defaults turned off, and a host's deny rule that no consent lifts.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PLATFORMS, secretPolicy, STAGES, trace, type Platform, type SecretAccess, type SecretPolicy, type Trace } from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';

const ROOTS: Record<Platform, string> = { linux: '/ws', darwin: '/Users/me/ws', win32: 'C:\\ws' };

function simulated(input: string, platform: Platform, access: SecretAccess, secrets: SecretPolicy = secretPolicy()): Trace {
  return trace(input, ROOTS[platform], { platform, secrets, access });
}

// [path, access, the pattern that holds it or null]
const TABLE: readonly (readonly [string, SecretAccess, string | null])[] = [
  ['.env', 'read', '.env*'],
  ['app/.env.local', 'read', '.env*'],
  ['.env.production', 'change', '.env*'],
  ['env', 'read', null],
  ['app/dotenv.txt', 'read', null],
  ['server.pem', 'read', '*.pem'],
  ['certs/ca.pem', 'change', '*.pem'],
  ['server.pem.txt', 'read', null],
  ['pem', 'read', null],
  ['tls/private.key', 'read', '*.key'],
  ['keyboard.ts', 'read', null],
  ['monkey', 'read', null],
  ['id_rsa', 'read', 'id_rsa*'],
  ['home/id_rsa.pub', 'read', 'id_rsa*'],
  ['my_id_rsa', 'read', null],
  ['.npmrc', 'read', '.npmrc'],
  ['pkg/.npmrc', 'change', '.npmrc'],
  ['.npmrc.example', 'read', null],
  ['npmrc', 'read', null],
  ['.netrc', 'read', '.netrc'],
  ['.netrcs', 'read', null],
  ['.aws/credentials', 'read', '**/.aws/credentials'],
  ['me/.aws/credentials', 'read', '**/.aws/credentials'],
  ['.aws/config', 'read', null],
  ['aws/credentials', 'read', null],
  ['.ssh/config', 'read', '.ssh/'],
  ['me/.ssh/known_hosts', 'change', '.ssh/'],
  ['ssh/config', 'read', null],
  ['.sshd/config', 'read', null],
  ['.git/config', 'change', '.git'],
  ['.git/hooks/pre-commit', 'change', '.git'],
  ['vendor/lib/.git/HEAD', 'change', '.git'],
  ['.git/config', 'read', null],
  ['.git/HEAD', 'read', null],
  ['.github/workflows/ci.yml', 'change', null],
  ['.gitignore', 'change', null],
  ['src/index.ts', 'change', null],
];

describe('each default pattern, and a look-alike that must not match', () => {
  for (const [input, access, pattern] of TABLE) {
    test(`${access} ${input}: ${pattern ?? 'not held'}`, () => {
      const result = simulated(input, 'linux', access);
      const row = result.stages.at(-1)!;
      assert.equal(row.stage, 'secrets');
      if (pattern === null) {
        assert.equal(result.verdict, 'inside', result.reason);
        assert.equal(row.status, 'pass');
        assert.equal(result.secret, null);
        return;
      }
      assert.equal(result.verdict, 'refused');
      assert.equal(result.code, 'ERR_SECRET');
      assert.equal(result.stage, 'secrets');
      assert.equal(row.status, 'refuse');
      assert.deepEqual(result.secret, { decision: 'ask', pattern, source: 'default', path: input });
      assert.match(result.reason, /^Asks first: /);
      assert.ok(result.reason.includes(`"${pattern}" (default)`), result.reason);
      // The reason names the setting and the flag that would let it through.
      assert.ok(result.reason.includes(`"!${input}" to boundaryInspector.secrets.patterns (--secret "!${input}")`), result.reason);
      assert.ok(result.reason.includes('boundaryInspector.secrets.defaults: false, --no-default-secrets'), result.reason);
    });
  }
});

test('the secrets stage is the last of STAGES, after containment, and is skipped without a policy', () => {
  assert.deepEqual(STAGES.slice(-2), ['containment', 'secrets']);
  const without = trace('.env', '/ws', { platform: 'linux' });
  assert.equal(without.verdict, 'inside');
  assert.equal(without.stages.at(-1)!.status, 'skip');
  // A path refused before it has no secrets row.
  assert.equal(simulated('../.env', 'linux', 'read').stages.at(-1)!.stage, 'containment');
});

describe('case is ignored on every platform', () => {
  for (const platform of PLATFORMS) {
    test(platform, () => {
      const sep = platform === 'win32' ? '\\' : '/';
      for (const input of ['.ENV', `Certs${sep}CA.PEM`, `.SSH${sep}Config`, `ID_RSA`, `.Git${sep}config`]) {
        const access: SecretAccess = input.startsWith('.Git') ? 'change' : 'read';
        const result = simulated(input, platform, access);
        assert.equal(result.code, 'ERR_SECRET', `${platform} ${input}: ${result.reason}`);
      }
      assert.equal(simulated('ENVIRONMENT.md', platform, 'read').verdict, 'inside');
    });
  }
});

describe('patterns added, exceptions and the defaults turned off', () => {
  test('an added pattern holds with its source; a later ! lets a default go', () => {
    const secrets = secretPolicy({ patterns: [{ pattern: 'secrets/**', source: 'flag --secret' }, { pattern: '!.env.example', source: 'flag --secret' }] });
    const added = simulated('secrets/db.json', 'linux', 'read', secrets);
    assert.deepEqual(added.secret, { decision: 'ask', pattern: 'secrets/**', source: 'flag --secret', path: 'secrets/db.json' });
    assert.ok(added.reason.includes('remove it from flag --secret'), added.reason);
    assert.equal(simulated('.env.example', 'linux', 'read', secrets).verdict, 'inside');
    assert.equal(simulated('.env', 'linux', 'read', secrets).code, 'ERR_SECRET');
  });
  test('without the defaults, only the patterns added hold', () => {
    const secrets = secretPolicy({ defaults: false, patterns: [{ pattern: '*.sqlite', source: 'setting boundaryInspector.secrets.patterns' }] });
    assert.equal(simulated('.env', 'linux', 'read', secrets).verdict, 'inside');
    assert.equal(simulated('.git/config', 'linux', 'change', secrets).verdict, 'inside');
    assert.equal(simulated('db/app.sqlite', 'linux', 'change', secrets).code, 'ERR_SECRET');
  });
  test("a host's deny rule refuses by policy, before the patterns", () => {
    const secrets = secretPolicy({ deny: (real, access) => (access === 'read' && real.endsWith('/notes/private.md') ? { pattern: 'Read(./notes/private.md)', source: '.claude/settings.json line 4' } : undefined) });
    const denied = simulated('notes/private.md', 'linux', 'read', secrets);
    assert.equal(denied.code, 'ERR_SECRET');
    assert.equal(denied.secret?.decision, 'deny');
    assert.match(denied.reason, /^Refused by policy: reading "notes\/private\.md" is denied by "Read\(\.\/notes\/private\.md\)" \(\.claude\/settings\.json line 4\)/);
    assert.equal(simulated('notes/private.md', 'linux', 'change', secrets).verdict, 'inside');
  });
});

describe('links on this disk', { skip: process.platform === 'win32' }, () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'boundary-secrets-')));
  after(() => fs.rmSync(base, { recursive: true, force: true }));
  const ws = path.join(base, 'ws');
  fs.mkdirSync(path.join(ws, '.ssh'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'docs'));
  fs.writeFileSync(path.join(ws, '.env'), 'TOKEN=1\n');
  fs.writeFileSync(path.join(ws, '.ssh', 'id_ed25519'), 'key\n');
  fs.writeFileSync(path.join(ws, 'docs', 'readme.md'), 'hello\n');
  fs.symlinkSync('../.env', path.join(ws, 'docs', 'settings.txt'));
  fs.symlinkSync('.ssh', path.join(ws, 'keys'));
  fs.symlinkSync('docs/readme.md', path.join(ws, '.env.link'));
  const judged = (input: string, access: SecretAccess = 'read') => trace(input, ws, { platform: 'linux', fs: nodeFileSystem, secrets: secretPolicy(), access });

  test('a link inside pointing at a secret file is held by the real path', () => {
    const result = judged('docs/settings.txt');
    assert.equal(result.code, 'ERR_SECRET');
    assert.equal(result.secret?.path, '.env');
  });
  test('a link to a secret folder holds what is below it', () => {
    assert.equal(judged('keys/id_ed25519').secret?.pattern, '.ssh/');
    assert.equal(judged('keys').secret?.pattern, '.ssh/');
    assert.equal(judged('.ssh').secret?.path, '.ssh/');
  });
  test('a link named like a secret is held by its own name', () => {
    assert.equal(judged('.env.link').secret?.pattern, '.env*');
  });
  test('a new file named like a secret is held before it exists', () => {
    const result = judged('docs/.env.new', 'change');
    assert.equal(result.kind, 'missing');
    assert.equal(result.code, 'ERR_SECRET');
  });
  test('an ordinary file passes the stage', () => {
    const result = judged('docs/readme.md');
    assert.equal(result.verdict, 'inside');
    assert.equal(result.stages.at(-1)!.status, 'pass');
  });
});
