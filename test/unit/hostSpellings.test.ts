// What the host says about its neighbours (src/host/spellings.ts), with the files it consults
// stood in for: WSL by its distribution name and its interop, where it mounts Windows' drives,
// and on Windows the drives whose root is really a share.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSpellings, WSL_INTEROP_ENTRY, wslMountRoot, type HostFiles } from '../../src/host/spellings.js';

function files(present: Readonly<Record<string, string>>, real: Readonly<Record<string, string>> = {}): HostFiles {
  return { exists: (path) => path in present, readText: (path) => present[path], realpathNative: (path) => real[path] };
}

test('inside WSL: the distribution from WSL_DISTRO_NAME, confirmed by the interop entry or socket', () => {
  assert.deepEqual(readSpellings('linux', { WSL_DISTRO_NAME: 'Ubuntu' }, files({ [WSL_INTEROP_ENTRY]: '' })), { wsl: { distro: 'Ubuntu', mountRoot: '/mnt/' } });
  assert.deepEqual(readSpellings('linux', { WSL_DISTRO_NAME: 'Debian', WSL_INTEROP: '/run/WSL/1_interop' }, files({ '/run/WSL/1_interop': '' })), { wsl: { distro: 'Debian', mountRoot: '/mnt/' } });
});

test('not WSL: the name without interop (a variable carried into a container), interop without the name, another platform', () => {
  assert.deepEqual(readSpellings('linux', { WSL_DISTRO_NAME: 'Ubuntu' }, files({})), {});
  assert.deepEqual(readSpellings('linux', { WSL_DISTRO_NAME: 'Ubuntu', WSL_INTEROP: '/run/WSL/gone' }, files({})), {});
  assert.deepEqual(readSpellings('linux', {}, files({ [WSL_INTEROP_ENTRY]: '' })), {});
  assert.deepEqual(readSpellings('darwin', { WSL_DISTRO_NAME: 'Ubuntu' }, files({ [WSL_INTEROP_ENTRY]: '' })), {});
});

test("/etc/wsl.conf's [automount] root moves the drives; another section's root does not", () => {
  assert.equal(wslMountRoot(undefined), '/mnt/');
  assert.equal(wslMountRoot('[automount]\nenabled = true\nroot = /win\n'), '/win/');
  assert.equal(wslMountRoot('[automount]\nroot = "/drives/"  # comment\n'), '/drives/');
  assert.equal(wslMountRoot('[network]\nroot = /elsewhere\n[automount]\noptions = "metadata"\n'), '/mnt/');
  const spellings = readSpellings('linux', { WSL_DISTRO_NAME: 'Ubuntu' }, files({ [WSL_INTEROP_ENTRY]: '', '/etc/wsl.conf': '[automount]\nroot=/w\n' }));
  assert.deepEqual(spellings, { wsl: { distro: 'Ubuntu', mountRoot: '/w/' } });
});

test('Windows: a drive whose root is really a share is a mapped drive; a local drive is not', () => {
  const present = { 'C:\\': '', 'Z:\\': '', 'Y:\\': '' };
  const real = { 'C:\\': 'C:\\', 'Z:\\': '\\\\fs1\\team\\', 'Y:\\': '\\\\?\\UNC\\nas\\media\\' };
  assert.deepEqual(readSpellings('win32', {}, files(present, real)), { mappedDrives: { 'Y:': '\\\\nas\\media', 'Z:': '\\\\fs1\\team' } });
  assert.deepEqual(readSpellings('win32', {}, files({ 'C:\\': '' }, { 'C:\\': 'C:\\' })), {});
});
