// audit_workspace on a tree anyone can commit, through the built server with the sandbox off and
// on: what an audit keeps is bounded by count and by bytes however many findings the tree holds,
// and no other call waits for an audit, however many run.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { auditWorkspace, findingBytes, MAX_KEPT_FINDING_BYTES, MAX_KEPT_FINDINGS, type Finding } from '../../src/audit/audit.js';
import { MAX_AUDIT_ENTRIES, MAX_HEAVY_CALLS, MAX_LONG_CALLS } from '../../src/server/limits.js';
import { makeUnportable, nestLongNames } from '../audit/fixture.js';
import { fileUri, makeFastTempDir, removeDir } from './helpers.js';
import { answerText, RawServer, type RawMessage } from './rawServer.js';

/** Enough audits to take every slot an audit could take, with more waiting. */
const AUDITS = MAX_HEAVY_CALLS + MAX_LONG_CALLS;
/** Generous: an audit of the largest walk a call may ask for, on a loaded machine. */
const AUDIT_TIMEOUT_MS = 600_000;

let base: string;
/** 14 folders of 250-character names, then one file more than the findings' bytes bound holds. */
let deepWs: string;
let fit: number;
/** As many entries as one audit may examine, and a file of 6 bytes. */
let wideWs: string;

before(async () => {
  base = makeFastTempDir('bi-audit-server-');
  deepWs = path.join(base, 'deep');
  const deep = nestLongNames(deepWs);
  makeUnportable(deep, 0, 1);
  const [first] = (await auditWorkspace(deepWs)).findings;
  assert.ok(first, 'one finding');
  fit = Math.floor(MAX_KEPT_FINDING_BYTES / findingBytes(first));
  assert.ok(fit < MAX_KEPT_FINDINGS, 'the bytes bound binds first');
  makeUnportable(deep, 1, fit + 1);
  wideWs = path.join(base, 'wide');
  makeUnportable(wideWs, 0, MAX_AUDIT_ENTRIES);
  fs.writeFileSync(path.join(wideWs, 'small.txt'), 'small\n');
});
after(() => removeDir(base));

interface AuditResult {
  readonly findings: Finding[];
  readonly notKept: Record<string, number>;
  readonly omitted: number;
}

for (const sandboxed of [false, true]) {
  describe(`audit_workspace, sandbox ${sandboxed ? 'auto (on where bubblewrap runs)' : 'off'}`, () => {
    test(`findings of 3.5 KB paths: as many kept as ${MAX_KEPT_FINDING_BYTES.toLocaleString('en-US')} bytes hold, the rest counted`, { timeout: 120_000 }, async () => {
      const W = fileUri(deepWs);
      const server = RawServer.start(['--workspace', W], { sandboxed });
      try {
        await server.initialize();
        const answer = await server.call('audit_workspace', { workspaceUri: W, maxEntries: MAX_AUDIT_ENTRIES }, AUDIT_TIMEOUT_MS);
        assert.equal(answer.result?.isError, undefined, answerText(answer));
        const result = answer.result!.structuredContent as AuditResult;
        assert.equal(result.findings.length, fit);
        assert.deepEqual(result.notKept, { 'not-portable': 1 });
        assert.equal(result.omitted, 0, 'every finding kept is in the answer');
        assert.ok(result.findings.reduce((sum, finding) => sum + findingBytes(finding), 0) <= MAX_KEPT_FINDING_BYTES);
        assert.match(answerText(answer), new RegExp(`, ${fit + 1} findings\\.$`, 'm'));
        assert.match(answerText(answer), /^not-portable \(\d+, 1 not kept\):$/m);
        assert.match(answerText(answer), /^1 finding was not kept \(not-portable 1\): an audit keeps at most /m);
      } finally {
        server.kill();
      }
    });

    test(`a read sent while ${AUDITS} audits of ${MAX_AUDIT_ENTRIES.toLocaleString('en-US')} entries run or wait is answered before any of them`, { timeout: 2 * AUDIT_TIMEOUT_MS }, async () => {
      const W = fileUri(wideWs);
      const server = RawServer.start(['--workspace', W], { sandboxed });
      try {
        await server.initialize();
        const answered: string[] = [];
        const audits = Array.from({ length: AUDITS }, (_, index) => {
          const id = server.newId();
          const answer = server.answerTo(id, AUDIT_TIMEOUT_MS).then((message) => {
            answered.push(`audit ${index}`);
            return message;
          });
          const params = { name: 'audit_workspace', arguments: { workspaceUri: W, maxEntries: MAX_AUDIT_ENTRIES }, _meta: { progressToken: `audit-${index}` } };
          server.send({ id, method: 'tools/call', params });
          return answer;
        });
        // The first audits are walking: each has reported progress part way.
        const progressOf = (index: number) => (message: RawMessage) =>
          message.method === 'notifications/progress' && (message as { params?: { progressToken?: unknown } }).params?.progressToken === `audit-${index}`;
        for (let index = 0; index < Math.min(MAX_HEAVY_CALLS, MAX_LONG_CALLS); index++) await server.waitForUnmatched(progressOf(index), AUDIT_TIMEOUT_MS);
        assert.equal(answered.length, 0, 'no audit has finished yet');
        const read = await server.call('read_text_file', { workspaceUri: W, path: 'small.txt' }, AUDIT_TIMEOUT_MS);
        answered.push('read');
        assert.equal(read.result?.isError, undefined, answerText(read));
        const results = await Promise.all(audits);
        assert.equal(answered[0], 'read', `answered in this order: ${answered.join(', ')}`);
        for (const result of results) assert.equal(result.result?.isError, undefined, answerText(result));
      } finally {
        server.kill();
      }
    });
  });
}
