import assert from 'node:assert/strict';
import { trace, type Platform, type Policy, type RefusalCode, type Trace, type FileSystemPort } from '../../src/core/index.js';

/** One row of a trace table: an input against a root and what must come out. */
export interface TraceRow {
  readonly name: string;
  readonly input: string;
  readonly root: string;
  readonly platform?: Platform;
  readonly policy?: Partial<Policy>;
  readonly verdict: Trace['verdict'];
  readonly code?: RefusalCode;
  readonly stage?: Trace['stage'];
  readonly path?: string;
  /** What the reason must say (it leads with what the input is). */
  readonly reason?: RegExp;
}

export function traceRow(row: TraceRow, fs?: FileSystemPort): Trace {
  const result = trace(row.input, row.root, {
    platform: row.platform ?? 'linux',
    ...(row.policy ? { policy: row.policy } : {}),
    ...(fs ? { fs } : {}),
  });
  const context = `${row.name}: ${JSON.stringify(row.input)} against ${row.root} -> ${result.verdict} ${result.code} at ${result.stage}: ${result.reason}`;
  assert.equal(result.verdict, row.verdict, context);
  assert.equal(result.code, row.code ?? null, context);
  if (row.stage) assert.equal(result.stage, row.stage, context);
  if (row.path !== undefined) assert.equal(result.path, row.path, context);
  if (row.reason !== undefined) assert.match(result.reason, row.reason, context);
  if (result.verdict !== 'inside') {
    assert.ok(result.reason.length > 20, `${row.name}: a reason a person can act on`);
    const refusing = result.stages.at(-1);
    if (result.stage !== 'root') assert.equal(refusing?.stage, result.stage, `${row.name}: the last stage run is the deciding one`);
    if (result.stage !== 'root') assert.equal(refusing?.status, 'refuse');
  } else {
    assert.equal(result.stage, 'containment');
    assert.ok(result.stages.every((stage) => stage.status !== 'refuse'));
  }
  return result;
}
