// The source has no import cycles, type-only ones included: each layer reads only the ones below it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { test } from 'node:test';

const BUILTINS = new Set(builtinModules);

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

// The server's layers, lowest first: each folder reads only its own and the ones before it.
const SERVER_LAYERS = ['fs', 'refusals', 'tools', 'protocol', 'launch'] as const;

function layerOf(file: string): number | undefined {
  const [top, layer] = path.relative(SOURCE, file).split(path.sep);
  return top === 'server' ? SERVER_LAYERS.indexOf(layer as (typeof SERVER_LAYERS)[number]) : undefined;
}

test('each layer of the server imports only the layers below it', () => {
  const upward: string[] = [];
  for (const file of sourceFiles(SOURCE)) {
    const own = layerOf(file);
    if (own === undefined || own === -1) continue;
    for (const match of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '.ts');
      const theirs = layerOf(target);
      if (theirs !== undefined && theirs > own) upward.push(`${path.relative(SOURCE, file)} -> ${path.relative(SOURCE, target)}`);
    }
  }
  assert.deepEqual(upward, []);
});

// The deciders are pure, as the core is: the platform, the disk and the configuration come in
// through their context, so each runs anywhere, simulated or on this machine's files.
test('the deciders import only the core, the shared tables, each other and pure packages: no node:, no vscode, no SDK', () => {
  const folder = path.join(SOURCE, 'deciders');
  const wrong: string[] = [];
  for (const file of fs.existsSync(folder) ? sourceFiles(folder) : []) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^(?:import|export)\s+(?:type\s+)?[^;]*?from\s+'([^']+)'/gm)) {
      const target = match[1]!;
      const resolved = target.startsWith('.') ? path.relative(SOURCE, path.resolve(path.dirname(file), target)) : target;
      const allowed = target.startsWith('.')
        ? /^(core|shared|deciders)\//.test(resolved.split(path.sep).join('/'))
        : !/^(node:|vscode$|@modelcontextprotocol\/)/.test(target) && !BUILTINS.has(target.split('/')[0]!);
      if (!allowed) wrong.push(`${path.relative(SOURCE, file)} -> ${target}`);
    }
    if (/\bprocess\.(platform|env|cwd)\b/.test(text)) wrong.push(`${path.relative(SOURCE, file)} reads the process`);
  }
  assert.deepEqual(wrong, []);
});
