// Regressions named after the two CVEs of the reference filesystem MCP server
// (@modelcontextprotocol/server-filesystem), replayed end to end against this server over stdio
// with both SDK clients:
//   CVE-2025-53110, directory prefix bypass: an allowed folder /tmp/allowed and a sibling
//     /tmp/allowed_evil passed a `startsWith` check.
//   CVE-2025-53109, symlink escape: a link inside the allowed folder pointing outside was
//     followed; and where the target did not exist yet, the check fell back to the parent folder.
// Each attack reads, writes (a new file) and lists; each refusal is checked for its code and for
// what it gives back, and the folders outside are compared byte for byte before and after the
// writes. The OS sandbox is off (the helpers' default), so what refuses is containment itself.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  CLIENT_KINDS,
  connect,
  expectContent,
  expectRefusal,
  fileUri,
  makeTempDir,
  removeDir,
  snapshot,
  textOf,
  writeTree,
  type ExpectedRefusal,
  type Session,
  type ToolResult,
} from './helpers.js';

const SECRET = 'SECRET outside the allowed folder';

/** The outside file's content did not come back. */
function assertNoContent(result: ToolResult, what: string): void {
  assert.ok(!JSON.stringify(result).includes(SECRET), `${what}: the outside file's content came back`);
}

/** No name found outside came back (the calls that check this never send these names themselves). */
function assertNoNames(result: ToolResult, what: string): void {
  const answer = JSON.stringify(result);
  for (const name of ['secret.txt', 'deeper.txt']) assert.ok(!answer.includes(name), `${what}: ${name}, found outside, was named`);
}

/** A control: the allowed folder's own file is read, so the refusals below are the boundary's, not a broken session's. */
async function controlRead(call: (name: string, args: Record<string, unknown>) => Promise<ToolResult>): Promise<void> {
  const result = await call('read_text_file', { path: 'inside.txt' });
  expectContent(result, 'control: the allowed folder\'s own file');
  assert.equal(textOf(result), 'inside');
}

