// The source has no import cycles, type-only ones included: each layer reads only the ones below it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const SOURCE = path.resolve(__dirname, '../../src');
const IMPORT = /^(?:import|export)\s+(?:type\s+)?[^;]*?from\s+'(\.[^']+)'/gm;

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

test('no import cycles in src/', () => {
  const files = new Set(sourceFiles(SOURCE));
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((match) => path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '.ts')).filter((target) => files.has(target));
    imports.set(file, targets);
  }
  assert.ok(imports.size > 50, `only ${imports.size} files found`);
  // Depth first; a file met again while it is still on the path closes a cycle.
  const done = new Set<string>();
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]) => {
    if (done.has(file)) return;
    const at = trail.indexOf(file);
    if (at !== -1) {
      cycles.push([...trail.slice(at), file].map((entry) => path.relative(SOURCE, entry)).join(' -> '));
      return;
    }
    for (const target of imports.get(file)!) visit(target, [...trail, file]);
    done.add(file);
  };
  for (const file of files) visit(file, []);
  assert.deepEqual(cycles, []);
});
