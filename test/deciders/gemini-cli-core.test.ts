// A second judge beside the recording: Gemini CLI's own core, as its installed bundle exports it
// (WorkspaceContext, resolveToRealPath, resolveDefensiveToolPath, hasBlockedPathSegment,
// FileDiscoveryService, LoadedTrustedFolders), called on the same folders and paths as the model.
// Skipped where Gemini CLI is not installed at its pinned version (npm run record-deciders
// installs it into .agents-cache/).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ignoredForRead } from '../../src/deciders/gemini-cli/ignore.js';
import { blockedSegment, geminiHost, resolveToRealPath, withoutReferenceMark } from '../../src/deciders/gemini-cli/paths.js';
import { checkPathTrust, readTrustFile } from '../../src/deciders/gemini-cli/trust.js';
import { isPathWithinWorkspace, workspaceFolders } from '../../src/deciders/gemini-cli/workspace.js';
import { nodeDeciderFileSystem } from '../../src/host/node.js';
import { link } from '../server/table.js';
import { CASES, type DeciderCase } from './cases.js';
import { DEFAULT_SCRATCH, inputOf, makeCaseFixture, removeFixture, type CaseFixture } from './fixture.js';
import { AGENTS_CACHE, notInstalled } from './programs.js';

/** What the bundle of Gemini CLI's core exports, as far as these tests call it. */
interface GeminiCore {
  WorkspaceContext: new (targetDir: string, additional: string[]) => { isPathWithinWorkspace(p: string): boolean };
  resolveToRealPath(p: string): string;
  resolveDefensiveToolPath(p: string, targetDir: string): string;
  hasBlockedPathSegment(p: string): boolean;
  FileDiscoveryService: new (root: string, options?: object) => { shouldIgnoreFile(p: string): boolean };
  LoadedTrustedFolders: new (user: { path: string; config: Record<string, string> }, errors: unknown[]) => { isPathTrusted(location: string): boolean | undefined };
  normalizePath(p: string): string;
}

const skip = notInstalled('gemini-cli');
const BUNDLE = path.join(AGENTS_CACHE, 'gemini-cli', 'node_modules', '@google', 'gemini-cli', 'bundle');

/** The chunk of the bundle that holds the core: the one gemini.js imports that defines WorkspaceContext. */
async function loadCore(): Promise<GeminiCore> {
  const entry = fs.readFileSync(path.join(BUNDLE, 'gemini.js'), 'utf8');
  for (const [, chunk] of entry.matchAll(/import "\.\/(chunk-[A-Z0-9]+\.js)";/g)) {
    const file = path.join(BUNDLE, chunk!);
    if (fs.readFileSync(file, 'utf8').includes('var WorkspaceContext = class')) return (await import(pathToFileURL(file).href)) as GeminiCore;
  }
  throw new Error(`no chunk of ${BUNDLE} defines WorkspaceContext`);
}

const host = (cwd: string) => geminiHost('linux', nodeDeciderFileSystem, cwd);

/** The folders a case includes, as Gemini CLI is given them (settings of each layer, then the flag). */
function includedOf(c: DeciderCase, fx: CaseFixture): string[] | undefined {
  const g = c.gemini ?? {};
  const list = (settings?: object) => ((settings as { context?: { includeDirectories?: string[] } } | undefined)?.context?.includeDirectories ?? []);
  const written = [...list(g.user), ...list(g.workspace), ...(g.systemInOpenFolder ? [] : list(g.system)), ...(c.addDirs ?? [])].map(fx.expand);
  return written.map((dir) => (dir === '~' || dir.startsWith('~/') ? fx.home + dir.slice(1) : dir));
}

describe("the model's workspace check against Gemini CLI's own", { skip }, () => {
  let core: GeminiCore;
  before(async () => {
    core = await loadCore();
  });

  // Every recorded case: the path as the tool resolves it, and whether the workspace holds it.
  for (const c of CASES.filter((each) => each.tools['gemini-cli'] !== undefined)) {
    test(c.name, () => {
      const fx = makeCaseFixture(DEFAULT_SCRATCH, c, 'gemini-cli');
      try {
        const h = host(fx.cwd);
        const targetDir = h.processCwd;
        const input = inputOf(c, fx);
        const included = includedOf(c, fx)!.filter((dir) => fs.existsSync(path.resolve(targetDir, dir)));
        // Both throw on a path they cannot resolve (a loop of links), or both give the same path.
        const attempt = (resolve: () => string) => {
          try {
            return resolve();
          } catch {
            return 'cannot be resolved';
          }
        };
        const theirs = attempt(() => core.resolveToRealPath(path.resolve(targetDir, core.resolveDefensiveToolPath(input, targetDir))));
        const ours = attempt(() => resolveToRealPath(h, path.resolve(targetDir, withoutReferenceMark(h, input, targetDir))));
        assert.equal(ours, theirs, 'the resolved path');
        if (ours === 'cannot be resolved') return;
        const folders = workspaceFolders(h, included.map((written) => ({ written, source: { text: written } })));
        assert.equal(isPathWithinWorkspace(h, folders, ours).inside, new core.WorkspaceContext(targetDir, included).isPathWithinWorkspace(theirs), 'within the workspace');
      } finally {
        removeFixture(fx);
      }
    });
  }
});

