// read_text_file's line windows, compared with `sed -n` on the same files: the first, a middle and
// the last window, a negative offset, past the end, CRLF, no final newline, numbered lines, and a 1 GiB file read within a memory bound.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { connect, expectContent, makeFastTempDir, makeTempDir, removeDir, textOf, writeTree, type Session } from './helpers.js';

/** Lines `from` to `to` (1-based, inclusive) as sed prints them, without the newline ending the last. */
function sed(file: string, from: number, to: number | '$'): string {
  return execFileSync('sed', ['-n', `${from},${to}p`, file], { encoding: 'utf8' }).replace(/\n$/, '');
}

const LINES = Array.from({ length: 120 }, (_, i) => `line ${i + 1}: ${'é'.repeat(i % 7)}`);

describe('read_text_file line windows', () => {
  let base: string;
  let ws: string;
  let session: Session;
  let workspaceUri: string;

  before(async () => {
    base = makeFastTempDir('bi-windows-');
    ws = path.join(base, 'ws');
    writeTree(base, {
      'ws/lines.txt': `${LINES.join('\n')}\n`,
      'ws/crlf.txt': `${LINES.slice(0, 10).join('\r\n')}\r\n`,
      'ws/no-final-newline.txt': LINES.slice(0, 10).join('\n'),
      'ws/empty.txt': '',
      'ws/image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
    });
    workspaceUri = pathToFileURL(ws).href;
    session = await connect('v1', { args: ['--workspace', workspaceUri], inProcess: true });
  });
  after(async () => {
    await session.close();
    removeDir(base);
  });

  const read = async (file: string, args: Record<string, unknown>) => expectContent(await session.call('read_text_file', { workspaceUri, path: file, ...args }), `${file} ${JSON.stringify(args)}`);

  // [file, our window, sed's first and last line]
  const ROWS: readonly (readonly [string, Record<string, unknown>, number, number | '$'])[] = [
    ['lines.txt', { offset: 0, limit: 10 }, 1, 10],
    ['lines.txt', { offset: 50, limit: 7 }, 51, 57],
    ['lines.txt', { offset: 110, limit: 10 }, 111, 120],
    ['lines.txt', { offset: 115, limit: 50 }, 116, 120],
    ['lines.txt', { offset: 100 }, 101, '$'],
    ['lines.txt', { offset: -5 }, 116, 120],
    ['lines.txt', { offset: -10, limit: 3 }, 111, 113],
    ['lines.txt', { offset: -500 }, 1, '$'],
    ['lines.txt', { limit: 1 }, 1, 1],
    ['crlf.txt', { offset: 2, limit: 3 }, 3, 5],
    ['crlf.txt', { offset: -2 }, 9, 10],
    ['no-final-newline.txt', { offset: 8 }, 9, 10],
    ['no-final-newline.txt', { offset: -1 }, 10, 10],
    // the reference server's head and tail, not listed but still taken
    ['lines.txt', { head: 3 }, 1, 3],
    ['lines.txt', { tail: 4 }, 117, 120],
  ];
  for (const [file, window, from, to] of ROWS) {
    test(`${file} ${JSON.stringify(window)} is sed -n ${from},${to}p`, async () => {
      assert.equal(await read(file, window), sed(path.join(ws, file), from, to));
    });
  }

  test('numbered lines: the file line number and a tab before each, from a window anywhere', async () => {
    const numbered = (from: number, to: number) => LINES.slice(from - 1, to).map((line, i) => `${from + i}\t${line}`).join('\n');
    assert.equal(await read('lines.txt', { offset: 50, limit: 3, lineNumbers: true }), numbered(51, 53));
    assert.equal(await read('lines.txt', { offset: -2, lineNumbers: true }), numbered(119, 120));
    assert.equal(await read('no-final-newline.txt', { lineNumbers: true }), LINES.slice(0, 10).map((line, i) => `${i + 1}\t${line}`).join('\n'));
  });

  test('a window past the end says so, with the lines the file has; an empty file has an empty window', async () => {
    for (const [file, offset, lines] of [['lines.txt', 120, 120], ['lines.txt', 500, 120], ['no-final-newline.txt', 10, 10]] as const) {
      const result = await session.call('read_text_file', { workspaceUri, path: file, offset, limit: 5 });
      assert.equal(result.isError, true, file);
      assert.equal(textOf(result), `Error (EINVAL): ${file} has ${lines} lines: offset ${offset} is past its end`);
    }
    assert.equal(await read('empty.txt', { offset: 0, limit: 5 }), '');
    assert.equal(await read('lines.txt', { offset: 119 }), LINES[119]);
  });

  test('a window of a file that is not text is refused, naming read_media_file', async () => {
    const result = await session.call('read_text_file', { workspaceUri, path: 'image.png', offset: 0, limit: 1 });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /ERR_NOT_TEXT.*read_media_file/s);
  });

  test('a limit below 1 is an error saying what to give', async () => {
    assert.match(textOf(await session.call('read_text_file', { workspaceUri, path: 'lines.txt', limit: 0 })), /limit must be 1 or more/);
  });

  test('a 1 GiB file: windows at its start, its end and past its middle, each read within 64 MiB of memory', async () => {
    // On disk, not in memory: text at both ends and a hole between, so the file takes a few KiB.
    const folder = makeTempDir('bi-windows-big-');
    const size = 1024 ** 3;
    const head = Array.from({ length: 1000 }, (_, i) => `head ${i + 1}`).join('\n');
    const tail = Array.from({ length: 1000 }, (_, i) => `tail ${i + 1}`).join('\n');
    const file = path.join(folder, 'big.log');
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, `${head}\n`, 0);
    fs.writeSync(fd, `\n${tail}\n`, size - Buffer.byteLength(`\n${tail}\n`));
    fs.closeSync(fd);
    const big = await connect('v1', { args: ['--workspace', pathToFileURL(folder).href], inProcess: true });
    try {
      const call = async (args: Record<string, unknown>) => expectContent(await big.call('read_text_file', { workspaceUri: pathToFileURL(folder).href, path: 'big.log', ...args }), JSON.stringify(args));
      global.gc?.();
      const before = process.memoryUsage();
      assert.equal(await call({ offset: 10, limit: 2 }), 'head 11\nhead 12');
      assert.equal(await call({ offset: -2 }), 'tail 999\ntail 1000');
      // Past the hole (its one line of NULs): the whole gigabyte is read through to count the lines.
      assert.equal(await call({ offset: 1001, limit: 2, lineNumbers: true }), '1002\ttail 1\n1003\ttail 2');
      assert.equal(await call({ offset: -1, lineNumbers: true }), '2001\ttail 1000');
      const grown = process.memoryUsage().rss - before.rss;
      assert.ok(grown < 64 * 1024 ** 2, `resident set grew by ${Math.round(grown / 1024 ** 2)} MiB`);
      const whole = await big.call('read_text_file', { workspaceUri: pathToFileURL(folder).href, path: 'big.log' });
      assert.match(textOf(whole), /EFBIG.*offset and limit/s, 'the whole file is more than one read: the error names the window');
    } finally {
      await big.close();
      removeDir(folder);
    }
  });
  test('head and tail with each other, or with a window, or not a count of lines, are errors that say so', async () => {
    for (const [args, said] of [
      [{ head: 2, tail: 2 }, /head and tail cannot both be given/],
      [{ head: 2, offset: 1 }, /head and tail are offset and limit/],
      [{ tail: 0 }, /tail must be a whole number of lines/],
      [{ head: 'x' }, /head must be a whole number of lines/],
    ] as const) {
      const result = await session.call('read_text_file', { workspaceUri, path: 'lines.txt', ...args });
      assert.equal(result.isError, true, JSON.stringify(args));
      assert.match(textOf(result), said);
    }
  });
});
