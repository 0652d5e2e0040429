// The refusal log across the sandbox wall: the launcher takes only refusal records from inside,
// bounds them as the log always does, and acknowledges every line, forged ones included.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { launcherAnswers } from '../../src/server/launch/launcherChannel.js';
import { parseChannelLine, relayRefusals } from '../../src/server/refusals/refusalChannel.js';
import { tagOf, type Writer } from '../../src/server/fs/index.js';
import { MAX_LOG_LINE_BYTES, RefusalLog, type RefusalRecord } from '../../src/server/refusals/refusalLog.js';
import { eventually } from '../patience.js';

const record = (n: number): RefusalRecord => ({
  tool: 'read_text_file',
  time: new Date(0).toISOString(),
  workspaceUri: 'file:///ws',
  input: `../outside-${n}.txt`,
  code: 'ERR_OUTSIDE',
  stage: 'containment',
  reason: 'outside',
  trace: null,
});

/** The launcher's end of a channel: lines pushed in as the server inside would write them, acknowledgements collected. */
function channel(): { end: Duplex; acks: () => number } {
  let acks = 0;
  const end = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      acks += chunk.length;
      done();
    },
  });
  return { end, acks: () => acks };
}

async function until(condition: () => boolean): Promise<void> {
  await eventually(() => assert.ok(condition()), String(condition));
}

describe('the launcher\'s end of the refusal channel', () => {
  let base: string;
  before(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-channel-'));
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  test('a refusal record, a not-found record or a note is taken; anything else is not', () => {
    assert.deepEqual(parseChannelLine(JSON.stringify(record(1))), { record: record(1) });
    const notFound: RefusalRecord = { ...record(1), event: 'not-found', code: 'ENOENT', stage: 'realpath', reason: 'x.md does not exist. Did you mean X.md?' };
    assert.deepEqual(parseChannelLine(JSON.stringify(notFound)), { record: notFound });
    // The sandboxed server's questions reach the log written outside too.
    const asked: RefusalRecord = { ...record(1), event: 'asked', code: 'ERR_SECRET', stage: 'secrets', reason: 'Asks first: reading ".env" needs the person\'s consent' };
    assert.deepEqual(parseChannelLine(JSON.stringify(asked)), { record: asked });
    assert.deepEqual(parseChannelLine(JSON.stringify({ time: 't', note: '3 refusals not logged' })), { note: '3 refusals not logged' });
    for (const forged of [
      'not json',
      '[1,2]',
      JSON.stringify({ ...record(1), code: 'ERR_EVERYTHING_IS_FINE' }),
      // An event is its own code, and no other.
      JSON.stringify({ ...record(1), code: 'ENOENT' }),
      JSON.stringify({ ...record(1), event: 'not-found' }),
      JSON.stringify({ ...record(1), event: 'asked' }),
      JSON.stringify({ ...record(1), event: 'everything-fine', code: 'ENOENT' }),
      JSON.stringify({ ...record(1), trace: [] }),
      JSON.stringify({ ...record(1), input: 42 }),
      JSON.stringify({ ...record(1), truncated: false }),
      JSON.stringify({ time: 't', note: 'x', extra: 1 }),
    ]) {
      assert.equal(parseChannelLine(forged), undefined, forged);
    }
  });

  test('records are written, forged and over-long lines are dropped and counted in a note, and every line is acknowledged', async () => {
    const file = path.join(base, 'relayed.jsonl');
    const { end, acks } = channel();
    relayRefusals(end, new RefusalLog(file, 1024 * 1024, (error) => assert.fail(error)));
    end.push(`${JSON.stringify(record(1))}\n${JSON.stringify({ ...record(2), code: 'ERR_FORGED' })}\n`);
    end.push(`${'x'.repeat(MAX_LOG_LINE_BYTES + 10)}`);
    end.push(`${'y'.repeat(100)}\n${JSON.stringify(record(3))}\n`);
    await until(() => acks() === 4);
    await until(() => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length >= 3);
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { input?: string; note?: string });
    assert.deepEqual(lines.flatMap((line) => (line.input === undefined ? [] : [line.input])), ['../outside-1.txt', '../outside-3.txt']);
    const notes = lines.flatMap((line) => (line.note === undefined ? [] : [line.note]));
    assert.ok(notes.some((note) => /not refusal records/.test(note)), JSON.stringify(notes));
    const rejected = notes.map((note) => Number(/^(\d+) lines/.exec(note)?.[1] ?? 0)).reduce((a, b) => a + b, 0);
    assert.equal(rejected, 2, 'the forged line and the over-long one');
  });

  test('a flood from inside stays within the log\'s bounds: rotation at the limit, whatever the server inside sends', async () => {
    const file = path.join(base, 'flood.jsonl');
    const { end, acks } = channel();
    relayRefusals(end, new RefusalLog(file, 4096, (error) => assert.fail(error)));
    const huge = { ...record(0), reason: 'r'.repeat(50_000) };
    for (let n = 1; n <= 60; n += 1) end.push(`${JSON.stringify(n % 10 === 0 ? huge : record(n))}\n`);
    await until(() => acks() === 60);
    assert.ok(fs.statSync(file).size <= 4096, `the log is ${fs.statSync(file).size} bytes`);
    assert.ok(fs.statSync(`${file}.1`).size <= 4096, `the rotated log is ${fs.statSync(`${file}.1`).size} bytes`);
    assert.match(fs.readFileSync(file, 'utf8'), /outside-59\.txt/);
  });
});

describe('the question about the workspaces, on the same channel', () => {
  test('a `?` line is answered at once with W and the letters, apart from acknowledgements; a change is said unasked with S', async () => {
    let written = '';
    const end = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    let notice: ((letters: string) => void) | undefined;
    let letters = 'om';
    relayRefusals(
      end,
      new RefusalLog(undefined, 1024, (error) => assert.fail(error)),
      launcherAnswers(end, {
        workspaces: {
          status: () => letters,
          watch: (callback) => (notice = callback),
        },
      }),
    );
    end.push('?\n');
    await until(() => written.includes('W'));
    assert.equal(written, 'Wom\n');
    letters = 'gm';
    notice!(letters);
    assert.equal(written, 'Wom\nSgm\n');
    end.push(`${JSON.stringify(record(1))}\n?\n`);
    await until(() => written.includes('Wgm\n'));
    // The record's acknowledgement is a bare newline, which an answer's W sets apart.
    await until(() => written.replace(/[WS][a-z]*\n/g, '') === '\n');
  });
});

describe('the question whether a writer lives, on the same channel', () => {
  test('an `L` line with a writer\'s tag is answered at once with L and a (alive), d (gone) or u (cannot tell); a malformed one is answered u', async () => {
    let written = '';
    const end = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const asked: Writer[] = [];
    relayRefusals(
      end,
      new RefusalLog(undefined, 1024, (error) => assert.fail(error)),
      launcherAnswers(end, {
        writerAlive: (writer) => {
          asked.push(writer);
          return writer.pid === 1 ? true : writer.pid === 2 ? false : undefined;
        },
      }),
    );
    const tag = (pid: number) => tagOf({ pid, namespace: 4026531836, started: 77 });
    end.push(`L${tag(1)}\nL${tag(2)}\nL${tag(3)}\nLnot a tag\nL${'1'.repeat(200)}-1-1\n`);
    await until(() => written.split('\n').length > 5);
    assert.equal(written, 'La\nLd\nLu\nLu\nLu\n');
    assert.deepEqual(asked.map((writer) => writer.pid), [1, 2, 3]);
    assert.deepEqual(asked[0], { pid: 1, namespace: 4026531836, started: 77 });
  });
});
