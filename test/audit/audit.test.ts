// The audit library on a real disk: every kind found where it is, with the right target, and
// nothing reported on a clean workspace.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  auditWorkspace,
  findingBytes,
  foundCount,
  MAX_KEPT_FINDING_BYTES,
  MAX_KEPT_FINDINGS,
  portabilityRules,
  type AuditReport,
  type Finding,
} from '../../src/audit/audit.js';
import { makeFastTempDir, removeDir } from '../server/helpers.js';
import { HIDDEN_NAMES, isRoot, makeFindingFlood, makeFixture, makeUnportable, nestLongNames, NFC, NFD, type Fixture } from './fixture.js';

let fixture: Fixture;
let report: AuditReport;

before(async () => {
  fixture = makeFixture();
  report = await auditWorkspace(fixture.ws);
});
after(() => fixture.cleanup());

function found(kind: Finding['kind'], relative: string): Finding {
  const wanted = path.join(fixture.ws, relative);
  const finding = report.findings.find((entry) => entry.kind === kind && entry.path === wanted);
  assert.ok(finding, `${kind} at ${relative}; found:\n${report.findings.map((entry) => `${entry.kind} ${entry.path}`).join('\n')}`);
  return finding;
}

describe('audit: links, judged as the server judges them', () => {
  const outside = (name: string) => path.join(fixture.outside, name);
  // [name of the link in ws, kind, where it lands]
  const rows: readonly [string, Finding['kind'], () => string | undefined][] = [
    // symlink escape, absolute text
    ['escape-abs', 'link-escapes', () => outside('secret.txt')],
    // symlink escape, relative text
    ['escape-rel', 'link-escapes', () => outside('secret.txt')],
    // leaves and comes back in: cut where it leaves, as the server does
    ['comes-back', 'link-escapes', () => outside('back-in/file.txt')],
    // dangling outside: an escape, its target never looked up
    ['escape-dangling', 'link-escapes', () => outside('no-such-file')],
    ['dangling', 'link-dangling', () => path.join(fixture.ws, 'missing.txt')],
    // a loop lands nowhere
    ['loop-a', 'link-loop', () => undefined],
    ['loop-b', 'link-loop', () => undefined],
  ];
  for (const [name, kind, target] of rows) {
    test(`${name}: ${kind}`, () => {
      const finding = found(kind, name);
      assert.equal(finding.target, target());
      assert.ok(finding.detail.length > 20, finding.detail);
    });
  }

  test('links whose chain stays inside are not reported', () => {
    for (const name of ['fine-link', 'fine-chain']) {
      assert.ok(!report.findings.some((entry) => entry.path === path.join(fixture.ws, name)), name);
    }
  });

  test('the walk does not follow links: nothing below outside/ is reported', () => {
    assert.ok(report.findings.every((entry) => entry.path.startsWith(fixture.ws + path.sep)));
  });
});

describe('audit: names', () => {
  test('case twins: each name, naming the other', (context) => {
    if (!fixture.caseSensitive) return context.skip('this disk folds case');
    assert.match(found('case-twins', 'README.md').detail, /"readme\.md"/);
    assert.match(found('case-twins', 'readme.md').detail, /"README\.md"/);
  });

  test('unicode twins: the NFC and the NFD spelling, and the code points where they differ', () => {
    assert.match(found('unicode-twins', `names/${NFC}`).detail, /\(NFD\) in another Unicode form in this folder \("\u00e9" \(U\+00E9\) in this name, "e\u0301" \(U\+0065 U\+0301\) in the other\)/u);
    assert.match(found('unicode-twins', `names/${NFD}`).detail, /\(NFC\) in another Unicode form in this folder \("e\u0301" \(U\+0065 U\+0301\) in this name, "\u00e9" \(U\+00E9\) in the other\)/u);
  });

  test('case twins that look alike name their code points; ones that differ visibly do not', (context) => {
    if (!fixture.caseSensitive) return context.skip('this disk folds case');
    assert.match(found('case-twins', 'kelvin/\u212a.txt').detail, /\("\u212a" \(U\+212A\) in this name, "k" \(U\+006B\) in the other\)/u);
    assert.doesNotMatch(found('case-twins', 'README.md').detail, /U\+/);
  });

  test('hidden characters: bidi controls, zero-width, separators and DEL, each named and escaped', () => {
    const override = found('hidden-characters', `hidden/${HIDDEN_NAMES[0]}`).detail;
    assert.match(override, /^This name holds U\+202E, which do not show on screen, or reorder the text shown around them \(bidi controls\)/);
    assert.ok(override.includes('"invoice\\u202etxt.exe"'), override);
    assert.equal(/[\p{Cc}\p{Cf}\p{Zl}]/u.test(override), false, 'the detail itself holds none');
    assert.match(found('hidden-characters', `hidden/${HIDDEN_NAMES[1]}`).detail, /^This name holds U\+200B, which do not show on screen: /);
    assert.match(found('hidden-characters', `hidden/${HIDDEN_NAMES[2]}`).detail, /U\+2028/);
    assert.match(found('hidden-characters', `hidden/${HIDDEN_NAMES[3]}`).detail, /U\+007F/);
  });

  // [name, a word the detail must hold]
  const rows: readonly [string, RegExp][] = [
    ['CON.txt', /CON is a reserved device name/],
    ['aux', /AUX is a reserved device name/],
    ['name.', /ends in a dot/],
    ['name ', /ends in a space/],
    ['a:b', /":"/],
    ['a?b', /"\?"/],
    ['ctl\u0001', /U\+0001/],
  ];
  for (const [name, rule] of rows) {
    test(`not portable: ${JSON.stringify(name)}`, () => {
      assert.match(found('not-portable', `portable/${name}`).detail, rule);
    });
  }
});

