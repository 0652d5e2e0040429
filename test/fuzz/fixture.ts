// The real tree the Linux fuzzing runs against: a workspace full of links (inside to inside,
// inside to outside, dangling, loops, chains), a sibling whose name starts with the workspace's,
// and folders whose names differ only in case or in Unicode normalisation.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

export const NFC = 'caf\u00e9';
export const NFD = 'cafe\u0301';

export interface Fixture {
  /** The temp folder, by its real path. */
  readonly base: string;
  /** Roots to judge against, each as a path and as a URI: the plain workspace, one reached through a linked parent, and ones whose names have case and Unicode twins. */
  readonly roots: readonly string[];
  /** Names that occur in the tree, for the generators to build requests from. */
  readonly names: readonly string[];
  remove(): void;
}

export function buildFixture(): Fixture {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-oracle-')));
  const at = (...names: string[]) => path.join(base, ...names);
  const dir = (...names: string[]) => fs.mkdirSync(at(...names), { recursive: true });
  const file = (text: string, ...names: string[]) => fs.writeFileSync(at(...names), text);
  const link = (target: string, ...names: string[]) => fs.symlinkSync(target, at(...names));

  dir('ws', 'sub', 'deeper');
  file('inside\n', 'ws', 'notes.md');
  file('inside\n', 'ws', 'sub', 'file.txt');
  file('inside\n', 'ws', 'sub', 'deeper', 'x.txt');
  dir('ws', 'c');
  file('inside\n', 'ws', 'c', 'file.txt');
  dir('ws', 'Sub'); // a case twin of sub, inside
  dir('ws', NFC); // Unicode twins, inside
  dir('ws', NFD);
  dir('ws-evil');
  file('secret\n', 'ws-evil', 'secret.md');
  dir('WS'); // a case twin of the root itself
  file('secret\n', 'WS', 'notes.md');
  dir('outside', 'dir');
  file('secret\n', 'outside', 'secret.txt');

  link('sub', 'ws', 'inner'); // inside to inside
  link(at('ws', 'sub'), 'ws', 'abs-inner'); // inside to inside, absolute target
  link('sub/deeper', 'ws', 'deep'); // two names deep: deep/../.. climbs differently by links than by names
  link('b', 'ws', 'a'); // a chain inside: a -> b -> c/
  link('c/', 'ws', 'b');
  link('../outside', 'ws', 'escape'); // inside to outside
  link('../outside/secret.txt', 'ws', 'escape-file');
  link('hop2', 'ws', 'hop1'); // a chain whose last hop leaves
  link('../outside', 'ws', 'hop2');
  link('../ws-evil', 'ws', 'evil'); // to the sibling prefix
  link('../ws/sub', 'ws', 'out-and-back');
  link('missing-name', 'ws', 'dangling-in'); // dangling, inside
  link('../nowhere', 'ws', 'dangling-out'); // dangling, outside
  link('escape/missing', 'ws', 'dangling-via-escape');
  link('missing-name/../escape', 'ws', 'through-missing'); // climbs back out of a name that does not exist
  link('l2', 'ws', 'l1'); // a loop
  link('l1', 'ws', 'l2');
  link('self', 'ws', 'self');
  link('..', 'ws', 'up');
  link('.', 'ws', 'here');
  link('/', 'ws', 'slash');
  link('ws', 'to-ws'); // outside, pointing in

  dir(NFC); // an NFC root whose NFD twin is another folder on Linux
  file('inside\n', NFC, 'file.txt');
  dir(NFD);
  file('secret\n', NFD, 'secret.txt');
  dir('App'); // a root whose lower-case twin is another folder
  file('inside\n', 'App', 'x');
  dir('app');
  file('secret\n', 'app', 'x');
  dir('real-parent', 'ws'); // a root reached through a linked parent
  file('inside\n', 'real-parent', 'ws', 'file.txt');
  link('file.txt', 'real-parent', 'ws', 'alias');
  link('../../outside', 'real-parent', 'ws', 'escape');
  link('real-parent', 'link-parent');

  const rootPaths = [at('ws'), at('link-parent', 'ws'), at(NFC), at('App')];
  const roots = [...rootPaths, ...rootPaths.map((root) => pathToFileURL(root).href)];
  const names = [
    'ws', 'ws-evil', 'WS', 'outside', 'secret.txt', 'secret.md', 'notes.md', 'sub', 'Sub', 'deeper', 'x.txt', 'file.txt', 'c', 'dir',
    'inner', 'abs-inner', 'deep', 'a', 'b', 'escape', 'escape-file', 'hop1', 'hop2', 'evil', 'out-and-back', 'dangling-in',
    'dangling-out', 'dangling-via-escape', 'through-missing', 'l1', 'l2', 'self', 'up', 'here', 'slash', 'to-ws', NFC, NFD, 'App', 'app', 'x',
    'real-parent', 'link-parent', 'alias', 'new.txt', 'missing-name', 'nowhere', 'etc', 'passwd',
  ];
  return { base, roots, names, remove: () => fs.rmSync(base, { recursive: true, force: true }) };
}
