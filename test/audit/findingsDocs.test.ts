// The Problems panel links each finding's code to docs/findings.md#<kind>: every kind the audit can
// report has its heading there (the anchor), and the page names no kind the audit does not have.
// The page's order is the order in which an audit past its bounds keeps findings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FINDING_KINDS } from '../../src/audit/audit.js';

test('docs/findings.md has one heading per finding kind, each saying what to do', () => {
  const page = readFileSync(path.resolve(__dirname, '../../docs/findings.md'), 'utf8');
  const headings = [...page.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
  assert.deepEqual(headings, [...FINDING_KINDS]);
  for (const section of page.split(/^## /m).slice(1)) assert.match(section, /\nWhat to do: \S/, section.split('\n')[0]);
});