describe('portabilityRules', () => {
  // [name, number of rules broken]
  const rows: readonly [string, number][] = [
    ['index.ts', 0],
    ['.hidden', 0],
    ['console.log', 0], // starts with CON, is no device
    ['auxiliary.txt', 0],
    ['COM1', 1],
    ['com\u00b9.txt', 1], // superscript digit: Windows reads it as COM1
    ['nul .txt', 1], // spaces before the dot are dropped
    ['CONIN$', 1],
    ['LPT1.', 2], // a device, and a trailing dot
    ['a<b>c', 1],
    ['a\\b', 1], // Windows's separator
    ['tab\there', 1],
    ['...', 1],
  ];
  for (const [name, count] of rows) {
    test(`${JSON.stringify(name)}: ${count}`, () => assert.equal(portabilityRules(name).length, count, portabilityRules(name).join('; ')));
  }
});

describe('audit: hard links and what cannot be read', () => {
  test('a hard link to a file outside: one name lies outside', () => {
    assert.match(found('hard-link', 'hard.txt').detail, /2 names .*1 of them lies outside/);
  });

  test('two names, both inside: reported, and said to be all inside', () => {
    assert.match(found('hard-link', 'twice-a.txt').detail, /all in this workspace.*twice-b\.txt/);
    assert.match(found('hard-link', 'twice-b.txt').detail, /all in this workspace.*twice-a\.txt/);
  });

  test('a folder that cannot be listed (chmod 000)', (context) => {
    if (isRoot) return context.skip('root lists any folder');
    assert.match(found('unreadable', 'locked').detail, /EACCES/);
  });

  test('an entry past PATH_MAX cannot be examined (ENAMETOOLONG)', (context) => {
    if (fixture.tooDeep === undefined) return context.skip('no PATH_MAX to pass here');
    const unreadable = report.findings.filter((entry) => entry.kind === 'unreadable' && entry.path.startsWith(path.join(fixture.ws, 'deep')));
    assert.equal(unreadable.length, 1, JSON.stringify(unreadable));
    assert.ok(fixture.tooDeep.startsWith(unreadable[0]!.path));
    assert.match(unreadable[0]!.detail, /ENAMETOOLONG/);
  });
});

describe('audit: the report', () => {
  test('every finding is expected, and nothing else is reported', () => {
    const expected = [
      'link-escapes escape-abs',
      'link-escapes escape-rel',
      'link-escapes comes-back',
      'link-escapes escape-dangling',
      'link-dangling dangling',
      'link-loop loop-a',
      'link-loop loop-b',
      ...(fixture.caseSensitive ? ['case-twins README.md', 'case-twins readme.md'] : []),
      `unicode-twins names/${NFC}`,
      `unicode-twins names/${NFD}`,
      ...(fixture.caseSensitive ? ['case-twins kelvin/\u212a.txt', 'case-twins kelvin/k.txt'] : []),
      ...HIDDEN_NAMES.map((name) => `hidden-characters hidden/${name}`),
      ...['CON.txt', 'aux', 'name.', 'name ', 'a:b', 'a?b', 'ctl\u0001'].map((name) => `not-portable portable/${name}`),
      'hard-link hard.txt',
      'hard-link twice-a.txt',
      'hard-link twice-b.txt',
      ...(isRoot ? [] : ['unreadable locked']),
    ];
    const seen = report.findings
      .filter((entry) => !(entry.kind === 'unreadable' && entry.path.startsWith(path.join(fixture.ws, 'deep'))))
      .map((entry) => `${entry.kind} ${path.relative(fixture.ws, entry.path)}`);
    assert.deepEqual([...seen].sort(), [...expected].sort());
  });

  test('sorted by path, then kind', () => {
    const keys = report.findings.map((entry) => [entry.path, entry.kind] as const);
    const sorted = [...keys].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
    assert.deepEqual(keys, sorted);
  });

  test('the same report twice', async () => {
    assert.deepEqual(await auditWorkspace(fixture.ws), report);
  });

  test('a clean workspace: nothing reported, every entry scanned', async () => {
    const clean = await auditWorkspace(fixture.clean);
    assert.deepEqual(clean.findings, []);
    assert.equal(clean.truncated, false);
    // 13 names at the top (links included), src's 2, nested's 1.
    assert.equal(clean.scanned, 16);
    assert.equal(clean.rootPath, fixture.clean);
  });
});

