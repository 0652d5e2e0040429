// Every spelling of a granted folder, one row per form and host: accepted as that folder
// (converted to the root's one spelling at the alias stage), or refused with a code that says
// which spelling it is and a reason that gives the right one. The hosts are simulated: a WSL
// distribution and mapped drives come in as the core's `Spellings`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { prepareRoot, traceAgainst, trace, withNearMisses, type Platform, type Policy, type RefusalCode, type Spellings } from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';

interface Row {
  readonly name: string;
  readonly input: string;
  readonly root: string;
  readonly host: Platform;
  readonly spellings?: Spellings;
  readonly policy?: Partial<Policy>;
  readonly verdict: 'inside' | 'outside' | 'refused';
  readonly code?: RefusalCode;
  /** The path it was judged as: for an accepted alias, in the root's spelling. */
  readonly path?: string;
  /** What the reason must hold: the spelling that works here, or what the input is. */
  readonly reason?: RegExp;
  /** Whether the alias stage converted the spelling. */
  readonly aliased?: boolean;
}

const WSL: Spellings = { wsl: { distro: 'Ubuntu' } };
const MAPPED: Spellings = { mappedDrives: { 'Z:': '\\\\fs1\\team' } };

const rows: readonly Row[] = [
  // ---- A Windows path given to Linux or macOS (modelcontextprotocol/servers #4686: taken as one file name, noticed weeks later)
  // #4686: a drive path with backslashes was a relative name in the workspace folder
  { name: '#4686 Windows path on Linux', input: 'C:\\Users\\me\\proj\\notes.md', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /a Windows path \(drive C:\)/ },
  // the same with forward slashes
  { name: 'drive path with slashes on Linux', input: 'C:/Users/me/proj/notes.md', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_FOREIGN_PATH' },
  // a lower-case drive letter
  { name: 'lower-case drive on Linux', input: 'c:\\x', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /drive C:/ },
  // a drive alone
  { name: 'a bare drive on macOS', input: 'D:', root: '/Users/me/proj', host: 'darwin', verdict: 'refused', code: 'ERR_FOREIGN_PATH' },
  // VS Code's Windows URI, as a Windows client sends it to a Linux server
  { name: 'Windows file URI on Linux', input: 'file:///c%3A/Users/me/proj/a.ts', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /"\/C:" at the top/ },
  // the same with a raw colon
  { name: 'Windows file URI with a raw colon on macOS', input: 'file:///C:/Users/me/proj/a.ts', root: '/Users/me/proj', host: 'darwin', verdict: 'refused', code: 'ERR_FOREIGN_PATH' },
  // a UNC path on Linux: a share is reached where it is mounted
  { name: 'UNC path on Linux', input: '\\\\fs1\\team\\proj\\a.txt', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /network path \(UNC\).*mounted/ },
  // a UNC path written with forward slashes after its two backslashes
  { name: 'UNC path with slashes on Linux', input: '\\\\fs1/team/a.txt', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_FOREIGN_PATH' },
  // four slashes in a file URI: a share, as Windows reads it
  { name: 'four-slash URI on Linux', input: 'file:////fs1/team/a.txt', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_FOREIGN_PATH' },
  // five slashes, as Python's url2pathname reads a share
  { name: 'five-slash URI on macOS', input: 'file://///fs1/team/a.txt', root: '/Users/me/proj', host: 'darwin', verdict: 'refused', code: 'ERR_FOREIGN_PATH' },
  // a drive letter in the host's place: the reason says it is a drive, on any system
  { name: 'drive as host on Linux', input: 'file://C:/x', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_HOST', reason: /drive C: where a host goes/ },
  // a relative name with a colon is not a drive: two letters before it
  { name: 'a name with a colon is not a drive', input: './ab:c', root: '/home/me/proj', host: 'linux', verdict: 'inside', path: '/home/me/proj/ab:c' },

  // ---- Inside WSL (microsoft/WSL #41658, anthropics/claude-code #49331, #3675, #9580): a Windows path has a /mnt spelling here
  // the drive's WSL mount, offered in the reason
  { name: 'WSL: a Windows path names /mnt/c', input: 'C:\\Users\\me\\proj\\a.txt', root: '/mnt/c/Users/me/proj', host: 'linux', spellings: WSL, verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /Here the same path is \/mnt\/c\/Users\/me\/proj\/a\.txt: send that/ },
  // the drive letter lower-cased, as WSL mounts it
  { name: 'WSL: drive D: is /mnt/d', input: 'D:/data/x', root: '/home/me/proj', host: 'linux', spellings: WSL, verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /\/mnt\/d\/data\/x/ },
  // a Windows URI, percent-encoded drive colon
  { name: 'WSL: VS Code Windows URI', input: 'file:///c%3A/Users/me/proj/a%20b.txt', root: '/mnt/c/Users/me/proj', host: 'linux', spellings: WSL, verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /\/mnt\/c\/Users\/me\/proj\/a b\.txt/ },
  // an automount root moved by /etc/wsl.conf
  { name: 'WSL: automount root /win', input: 'C:\\x\\y', root: '/home/me/proj', host: 'linux', spellings: { wsl: { distro: 'Ubuntu', mountRoot: '/win/' } }, verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /\/win\/c\/x\/y/ },
  // Windows' path into this very distribution: the path inside it
  { name: 'WSL: \\\\wsl$\\ of this distribution', input: '\\\\wsl$\\Ubuntu\\home\\me\\proj\\a.txt', root: '/home/me/proj', host: 'linux', spellings: WSL, verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /Here the same path is \/home\/me\/proj\/a\.txt/ },
  // the newer host name, the distribution in another case
  { name: 'WSL: \\\\wsl.localhost\\ in another case', input: '\\\\wsl.localhost\\ubuntu\\home\\me\\proj\\a.txt', root: '/home/me/proj', host: 'linux', spellings: WSL, verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /\/home\/me\/proj\/a\.txt/ },
  // another distribution's files are not this system's
  { name: 'WSL: another distribution', input: '\\\\wsl.localhost\\Debian\\home\\me\\a.txt', root: '/home/me/proj', host: 'linux', spellings: WSL, verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /another WSL distribution/ },
  // the /mnt path itself is this system's own: judged as any path (here outside)
  { name: 'WSL: /mnt/c is a plain path', input: '/mnt/c/Users/me/other/a.txt', root: '/mnt/c/Users/me/proj', host: 'linux', spellings: WSL, verdict: 'outside', code: 'ERR_OUTSIDE' },

  // ---- Windows, a WSL distribution's two names (\\wsl$ and \\wsl.localhost): one folder, accepted without the UNC policy
  // the legacy host name against a root granted with the new one
  { name: 'Windows: \\\\wsl$ is \\\\wsl.localhost', input: '\\\\wsl$\\Ubuntu\\home\\me\\proj\\a.txt', root: '\\\\wsl.localhost\\Ubuntu\\home\\me\\proj', host: 'win32', verdict: 'inside', path: '\\\\wsl.localhost\\Ubuntu\\home\\me\\proj\\a.txt', aliased: true },
  // the reverse
  { name: 'Windows: \\\\wsl.localhost is \\\\wsl$', input: '\\\\wsl.localhost\\Ubuntu\\home\\me\\proj\\a.txt', root: '\\\\wsl$\\Ubuntu\\home\\me\\proj', host: 'win32', verdict: 'inside', path: '\\\\wsl$\\Ubuntu\\home\\me\\proj\\a.txt', aliased: true },
  // as a file URI, the host in upper case and the distribution in lower case (Windows compares both without case)
  { name: 'Windows: file://WSL.LOCALHOST/ubuntu/...', input: 'file://WSL.LOCALHOST/ubuntu/home/me/proj/a.txt', root: '\\\\wsl$\\Ubuntu\\home\\me\\proj', host: 'win32', verdict: 'inside', path: '\\\\wsl$\\Ubuntu\\home\\me\\proj\\a.txt', aliased: true },
  // a name of the path in NFD is still a name: Windows keeps the forms apart, so it is another folder
  { name: 'Windows: NFD name under \\\\wsl$', input: '\\\\wsl$\\Ubuntu\\home\\me\\proj\\cafe\u0301.txt', root: '\\\\wsl.localhost\\Ubuntu\\home\\me\\proj', host: 'win32', verdict: 'inside', path: '\\\\wsl.localhost\\Ubuntu\\home\\me\\proj\\cafe\u0301.txt', aliased: true },
  // another distribution is another folder
  { name: 'Windows: another distribution is outside', input: '\\\\wsl$\\Debian\\home\\me\\proj\\a.txt', root: '\\\\wsl.localhost\\Ubuntu\\home\\me\\proj', host: 'win32', verdict: 'outside', code: 'ERR_OUTSIDE' },
  // a WSL share is this machine's, so the UNC policy does not refuse it
  { name: 'Windows: a WSL root needs no UNC policy', input: 'a.txt', root: 'file://wsl.localhost/Ubuntu/home/me/proj', host: 'win32', verdict: 'inside', path: '\\\\wsl.localhost\\Ubuntu\\home\\me\\proj\\a.txt' },
  // ---- Windows, another system's path
  // a Linux path under a root in WSL: the distribution's spelling is offered
  { name: 'Windows: a Linux path, root in WSL', input: '/home/me/proj/a.txt', root: '\\\\wsl.localhost\\Ubuntu\\home\\me\\proj', host: 'win32', verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /\\\\wsl\.localhost\\Ubuntu\\home\\me\\proj\\a\.txt: send that/ },
  // WSL's mount of a drive: the drive
  { name: 'Windows: /mnt/c/... is C:\\...', input: '/mnt/c/Users/me/proj/a.txt', root: 'C:\\Users\\me\\proj', host: 'win32', verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /C:\\Users\\me\\proj\\a\.txt: send that/ },
  // a Linux path in a file URI
  { name: 'Windows: file:///home/me', input: 'file:///home/me/a.txt', root: 'C:\\Users\\me\\proj', host: 'win32', verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /a Linux or macOS path \(under \/home\)/ },
  // /tmp, as Git Bash and agents write it
  { name: 'Windows: /tmp/x', input: '/tmp/x', root: 'C:\\Users\\me\\proj', host: 'win32', verdict: 'refused', code: 'ERR_FOREIGN_PATH' },
  // a macOS volume
  { name: 'Windows: /Volumes/x', input: '/Volumes/Data/x', root: 'C:\\Users\\me\\proj', host: 'win32', verdict: 'refused', code: 'ERR_FOREIGN_PATH' },
  // /Users is Windows' own too: a rooted path on the root's drive, as Windows reads it
  { name: 'Windows: /Users/... is rooted, not foreign', input: '/Users/me/proj/a.txt', root: 'C:\\Users\\me\\proj', host: 'win32', verdict: 'inside', path: 'C:\\Users\\me\\proj\\a.txt' },
  // a rooted path with backslashes is Windows' own spelling
  { name: 'Windows: \\home\\x is rooted', input: '\\home\\x', root: 'C:\\Users\\me\\proj', host: 'win32', verdict: 'outside', code: 'ERR_OUTSIDE' },

  // ---- Windows, a mapped drive and its share (modelcontextprotocol/servers #4129): one folder
  // #4129: the system reports the share for a folder granted by its drive
  { name: '#4129 share of a mapped drive', input: '\\\\fs1\\team\\proj\\a.txt', root: 'Z:\\proj', host: 'win32', spellings: MAPPED, verdict: 'inside', path: 'Z:\\proj\\a.txt', aliased: true },
  // the reverse: granted by the share (UNC allowed), asked by the drive
  { name: 'mapped drive of a granted share', input: 'z:\\proj\\a.txt', root: '\\\\fs1\\team\\proj', host: 'win32', spellings: MAPPED, policy: { unc: 'allow' }, verdict: 'inside', path: '\\\\fs1\\team\\proj\\a.txt', aliased: true },
  // the share as a file URI, server and share in another case
  { name: 'share as a URI, another case', input: 'file://FS1/Team/proj/a.txt', root: 'Z:\\proj', host: 'win32', spellings: MAPPED, verdict: 'inside', path: 'Z:\\proj\\a.txt', aliased: true },
  // without the mapping, the share is another machine's: refused by the UNC policy
  { name: 'share without its mapping', input: '\\\\fs1\\team\\proj\\a.txt', root: 'Z:\\proj', host: 'win32', verdict: 'refused', code: 'ERR_UNC' },
  // another share on the same server is not the mapped one
  { name: 'another share of the server', input: '\\\\fs1\\other\\a.txt', root: 'Z:\\proj', host: 'win32', spellings: MAPPED, verdict: 'refused', code: 'ERR_UNC' },
  // ---- Windows URI forms from other projects' tables
  // five slashes with UNC allowed: the share, and no "relative root" reason
  { name: 'five slashes, UNC allowed', input: 'file://///fs1/team/proj/a.txt', root: '\\\\fs1\\team\\proj', host: 'win32', policy: { unc: 'allow' }, verdict: 'inside', path: '\\\\fs1\\team\\proj\\a.txt' },
  // the drive letter in the host's place: the reason says so
  { name: 'file://C:/ on Windows', input: 'file://C:/Users/me/proj/a.txt', root: 'C:\\Users\\me\\proj', host: 'win32', verdict: 'refused', code: 'ERR_HOST', reason: /drive C: where a host goes.*file:\/\/\/C:\// },
  // the same with a bar
  { name: 'file://C|/ on Windows', input: 'file://C|/Users/me/proj/a.txt', root: 'C:\\Users\\me\\proj', host: 'win32', policy: { unc: 'allow' }, verdict: 'refused', code: 'ERR_HOST', reason: /drive C:/ },
  // a folder name ending in a dot: Windows reads it one way or another by the API
  { name: 'trailing dot on Windows', input: 'C:\\Users\\me\\proj\\a.txt.\\b', root: 'C:\\Users\\me\\proj', host: 'win32', verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER', reason: /ends in a dot or a space/ },

  // a last name's trailing dot is dropped, as Windows drops it
  { name: 'trailing dot of the last name on Windows', input: 'C:\\Users\\me\\proj\\a.txt.', root: 'C:\\Users\\me\\proj', host: 'win32', verdict: 'inside', path: 'C:\\Users\\me\\proj\\a.txt' },

  // ---- macOS: /tmp, /var and /etc are links into /private (modelcontextprotocol/servers #3253; sandbox-runtime #596)
  // the real spelling against a root given by its link
  { name: 'macOS: /private/tmp is /tmp', input: '/private/tmp/proj/a.txt', root: '/tmp/proj', host: 'darwin', verdict: 'inside', path: '/tmp/proj/a.txt', aliased: true },
  // the link's spelling against the real root
  { name: 'macOS: /tmp is /private/tmp', input: 'file:///tmp/proj/a.txt', root: 'file:///private/tmp/proj', host: 'darwin', verdict: 'inside', path: '/private/tmp/proj/a.txt', aliased: true },
  // /var/folders (the per-user temporary folder)
  { name: 'macOS: /private/var/folders', input: '/private/var/folders/xy/T/proj/a', root: '/var/folders/xy/T/proj', host: 'darwin', verdict: 'inside', path: '/var/folders/xy/T/proj/a', aliased: true },
  // case folds on macOS, the alias too
  { name: 'macOS: /PRIVATE/TMP', input: '/PRIVATE/TMP/proj/a', root: '/tmp/proj', host: 'darwin', verdict: 'inside', aliased: true },
  // an NFD name after the alias
  { name: 'macOS: NFD after /private', input: '/private/tmp/proj/cafe\u0301', root: '/tmp/proj', host: 'darwin', verdict: 'inside', aliased: true },
  // iCloud Drive as Finder names it
  { name: 'macOS: iCloud Drive', input: '/Users/me/iCloud Drive/proj/a.txt', root: '/Users/me/Library/Mobile Documents/com~apple~CloudDocs/proj', host: 'darwin', verdict: 'inside', path: '/Users/me/Library/Mobile Documents/com~apple~CloudDocs/proj/a.txt', aliased: true },
  // iCloud Drive percent-encoded in a URI
  { name: 'macOS: iCloud Drive as a URI', input: 'file:///Users/me/iCloud%20Drive/proj/a.txt', root: '/Users/me/Library/Mobile Documents/com~apple~CloudDocs/proj', host: 'darwin', verdict: 'inside', aliased: true },
  // another user's iCloud Drive is not this root's
  { name: "macOS: another user's iCloud Drive", input: '/Users/you/iCloud Drive/proj/a.txt', root: '/Users/me/Library/Mobile Documents/com~apple~CloudDocs/proj', host: 'darwin', verdict: 'outside', code: 'ERR_OUTSIDE' },
  // /private/etc is /etc, and still outside the workspace
  { name: 'macOS: /private/etc stays outside', input: '/private/etc/passwd', root: '/tmp/proj', host: 'darwin', verdict: 'outside', code: 'ERR_OUTSIDE' },
  // a climb out through the alias is judged after it: outside
  { name: 'macOS: .. through /private', input: '/private/tmp/proj/../other/a', root: '/tmp/proj', host: 'darwin', verdict: 'outside', code: 'ERR_OUTSIDE', aliased: true },
  // Linux has no such links: /private/tmp is another folder
  { name: 'Linux: /private/tmp is not /tmp', input: '/private/tmp/proj/a', root: '/tmp/proj', host: 'linux', verdict: 'outside', code: 'ERR_OUTSIDE' },

  // ---- Spaces around an input
  // a URI with spaces around it: a parser drops them, a path keeps them; neither is taken
  { name: 'spaces around a URI', input: '  file:///tmp  ', root: '/tmp', host: 'linux', verdict: 'refused', code: 'ERR_PARSE', reason: /spaces or control characters before or after it/ },
  // a tab after a URI
  { name: 'a tab after a URI', input: 'file:///home/me/proj/a\t', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_PARSE' },
  // spaces before an absolute path would make it a folder named " " in the workspace
  { name: 'a space before an absolute path', input: ' /home/me/proj/x', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_PARSE', reason: /before an absolute path/ },
  // the same before a Windows drive path
  { name: 'a space before a drive path', input: ' C:\\Users\\me\\proj\\x', root: 'C:\\Users\\me\\proj', host: 'win32', verdict: 'refused', code: 'ERR_PARSE' },
  // four slashes on Linux: a share by RFC 8089, or a slip for three; neither is guessed, and the reason gives both
  { name: 'four slashes on Linux', input: 'file:////home/me/proj/x', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /if \/home\/me\/proj\/x is meant, send file:\/\/\/home\/me\/proj\/x/ },
  // a Windows device path on Linux
  { name: 'device path on Linux', input: '\\\\?\\C:\\x', root: '/home/me/proj', host: 'linux', verdict: 'refused', code: 'ERR_FOREIGN_PATH', reason: /device path/ },
  // a path's spaces are part of its name
  { name: 'spaces around a path', input: ' a.txt ', root: '/home/me/proj', host: 'linux', verdict: 'inside', path: '/home/me/proj/ a.txt ' },
];

describe('every spelling of a folder', () => {
  for (const row of rows) {
    test(row.name, () => {
      const t = trace(row.input, row.root, { platform: row.host, ...(row.spellings ? { spellings: row.spellings } : {}), ...(row.policy ? { policy: row.policy } : {}) });
      const said = `${row.input} on ${row.host}: ${t.verdict} ${t.code} at ${t.stage}: ${t.reason}`;
      assert.equal(t.verdict, row.verdict, said);
      assert.equal(t.code, row.code ?? null, said);
      if (row.path !== undefined) assert.equal(t.path, row.path, said);
      if (row.reason !== undefined) assert.match(t.reason, row.reason, said);
      const aliasRow = t.stages.find((stage) => stage.stage === 'alias');
      if (row.aliased) assert.equal(aliasRow?.status, 'note', `${said}: the alias stage converted it`);
      else if (aliasRow !== undefined) assert.equal(aliasRow.input, aliasRow.output, `${said}: the alias stage left it as it was`);
    });
  }
});

describe('inside WSL, on the real disk', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-wsl-')));
  const mountRoot = path.join(base, 'mnt');
  const project = path.join(mountRoot, 'c', 'Users', 'me', 'proj');
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, 'a.txt'), 'x');
  const spellings: Spellings = { wsl: { distro: 'Ubuntu', mountRoot: `${mountRoot}/` } };
  const root = prepareRoot(project, { platform: 'linux', fs: nodeFileSystem, spellings });

  test('a Windows path to a file of the workspace: refused, and "Did you mean" offers its /mnt spelling', () => {
    const t = withNearMisses(traceAgainst(root, 'C:\\Users\\me\\proj\\a.txt'), root);
    assert.equal(t.code, 'ERR_FOREIGN_PATH');
    assert.deepEqual(t.nearMisses, [{ path: path.join(project, 'a.txt'), uri: `file://${path.join(project, 'a.txt')}`, why: 'other-system' }]);
  });

  test('nothing is offered for a file that is not there, nor for one outside the workspace', () => {
    assert.deepEqual(withNearMisses(traceAgainst(root, 'C:\\Users\\me\\proj\\missing.txt'), root).nearMisses, []);
    fs.writeFileSync(path.join(mountRoot, 'c', 'Users', 'me', 'outside.txt'), 'x');
    assert.deepEqual(withNearMisses(traceAgainst(root, 'C:\\Users\\me\\outside.txt'), root).nearMisses, []);
  });

  test('a link inside the workspace is not followed out by the offer', () => {
    fs.symlinkSync(path.join(mountRoot, 'c', 'Users', 'me', 'outside.txt'), path.join(project, 'out-link'));
    assert.deepEqual(withNearMisses(traceAgainst(root, 'C:\\Users\\me\\proj\\out-link'), root).nearMisses, []);
  });

  test('without WSL, the same input has no offer and no /mnt in its reason', () => {
    const plain = prepareRoot(project, { platform: 'linux', fs: nodeFileSystem });
    const t = withNearMisses(traceAgainst(plain, 'C:\\Users\\me\\proj\\a.txt'), plain);
    assert.equal(t.code, 'ERR_FOREIGN_PATH');
    assert.deepEqual(t.nearMisses, []);
    assert.doesNotMatch(t.reason, /\/mnt\//);
  });
});

describe('a granted workspace named by another spelling is the same workspace', () => {
  const granted = (root: string, platform: Platform, spellings?: Spellings) => {
    const prepared = prepareRoot(root, { platform, ...(spellings ? { spellings } : {}) });
    assert.ok(prepared.ok, root);
    return prepared;
  };
  // Imported here, not at the top: the shared grant rules are the server's and the inspector's.
  const { sameWorkspace } = require('../../src/shared/grants.js') as typeof import('../../src/shared/grants.js');

  test("macOS: /private/tmp/proj names the workspace granted as /tmp/proj, and the reverse", () => {
    assert.equal(sameWorkspace(granted('/tmp/proj', 'darwin'), 'file:///private/tmp/proj'), true);
    assert.equal(sameWorkspace(granted('/private/tmp/proj', 'darwin'), '/tmp/proj'), true);
    assert.equal(sameWorkspace(granted('/tmp/proj', 'darwin'), '/private/tmp/proj/sub'), false, 'a folder inside is not the workspace');
    assert.equal(sameWorkspace(granted('/tmp/proj', 'linux'), '/private/tmp/proj'), false, 'Linux has no such link');
  });

  test("Windows: \\\\wsl$ and \\\\wsl.localhost, a mapped drive and its share", () => {
    assert.equal(sameWorkspace(granted('\\\\wsl.localhost\\Ubuntu\\home\\me\\proj', 'win32'), 'file://wsl$/Ubuntu/home/me/proj'), true);
    assert.equal(sameWorkspace(granted('\\\\wsl.localhost\\Ubuntu\\home\\me\\proj', 'win32'), 'file://wsl$/Debian/home/me/proj'), false);
    const mapped: Spellings = { mappedDrives: { 'Z:': '\\\\fs1\\team' } };
    assert.equal(sameWorkspace(granted('Z:\\proj', 'win32', mapped), 'file://fs1/team/proj'), true);
    assert.equal(sameWorkspace(granted('Z:\\proj', 'win32'), 'file://fs1/team/proj'), false, 'without the mapping, a share is refused');
  });
});
