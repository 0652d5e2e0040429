// A file's times are written in arithmetic, not through Date: the two must never differ.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { isoTimeOfMs, isoTimeOfNs } from '../../src/server/tools/isoTime.js';

describe('isoTime', () => {
  test('writes every millisecond Date can hold as toISOString does', () => {
    const ms = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: 0, max: 253_402_300_800_000 + 86_400_000 }),
      // Around the edges of days, leap days, centuries and the years the shortcut leaves to Date.
      fc.tuple(fc.constantFrom(0, 951_782_400_000, 951_868_800_000, 4_107_542_400_000, 253_402_300_800_000, 253_402_300_799_999), fc.integer({ min: -86_400_001, max: 86_400_001 })).map(([at, by]) => at + by),
    );
    fc.assert(
      fc.property(ms, (value) => {
        assert.equal(isoTimeOfMs(value), new Date(value).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  test('rounds nanoseconds to the millisecond as Node\'s Stats dates do', () => {
    assert.equal(isoTimeOfNs(1_733_200_000_123_456_789n), '2024-12-03T04:26:40.123Z');
    assert.equal(isoTimeOfNs(1_733_200_000_123_500_001n), '2024-12-03T04:26:40.124Z');
    assert.equal(isoTimeOfNs(0n), '1970-01-01T00:00:00.000Z');
  });

  test('a time Date cannot hold is refused as Date refuses it', () => {
    assert.throws(() => isoTimeOfMs(8.64e15 + 1), RangeError);
    assert.throws(() => isoTimeOfMs(Number.NaN), RangeError);
  });
});
