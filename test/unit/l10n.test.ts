// Ready for other languages, as VS Code's own extensions are: the manifest's strings are %keys%
// with their English text in package.nls.json, and the extension's runtime strings go through
// vscode.l10n.t (English only needs no bundle: without one it returns the source string).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { shipped } from './vsix.js';

const repoRoot = path.resolve(__dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
const nls = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, unknown>;
const KEY = /^%([\w.-]+)%$/;

/** Every string in a JSON value, with where it is (`contributes.commands[0].title`). */
function strings(value: unknown, where: string, found: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') found.push([where, value]);
  else if (Array.isArray(value)) value.forEach((item, i) => strings(item, `${where}[${i}]`, found));
  else if (value !== null && typeof value === 'object') for (const [name, item] of Object.entries(value)) strings(item, where === '' ? name : `${where}.${name}`, found);
  return found;
}

// The fields the editor shows to a person; ids, when clauses, paths and enum values are not shown.
const SHOWN = /(^|\.)(displayName|title|shortTitle|category|label|description|markdownDescription|altText|deprecationMessage|markdownDeprecationMessage)$|\.(enumDescriptions|markdownEnumDescriptions)\[\d+\]$/;
// package.json is also the npm package's manifest (the CLI), whose registry page shows `description` as written.
const LITERAL = new Set(['description']);

test('every %key% in package.json has its English text in package.nls.json, and every key there is used', () => {
  const used = new Set(strings(manifest, '').flatMap(([, text]) => KEY.exec(text)?.[1] ?? []));
  const missing = [...used].filter((key) => typeof nls[key] !== 'string' || nls[key] === '');
  assert.deepEqual(missing, [], 'keys without English text');
  const unused = Object.keys(nls).filter((key) => !used.has(key));
  assert.deepEqual(unused, [], 'keys in package.nls.json that package.json never names');
});

test('every string package.json shows to a person is a %key%', () => {
  const raw = strings(manifest, '').filter(([where, text]) => SHOWN.test(where) && !LITERAL.has(where) && !KEY.test(text));
  assert.deepEqual(raw, [], 'shown strings written into package.json');
  // Worth checking that the scan sees them at all.
  assert.ok(strings(manifest, '').filter(([where]) => SHOWN.test(where)).length > 30);
});

test('the .vsix ships package.nls.json beside package.json, and no l10n folder is claimed without one', () => {
  assert.ok(shipped('package.nls.json'), '.vscodeignore leaves package.nls.json out');
  if (manifest['l10n'] !== undefined) assert.ok(fs.existsSync(path.join(repoRoot, String(manifest['l10n']))), 'package.json names an l10n folder that does not exist');
});

// ---------------------------------------------------------------------------------------------
// The extension's runtime strings: a plain scan of src/extension, not a parser.

const sources = fs
  .readdirSync(path.join(repoRoot, 'src', 'extension'))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: withoutComments(fs.readFileSync(path.join(repoRoot, 'src', 'extension', name), 'utf8')) }));

/** Blanks comments, keeping string literals (a `//` inside a URI is not a comment). */
function withoutComments(source: string): string {
  return source.replace(/('(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_match, literal: string | undefined) => literal ?? ' ');
}

/** The index just past the bracket that closes the one at `open`, skipping string literals. */
function closing(text: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c in pairs) stack.push(pairs[c]!);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i + 1;
    }
  }
  throw new Error(`unbalanced from ${text.slice(open, open + 40)}`);
}

/** The argument text of each call to `name(` in `text`. */
function callsOf(text: string, name: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(new RegExp(`\\b${name}\\(`, 'g'))) {
    const open = match.index + match[0].length - 1;
    found.push(text.slice(open + 1, closing(text, open) - 1));
  }
  return found;
}

/** `text` with each `vscode.l10n.t(...)` call taken out. */
function withoutL10n(text: string): string {
  let rest = text;
  for (let at = rest.indexOf('vscode.l10n.t('); at !== -1; at = rest.indexOf('vscode.l10n.t(')) {
    rest = rest.slice(0, at) + rest.slice(closing(rest, at + 'vscode.l10n.t'.length));
  }
  return rest;
}

// Calls whose string arguments a person reads: messages and their buttons, a panel's title, progress.
const SHOWN_CALLS = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'setStatusBarMessage', 'createWebviewPanel', 'report'];
// Options a person reads: input boxes, quick picks, progress.
const SHOWN_OPTIONS = /\b(title|prompt|placeHolder|placeholder|message|tooltip)\s*:\s*['"`]/g;

test('src/extension passes no string literal to a message, a panel title or progress except through vscode.l10n.t', () => {
  const raw: string[] = [];
  let calls = 0;
  for (const { name, text } of sources) {
    for (const call of SHOWN_CALLS) {
      for (const args of callsOf(text, call)) {
        calls++;
        if (/['"`]/.test(withoutL10n(args))) raw.push(`${name}: ${call}(${args.trim()})`);
      }
    }
    for (const match of text.matchAll(SHOWN_OPTIONS)) raw.push(`${name}: ${text.slice(match.index, match.index + 80)}`);
  }
  assert.deepEqual(raw, []);
  assert.ok(calls >= 8, `only ${calls} calls found: the scan is not seeing them`);
});

test('every vscode.l10n.t message is a string literal, so a bundle can be extracted from the source', () => {
  const dynamic = sources.flatMap(({ name, text }) => callsOf(text, 'l10n\\.t').filter((args) => !/^\s*(['"])/.test(args)).map((args) => `${name}: l10n.t(${args})`));
  assert.deepEqual(dynamic, []);
});

test("the inspector page's own text and labels go through vscode.l10n.t", () => {
  const panel = sources.find(({ name }) => name === 'panel.ts')!.text;
  const start = panel.indexOf('`<!DOCTYPE html>');
  const page = panel.slice(start, panel.indexOf('</html>`', start));
  // The page with every ${...} taken out: what is left is written into the HTML.
  let literal = page;
  for (let at = literal.indexOf('${'); at !== -1; at = literal.indexOf('${')) literal = literal.slice(0, at) + literal.slice(closing(literal, at + 1));
  const text = [...literal.matchAll(/>([^<]*)</g)].map((match) => match[1]!.trim()).filter((between) => /\p{L}/u.test(between));
  assert.deepEqual(text, [], 'text written into the page');
  const attributes = [...literal.matchAll(/\b(placeholder|aria-label|title|alt)="([^"]*)"/g)].filter((match) => /\p{L}/u.test(match[2]!)).map((match) => match[0]);
  assert.deepEqual(attributes, [], 'labels written into the page');
  assert.ok(page.includes('vscode.l10n.t('), 'the scan found the page');
});