describe('audit: limits and cancellation', () => {
  test('maxEntries stops the walk and says so', async () => {
    const cut = await auditWorkspace(fixture.ws, { maxEntries: 3 });
    assert.equal(cut.scanned, 3);
    assert.equal(cut.truncated, true);
  });

  test('exactly as many entries as maxEntries is not truncated', async () => {
    const exact = await auditWorkspace(fixture.clean, { maxEntries: 16 });
    assert.equal(exact.scanned, 16);
    assert.equal(exact.truncated, false);
  });

  test('an aborted signal rejects with its reason', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(auditWorkspace(fixture.ws, { signal: controller.signal }), { name: 'AbortError' });
  });

  test('progress between slices, and an abort then stops the walk', async () => {
    // Wide enough that walking it takes several 20 ms slices on any machine.
    const wide = path.join(fixture.base, 'wide');
    fs.mkdirSync(wide);
    for (let i = 0; i < 20_000; i++) fs.writeFileSync(path.join(wide, `f${i}`), '');
    const controller = new AbortController();
    const seen: number[] = [];
    const walk = auditWorkspace(wide, {
      onProgress: ({ scanned, folder }) => {
        assert.equal(folder, wide);
        seen.push(scanned);
        controller.abort();
      },
      signal: controller.signal,
    });
    await assert.rejects(walk, { name: 'AbortError' });
    assert.equal(seen.length, 1);
    assert.ok(seen[0]! < 20_000, `stopped part way: ${seen[0]}`);
  });

  test('a root that is not an absolute folder is a programming error', async () => {
    await assert.rejects(auditWorkspace('relative/path'), TypeError);
    await assert.rejects(auditWorkspace(path.join(fixture.clean, 'src', 'index.ts')), TypeError);
    await assert.rejects(auditWorkspace(fixture.clean, { maxEntries: 0 }), RangeError);
  });
});

describe('audit: what it keeps, whatever the tree holds', () => {
  let base: string;
  before(() => {
    base = makeFastTempDir('bi-audit-kept-');
  });
  after(() => removeDir(base));

  const ofKind = (report: AuditReport, kind: Finding['kind']) => report.findings.filter((finding) => finding.kind === kind);

  test(`past ${MAX_KEPT_FINDINGS.toLocaleString('en-US')} findings: the most serious kept, the rest counted by kind`, async () => {
    const ws = path.join(base, 'count');
    const { escape, lastName } = makeFindingFlood(ws);
    const report = await auditWorkspace(ws);
    assert.equal(report.truncated, false);
    assert.equal(report.findings.length, MAX_KEPT_FINDINGS);
    // The hard links gave way to the names, and the last name to the escaping link.
    assert.deepEqual(report.notKept, { 'not-portable': 1, 'hard-link': 2 });
    assert.equal(foundCount(report), MAX_KEPT_FINDINGS + 3);
    assert.deepEqual(ofKind(report, 'link-escapes').map((finding) => finding.path), [escape]);
    assert.equal(ofKind(report, 'not-portable').length, MAX_KEPT_FINDINGS - 1);
    assert.ok(!report.findings.some((finding) => finding.path === lastName), 'the last name met is the one not kept');
  });

  test('a file whose other name was not kept says so, and still counts it', async () => {
    // One name met before the bound is reached, the other after it.
    const ws = path.join(base, 'hard');
    fs.mkdirSync(path.join(ws, 'a'), { recursive: true });
    fs.mkdirSync(path.join(ws, 'c'));
    fs.writeFileSync(path.join(ws, 'a', 'one'), 'x');
    makeUnportable(path.join(ws, 'b'), 0, MAX_KEPT_FINDINGS - 1);
    fs.linkSync(path.join(ws, 'a', 'one'), path.join(ws, 'c', 'two'));
    const report = await auditWorkspace(ws);
    assert.equal(report.findings.length, MAX_KEPT_FINDINGS);
    assert.deepEqual(report.notKept, { 'hard-link': 1 });
    const [kept] = ofKind(report, 'hard-link');
    assert.equal(kept?.path, path.join(ws, 'a', 'one'));
    assert.match(kept.detail, /2 names \(hard links\), all in this workspace.* It has 1 other name here, not kept in this report\./);
  });

  test(`past ${MAX_KEPT_FINDING_BYTES.toLocaleString('en-US')} bytes of findings (paths of 3.5 KB): as many kept as fit, the rest counted`, async () => {
    const ws = path.join(base, 'bytes');
    const deep = nestLongNames(ws);
    makeUnportable(deep, 0, 1);
    const [first] = (await auditWorkspace(ws)).findings;
    assert.ok(first, 'one finding');
    // Every finding costs what the first does; one more than fits.
    const fit = Math.floor(MAX_KEPT_FINDING_BYTES / findingBytes(first));
    assert.ok(fit < MAX_KEPT_FINDINGS, 'the bytes bound binds first');
    makeUnportable(deep, 1, fit + 1);
    const report = await auditWorkspace(ws);
    assert.equal(report.findings.length, fit);
    assert.deepEqual(report.notKept, { 'not-portable': 1 });
    assert.ok(report.findings.reduce((sum, finding) => sum + findingBytes(finding), 0) <= MAX_KEPT_FINDING_BYTES);
  });
});