const outside: ExpectedRefusal = { code: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' };
const escape: ExpectedRefusal = { code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', verdict: 'outside' };

for (const { kind, version } of CLIENT_KINDS) {
  describe(`CVE-2025-53110, directory prefix bypass: allowed granted, allowed_evil beside it (${kind} client, ${version})`, () => {
    let base: string;
    let allowed: string;
    let evil: string;
    let W: string;
    let session: Session;
    const call = (name: string, args: Record<string, unknown>) => session.call(name, { workspaceUri: W, ...args });

    before(async () => {
      base = makeTempDir('bi-cve-53110-');
      allowed = path.join(base, 'allowed');
      evil = path.join(base, 'allowed_evil');
      writeTree(base, { 'allowed/inside.txt': 'inside', 'allowed_evil/secret.txt': SECRET, 'allowed_evil/dir/deeper.txt': SECRET });
      W = fileUri(allowed);
      session = await connect(kind, { inProcess: true, args: ['--workspace', W] });
    });
    after(async () => {
      await session?.close();
      removeDir(base);
    });

    /** The sibling's file in every spelling a client may send; each shares the allowed folder's text prefix. */
    const spellings = () => [path.join(evil, 'secret.txt'), fileUri(path.join(evil, 'secret.txt')), '../allowed_evil/secret.txt', `${W}/../allowed_evil/secret.txt`];

    test('CVE-2025-53110: reading a file in allowed_evil is refused ERR_OUTSIDE, in every spelling', async () => {
      await controlRead(call);
      for (const target of spellings()) {
        const resolved = target.startsWith('file:') ? fileURLToPath(target) : path.resolve(allowed, target);
        assert.ok(resolved.startsWith(allowed), `${target}: the vulnerable startsWith check would have let it through`);
        const result = await call('read_text_file', { path: target });
        expectRefusal(result, outside, `read_text_file ${target}`);
        assertNoContent(result, `read_text_file ${target}`);
      }
      assertNoContent(await call('read_multiple_files', { paths: spellings() }), 'read_multiple_files');
    });

    test('CVE-2025-53110: writing a new file into allowed_evil is refused ERR_OUTSIDE; nothing there changes', async () => {
      const before = snapshot(evil);
      for (const target of [path.join(evil, 'planted.txt'), fileUri(path.join(evil, 'planted.txt')), '../allowed_evil/planted.txt', '../allowed_evil/secret.txt']) {
        expectRefusal(await call('write_file', { path: target, content: 'planted' }), outside, `write_file ${target}`);
      }
      expectRefusal(await call('create_directory', { path: '../allowed_evil/newdir' }), outside, 'create_directory in the sibling');
      assert.deepEqual(snapshot(evil), before, 'allowed_evil is byte for byte as it was, and no temporary file was left');
    });

    test('CVE-2025-53110: listing allowed_evil is refused ERR_OUTSIDE and names nothing in it', async () => {
      for (const [tool, extra] of [['list_directory', {}], ['list_directory_with_sizes', {}], ['directory_tree', {}], ['search_files', { pattern: 'secret' }]] as const) {
        for (const target of [evil, fileUri(evil), '../allowed_evil']) {
          const result = await call(tool, { path: target, ...extra });
          expectRefusal(result, outside, `${tool} ${target}`);
          assertNoContent(result, `${tool} ${target}`);
          assertNoNames(result, `${tool} ${target}`);
        }
      }
    });

    test('CVE-2025-53110: allowed_evil is no granted workspace either: grants are exact, not prefixes', async () => {
      for (const workspaceUri of [fileUri(evil), `${fileUri(evil)}/`, `${W}_evil`]) {
        const result = await session.call('read_text_file', { workspaceUri, path: 'secret.txt' });
        expectRefusal(result, { code: 'ERR_NOT_GRANTED', stage: 'server', verdict: 'refused' }, `workspaceUri ${workspaceUri}`);
        assertNoContent(result, `workspaceUri ${workspaceUri}`);
      }
    });
  });

  describe(`CVE-2025-53109, symlink escape: links inside the allowed folder pointing outside (${kind} client, ${version})`, () => {
    let base: string;
    let allowed: string;
    let outsideDir: string;
    let evil: string;
    let W: string;
    let session: Session;
    const call = (name: string, args: Record<string, unknown>) => session.call(name, { workspaceUri: W, ...args });
    const outsideTrees = () => ({ outside: snapshot(outsideDir), evil: snapshot(evil), names: fs.readdirSync(base).sort() });

    before(async () => {
      base = makeTempDir('bi-cve-53109-');
      allowed = path.join(base, 'allowed');
      outsideDir = path.join(base, 'outside');
      evil = path.join(base, 'allowed_evil');
      writeTree(base, { 'allowed/inside.txt': 'inside', 'outside/secret.txt': SECRET, 'outside/dir/deeper.txt': SECRET, 'allowed_evil/secret.txt': SECRET });
      const link = (target: string, name: string) => fs.symlinkSync(target, path.join(allowed, name));
      link(path.join(outsideDir, 'secret.txt'), 'link-file'); // to one outside file, absolute, as in the published proof of concept
      link(outsideDir, 'link-dir'); // to an outside folder
      link('../outside', 'link-rel'); // the same, relative
      link(path.join(outsideDir, 'not-yet'), 'not-yet'); // to an outside folder that does not exist yet
      link('../allowed_evil', 'link-evil'); // both CVEs at once: the real path only shares the allowed folder's text prefix
      W = fileUri(allowed);
      session = await connect(kind, { inProcess: true, args: ['--workspace', W] });
    });
    after(async () => {
      await session?.close();
      removeDir(base);
    });

    test('CVE-2025-53109: reading through a link to an outside file or folder is refused ERR_SYMLINK_ESCAPE and returns nothing of it', async () => {
      await controlRead(call);
      const targets = ['link-file', 'link-dir/secret.txt', 'link-rel/secret.txt', 'link-dir/dir/deeper.txt', 'link-evil/secret.txt', fileUri(path.join(allowed, 'link-file'))];
      for (const target of targets) {
        for (const tool of ['read_text_file', 'read_media_file']) {
          const result = await call(tool, { path: target });
          expectRefusal(result, escape, `${tool} ${target}`);
          assertNoContent(result, `${tool} ${target}`);
        }
      }
      // get_file_info describes a link at the last name as the link itself; below a link it must refuse.
      for (const target of targets.filter((t) => t.includes('/') && !t.startsWith('file:'))) {
        expectRefusal(await call('get_file_info', { path: target }), escape, `get_file_info ${target}`);
      }
      const many = await call('read_multiple_files', { paths: targets });
      assertNoContent(many, 'read_multiple_files');
      const sections = expectContent(many, 'read_multiple_files').split('\n---\n');
      assert.equal(sections.length, targets.length);
      for (const section of sections) assert.match(section, /: Refused \(ERR_SYMLINK_ESCAPE at realpath\)/, 'read_multiple_files');
    });

    test('CVE-2025-53109: listing a link to an outside folder is refused ERR_SYMLINK_ESCAPE and names nothing in it', async () => {
      for (const [tool, extra] of [['list_directory', {}], ['list_directory_with_sizes', {}], ['directory_tree', {}], ['search_files', { pattern: 'secret' }]] as const) {
        for (const target of ['link-dir', 'link-rel', 'link-evil', 'link-dir/dir']) {
          const result = await call(tool, { path: target, ...extra });
          expectRefusal(result, escape, `${tool} ${target}`);
          assertNoContent(result, `${tool} ${target}`);
          assertNoNames(result, `${tool} ${target}`);
        }
      }
    });

    test('CVE-2025-53109: writing a new file through a link to an outside folder is refused ERR_SYMLINK_ESCAPE; nothing is created outside', async () => {
      const before = outsideTrees();
      // The file does not exist yet, so only its folder can be resolved: the link's outside target.
      for (const target of ['link-dir/planted.txt', 'link-rel/planted.txt', 'link-dir/dir/planted.txt', 'link-evil/planted.txt', fileUri(path.join(allowed, 'link-dir', 'planted.txt'))]) {
        expectRefusal(await call('write_file', { path: target, content: 'planted' }), escape, `write_file ${target}`);
      }
      expectRefusal(await call('write_file', { path: 'link-dir/secret.txt', content: 'overwritten' }), escape, 'overwriting through the link');
      expectRefusal(await call('create_directory', { path: 'link-dir/newdir' }), escape, 'create_directory through the link');
      assert.deepEqual(outsideTrees(), before, 'the outside folders are byte for byte as they were, and no temporary file was left');
    });

    test('CVE-2025-53109, the target does not exist yet: writing under a link to a missing outside folder is refused ERR_SYMLINK_ESCAPE, and the folder is never made', async () => {
      const before = outsideTrees();
      expectRefusal(await call('write_file', { path: 'not-yet/planted.txt', content: 'planted' }), escape, 'write_file under the dangling link');
      expectRefusal(await call('create_directory', { path: 'not-yet/sub' }), escape, 'create_directory under the dangling link');
      expectRefusal(await call('read_text_file', { path: 'not-yet/planted.txt' }), escape, 'read_text_file under the dangling link');
      expectRefusal(await call('list_directory', { path: 'not-yet' }), escape, 'list_directory of the dangling link');
      assert.equal(fs.existsSync(path.join(outsideDir, 'not-yet')), false, 'the missing outside folder was not created');
      assert.deepEqual(outsideTrees(), before, 'nothing outside changed');
    });
  });
}
