import fs from 'node:fs';
import { createRequire } from 'node:module';
import nodePath from 'node:path';
import type { RE2 } from 're2-wasm';

/**
 * What search_file_contents looks for in each line: a literal, or a regular expression run by
 * RE2 (compiled to WebAssembly, shipped in the package: nothing is downloaded or built at install).
 * RE2 matches in time linear in the line, whatever the pattern, so `(a+)+$` cannot stall the
 * server as a backtracking engine would; it refuses what it cannot match that way (backreferences,
 * lookaround) when the pattern is compiled.
 */
export interface LinePattern {
  /** Whether a text holds a match anywhere; lines of a text that holds none need not be tested one by one. */
  readonly anywhere: (text: string) => boolean;
  /** The index of the first match in one line, or -1. */
  readonly inLine: (line: string) => number;
}

export interface PatternOptions {
  readonly regex: boolean;
  readonly caseSensitive: boolean;
}

let loaded: typeof RE2 | undefined;

/**
 * Loaded at the first search that needs it, never at start-up (it compiles 0.8 MB of WebAssembly).
 * The bundles find it beside them, where esbuild.mjs copies the package's build (inside the
 * sandbox too, which holds the bundle's folder); the sources find it in node_modules.
 */
function engine(): typeof RE2 {
  if (loaded !== undefined) return loaded;
  const load = createRequire(__filename);
  const beside = nodePath.join(__dirname, 're2-wasm', 'src', 're2.js');
  loaded = (load(fs.existsSync(beside) ? beside : load.resolve('re2-wasm')) as typeof import('re2-wasm')).RE2;
  return loaded;
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|]/g;

/** Compiles a pattern; an expression RE2 refuses throws an error naming why. */
export function compileLinePattern(pattern: string, options: PatternOptions): LinePattern {
  if (!options.regex && options.caseSensitive) {
    return { anywhere: (text) => text.includes(pattern), inLine: (line) => line.indexOf(pattern) };
  }
  const source = options.regex ? pattern : pattern.replace(REGEX_SPECIAL, '\\$&');
  // u: RE2 here takes only Unicode patterns; m: ^ and $ also match at each line break of a whole text.
  const flags = `u${options.caseSensitive ? '' : 'i'}`;
  const RE2 = engine();
  let inLine: RE2;
  let anywhere: RE2;
  try {
    inLine = new RE2(source, flags);
    anywhere = new RE2(source, `${flags}m`);
  } catch (error) {
    throw Object.assign(new Error(`the regular expression ${JSON.stringify(pattern)} is not one RE2 takes: ${(error as Error).message}. Backreferences and lookaround are not supported; set regex false to search for the text as it is.`), { code: 'EINVAL' });
  }
  // A match in a line is a match in the whole text with ^ and $ at line breaks, so a text with none
  // has no line to test. A match the whole text has may span lines: its lines are then tested.
  return { anywhere: (text) => anywhere.test(text), inLine: (line) => inLine.search(line) };
}