describe('inside WSL: what only one side can use', () => {
  let base: string;
  let onDrive: AuditReport;
  let onLinux: AuditReport;
  before(async () => {
    base = makeFastTempDir('bi-audit-wsl-');
    const spellings = { wsl: { distro: 'Ubuntu', mountRoot: `${base}/mnt/` } };
    // A workspace on Windows' drive C: as WSL mounts it.
    const drive = path.join(base, 'mnt', 'c', 'ws');
    fs.mkdirSync(drive, { recursive: true });
    fs.writeFileSync(path.join(drive, 'a:b.txt'), '');
    fs.writeFileSync(path.join(drive, 'plain.txt'), '');
    fs.symlinkSync('/etc/hostname', path.join(drive, 'to-linux'));
    fs.symlinkSync('plain.txt', path.join(drive, 'relative'));
    // A workspace in the Linux filesystem.
    const linux = path.join(base, 'home', 'ws');
    fs.mkdirSync(linux, { recursive: true });
    fs.writeFileSync(path.join(linux, 'a:b.txt'), '');
    fs.symlinkSync(path.join(drive, 'plain.txt'), path.join(linux, 'to-windows'));
    onDrive = await auditWorkspace(drive, { spellings });
    onLinux = await auditWorkspace(linux, { spellings });
  });
  after(() => removeDir(base));

  const kinds = (report: AuditReport, name: string) => report.findings.filter((finding) => path.basename(finding.path) === name).map((finding) => finding.kind).sort();

  test('a name Windows cannot hold, on a drive WSL shares, is one-sided (and not also not-portable)', () => {
    assert.deepEqual(kinds(onDrive, 'a:b.txt'), ['wsl-one-side']);
    assert.match(onDrive.findings.find((finding) => finding.kind === 'wsl-one-side' && finding.path.endsWith('a:b.txt'))!.detail, /drive C: \(.*\/mnt\/c\)/);
  });

  test('the same name in the Linux filesystem is not-portable, as anywhere', () => {
    assert.deepEqual(kinds(onLinux, 'a:b.txt'), ['not-portable']);
  });

  test('a link from the Linux side onto the drive, and one from the drive to a Linux path, are one-sided; a relative link is not', () => {
    assert.ok(kinds(onLinux, 'to-windows').includes('wsl-one-side'), JSON.stringify(onLinux.findings));
    assert.ok(kinds(onDrive, 'to-linux').includes('wsl-one-side'), JSON.stringify(onDrive.findings));
    assert.deepEqual(kinds(onDrive, 'relative'), []);
  });

  test('outside WSL, none of this is reported', async () => {
    const plain = await auditWorkspace(path.join(base, 'mnt', 'c', 'ws'), { spellings: {} });
    assert.deepEqual(plain.findings.filter((finding) => finding.kind === 'wsl-one-side'), []);
    assert.deepEqual(kinds(plain, 'a:b.txt'), ['not-portable']);
  });
});