/** Names inside the workspace where Gemini CLI's refusals hide: case, trailing dots, streams, short names, encodings. */
const TRAPS: readonly string[] = [
  '.env', '.ENV', '.env.', '.env. .', '.env:stream', 'x:.env', '.envrc', '.env.local', 'env',
  '.git', '.GIT', '.git.', '.gitignore', '.github', 'git~1', 'GIT~12', 'gi1a2b~3', 'gi1a2g~3',
  'node_modules', 'Node_Modules', 'node_modules.', 'node_m~1', 'no12ab~9', 'node_modules2',
  'gha-creds-1.json', 'GHA-CREDS-x.JSON', 'gha-creds-.json', 'gha-creds-1.json.bak', 'gh12ab~1.jso', 'gha-cr~2.json',
  '..notes', '%2e%2e', '%252e%252e', '100%', '100%25', 'a%2Fb', '%2egit', '.%65nv', 'café', 'cafe\u0301',
];

describe("the model's blocked names against Gemini CLI's own", { skip }, () => {
  let core: GeminiCore;
  let fx: CaseFixture;
  before(async () => {
    core = await loadCore();
    fx = makeCaseFixture(DEFAULT_SCRATCH, { name: 'gemini-oracle-traps', tools: {}, input: '' }, 'gemini-cli');
  });
  after(() => removeFixture(fx));

  for (const name of TRAPS) {
    test(`${name}, as a name and as a folder, inside the working folder`, () => {
      const h = host(fx.cwd);
      const folders = workspaceFolders(h, []);
      assert.equal(blockedSegment(name) !== undefined, core.hasBlockedPathSegment(name), 'hasBlockedPathSegment');
      const context = new core.WorkspaceContext(h.processCwd, []);
      for (const candidate of [path.join(fx.cwd, name), path.join(fx.cwd, name, 'x.txt'), path.join(fx.cwd, 'sub', name)]) {
        assert.equal(isPathWithinWorkspace(h, folders, candidate).inside, context.isPathWithinWorkspace(candidate), candidate);
      }
    });
  }

  test('any name from a tricky alphabet is blocked exactly when Gemini CLI blocks it', () => {
    const alphabet = fc.constantFrom(...'.gitenvodu_mhacrs-j~0123456789abf:%2e GITENV'.split(''));
    fc.assert(
      fc.property(fc.array(fc.string({ unit: alphabet, minLength: 1, maxLength: 16 }), { minLength: 1, maxLength: 3 }), (names) => {
        const relative = names.join('/');
        assert.equal(blockedSegment(relative) !== undefined, core.hasBlockedPathSegment(relative), relative);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the model's ignore files against Gemini CLI's FileDiscoveryService", { skip }, () => {
  let core: GeminiCore;
  let fx: CaseFixture;
  const IGNORED_TREE = {
    'ws/.geminiignore': 'sub/\n*.log\n!keep.log\n/top-only.txt\n# a comment\n',
    'ws/.gitignore': 'build/\nsecret-*\n',
    'ws/deep/.gitignore': 'local.txt\n/anchored.txt\n',
    'ws/.git/info/exclude': 'excluded.txt\n',
    'ws/deep/local.txt': 'x', 'ws/deep/anchored.txt': 'x', 'ws/deep/deeper/anchored.txt': 'x', 'ws/deep/deeper/local.txt': 'x',
    'ws/top-only.txt': 'x', 'ws/deep/top-only.txt': 'x', 'ws/a.log': 'x', 'ws/keep.log': 'x', 'ws/build/out.js': 'x',
    'ws/secret-key': 'x', 'ws/excluded.txt': 'x', 'ws/deep/excluded.txt': 'x', 'ws/to-sub': link('sub'), 'ws/to-out': link('../outside/secret.txt'),
  };
  const PATHS = ['sub/b.txt', 'a.log', 'keep.log', 'top-only.txt', 'deep/top-only.txt', 'build/out.js', 'secret-key', 'excluded.txt', 'deep/excluded.txt',
    'deep/local.txt', 'deep/deeper/local.txt', 'deep/anchored.txt', 'deep/deeper/anchored.txt', 'to-sub/b.txt', 'to-out', 'a.txt', '.git/HEAD', '.gitignore'];
  before(async () => {
    core = await loadCore();
    fx = makeCaseFixture(DEFAULT_SCRATCH, { name: 'gemini-oracle-ignore', tools: {}, input: '', tree: IGNORED_TREE }, 'gemini-cli');
  });
  after(() => removeFixture(fx));

  for (const relative of PATHS) {
    for (const options of [{ respectGitIgnore: true, respectGeminiIgnore: true }, { respectGitIgnore: false, respectGeminiIgnore: true }, { respectGitIgnore: true, respectGeminiIgnore: false }]) {
      test(`${relative} (${JSON.stringify(options)})`, () => {
        const h = host(fx.cwd);
        const service = new core.FileDiscoveryService(h.processCwd, { ...options, customIgnoreFilePaths: [] });
        for (const asked of [relative, path.join(fx.cwd, relative)]) {
          const ours = ignoredForRead(h, { ...options, customIgnoreFilePaths: [] }, asked, asked).ignored;
          assert.equal(ours, service.shouldIgnoreFile(asked), asked);
        }
      });
    }
  }
});

describe("the model's folder trust against Gemini CLI's LoadedTrustedFolders", { skip }, () => {
  let core: GeminiCore;
  let fx: CaseFixture;
  before(async () => {
    core = await loadCore();
    fx = makeCaseFixture(DEFAULT_SCRATCH, { name: 'gemini-oracle-trust', tools: {}, input: '', tree: { 'ws/deep/er/x': 'x' } }, 'gemini-cli');
  });
  after(() => removeFixture(fx));

  // Rules (paths relative to {base}) and the folder asked about.
  const ROWS: readonly { readonly rules: Record<string, string>; readonly cwd: string }[] = [
    // The folder itself.
    { rules: { ws: 'TRUST_FOLDER' }, cwd: 'ws' },
    // A parent trusts what is below it.
    { rules: { '.': 'TRUST_FOLDER' }, cwd: 'ws/deep' },
    // TRUST_PARENT on a sibling trusts the parent.
    { rules: { extra: 'TRUST_PARENT' }, cwd: 'ws' },
    // The longer rule wins: distrust below a trusted folder.
    { rules: { ws: 'TRUST_FOLDER', 'ws/deep': 'DO_NOT_TRUST' }, cwd: 'ws/deep/er' },
    // ...and trust below a distrusted one.
    { rules: { '.': 'DO_NOT_TRUST', 'ws/deep': 'TRUST_FOLDER' }, cwd: 'ws/deep' },
    // A rule on a link trusts its target.
    { rules: { 'ws-link': 'TRUST_FOLDER' }, cwd: 'ws' },
    // A sibling whose name starts with the folder's.
    { rules: { ws: 'TRUST_FOLDER' }, cwd: 'ws-evil' },
    // No rule.
    { rules: { outside: 'TRUST_FOLDER' }, cwd: 'ws' },
    // Longer by its text: TRUST_PARENT written deeper than a DO_NOT_TRUST on the same folder.
    { rules: { ws: 'DO_NOT_TRUST', 'ws/deep': 'TRUST_PARENT' }, cwd: 'ws/deep/er' },
  ];
  for (const row of ROWS) {
    test(`${JSON.stringify(row.rules)} for ${row.cwd}`, () => {
      const rules = Object.fromEntries(Object.entries(row.rules).map(([where, level]) => [path.join(fx.base, where), level]));
      const file = path.join(fx.home, '.gemini', 'trustedFolders.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(rules, null, 2));
      const cwd = path.join(fx.base, row.cwd);
      const h = host(cwd);
      const ours = checkPathTrust(h, { enabled: true, enabledSource: { text: 'default' }, env: {}, file: readTrustFile(h, path.join(fx.home, '.gemini'), {}), skipTrust: false }).trusted;
      const config = Object.fromEntries(Object.entries(rules).map(([where, level]) => [core.normalizePath(where), level]));
      assert.equal(ours, new core.LoadedTrustedFolders({ path: file, config }, []).isPathTrusted(fs.realpathSync(cwd)));
    });
  }
});
