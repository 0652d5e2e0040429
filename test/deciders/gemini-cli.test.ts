// The gemini-cli decider against the real Gemini CLI: every recorded case, on the fixture the
// recording used, decides as Gemini CLI 0.61.0 decided; the rule that decided names its file and
// line where a setting decided; every deny and ask offers a fix that, applied to a fresh copy of
// the fixture, lets the request through. Where Gemini CLI is installed, its own WorkspaceContext
// (and the helpers beside it) judge the same paths as the model does.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { geminiCli } from '../../src/deciders/gemini-cli/index.js';
import type { DeciderContext, DeciderVerdict, Fix } from '../../src/deciders/index.js';
import { DECIDERS } from '../../src/deciders/index.js';
import { withoutTrailingCommas } from '../../src/deciders/jsonSettings.js';
import { nodeDeciderFileSystem } from '../../src/host/node.js';
import { CASES, type DeciderCase, type ToolName } from './cases.js';
import { DEFAULT_SCRATCH, inputOf, makeCaseFixture, removeFixture, type CaseFixture } from './fixture.js';
import { readRecording } from './recording.js';
import { prepareGeminiCli } from './run/geminiCli.js';

const recording = readRecording();
const RECORDED = CASES.flatMap((c) => (c.tools['gemini-cli'] ?? []).map((tool) => ({ c, tool, seen: recording?.cases[c.name]?.['gemini-cli']?.[tool] })));

/** A case laid out as the recording laid it out, and the decider's context for it. */
interface Prepared {
  readonly fx: CaseFixture;
  readonly input: string;
  ctx: DeciderContext;
}

function prepare(c: DeciderCase, tool: ToolName): Prepared {
  const fx = makeCaseFixture(DEFAULT_SCRATCH, c, 'gemini-cli');
  const { env, args } = prepareGeminiCli(c, tool, fx);
  // The case's added folders go in as --add-dir does from the CLI; Gemini CLI's own flags as the context's flags.
  const addDirs = (c.addDirs ?? []).map(fx.expand);
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--approval-mode') flags['approval-mode'] = args[++i]!;
    else if (arg === '--include-directories') {
      const dir = args[++i]!;
      if (!addDirs.includes(dir)) flags['include-directories'] = flags['include-directories'] === undefined ? dir : `${flags['include-directories']},${dir}`;
    } else if (arg === '--skip-trust') flags['skip-trust'] = 'true';
    else if (arg === '-y' || arg === '--yolo') flags.yolo = 'true';
  }
  const ctx: DeciderContext = { platform: 'linux', fs: nodeDeciderFileSystem, home: fx.home, cwd: fx.cwd, addDirs, allowed: [], env, ...(Object.keys(flags).length > 0 ? { flags } : {}) };
  return { fx, input: inputOf(c, fx), ctx };
}

function decide(p: Prepared, tool: ToolName): DeciderVerdict {
  return geminiCli.decide(p.input, tool, p.ctx);
}

/** Settings merged into a JSON file the way a person would add them: objects key by key, lists extended. */
function mergeJson(into: unknown, add: unknown): unknown {
  if (Array.isArray(into) && Array.isArray(add)) return [...into, ...add];
  if (into && add && typeof into === 'object' && typeof add === 'object' && !Array.isArray(into)) {
    const out: Record<string, unknown> = { ...(into as Record<string, unknown>) };
    for (const [key, value] of Object.entries(add as Record<string, unknown>)) out[key] = key in out ? mergeJson(out[key], value) : value;
    return out;
  }
  return add;
}

/** A JSON file's value, or undefined when there is none or it does not parse. */
function parsed(file: string, text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined): unknown {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** Applies a fix to a prepared case; undefined when the fix is only words (nothing to apply). */
function applyFix(p: Prepared, fix: Fix): { input: string } | undefined {
  if (fix.flag !== undefined) {
    const [name, value] = fix.flag.split(/ (.*)/s) as [string, string | undefined];
    if (name === '--include-directories') p.ctx = { ...p.ctx, addDirs: [...p.ctx.addDirs, value!] };
    else p.ctx = { ...p.ctx, flags: { ...p.ctx.flags, [name.replace(/^--/, '')]: value ?? 'true' } };
    return { input: p.input };
  }
  if (fix.file !== undefined && fix.lines !== undefined && fix.line !== undefined) {
    // Lines replaced: an entry or a pattern removed (its list's commas mended), or a whole file written again.
    const lines = fs.readFileSync(fix.file, 'utf8').split('\n');
    lines.splice(fix.line - 1, fix.lines, ...(fix.add === '' ? [] : fix.add!.split('\n')));
    const text = lines.join('\n');
    fs.writeFileSync(fix.file, fix.file.endsWith('.json') && parsed(fix.file, text) === undefined ? (withoutTrailingCommas(text) ?? text) : text);
    return { input: p.input };
  }
  if (fix.file !== undefined && fix.add !== undefined) {
    // Settings added: the JSON merged into the file's.
    fs.mkdirSync(path.dirname(fix.file), { recursive: true });
    fs.writeFileSync(fix.file, JSON.stringify(mergeJson(parsed(fix.file) ?? {}, JSON.parse(fix.add)), null, 2));
    return { input: p.input };
  }
  if (fix.path !== undefined && /^Create the folder/.test(fix.text)) {
    fs.mkdirSync(fix.path, { recursive: true });
    return { input: p.input };
  }
  if (fix.path !== undefined) return { input: fix.path };
  return undefined;
}

/** Fixes that are words only, where no setting, flag or path lets Gemini CLI through. */
const NO_FIX_TO_APPLY: Readonly<Record<string, string>> = {
  'gemini-build-file-write': 'headless, a change to a build file is refused in every mode: only an interactive confirmation lets it through',
  'gemini-build-file-dockerfile-yolo': 'headless, a change to a build file is refused in every mode: only an interactive confirmation lets it through',
  'gemini-restricted-mode': 'GEMINI_RESTRICTED_MODE is a variable of the environment, which a fix names but cannot set',
  'gemini-link-loop': 'a loop of links is broken on the disk, not in a setting',
};

describe('gemini-cli decides as Gemini CLI 0.61.0 was recorded deciding', () => {
  test('is registered', () => assert.equal(DECIDERS['gemini-cli'], geminiCli));
  test('the recording holds Gemini CLI 0.61.0', () => assert.equal(recording?.programs['gemini-cli']?.version, geminiCli.version));

  for (const { c, tool, seen } of RECORDED) {
    test(`${c.name} ${tool}: ${seen?.decision ?? 'not recorded'}`, () => {
      assert.ok(seen && seen.decision !== 'unobserved', 'not recorded');
      const p = prepare(c, tool);
      try {
        const verdict = decide(p, tool);
        assert.equal(verdict.decision, seen.decision, `${verdict.rule.text}\n${verdict.stages.map((s) => `${s.name} ${s.status}: ${s.note}`).join('\n')}\nrecorded: ${seen.message.slice(0, 300)}`);
        assert.equal(verdict.basis, 'recorded', `a recorded case rests on unrecorded rules: ${verdict.stages.at(-1)?.note}`);
        if (verdict.decision === 'allow') assert.deepEqual(verdict.fixes, []);
        else assert.ok(verdict.fixes.length > 0, 'a deny or an ask offers a fix');
      } finally {
        removeFixture(p.fx);
      }
    });
  }
});

/** Where a setting decided: the file (relative to {base}) the verdict must name, and what the named line holds. */
const DECIDING_SOURCES: Readonly<Record<string, { readonly file: string; readonly holds: string }>> = {
  // includeDirectories: the entry that added the folder.
  'gemini-include-dirs-user': { file: 'home/.gemini/settings.json', holds: '"{base}/extra"' },
  'gemini-include-dirs-workspace': { file: 'ws/.gemini/settings.json', holds: '"{base}/extra"' },
  'gemini-include-dirs-system': { file: 'etc/settings.json', holds: '"{base}/extra"' },
  'gemini-include-dirs-relative': { file: 'home/.gemini/settings.json', holds: '"../extra"' },
  'gemini-include-dirs-concat': { file: 'home/.gemini/settings.json', holds: '"{base}/extra"' },
  // The missing folder that stopped it.
  'gemini-include-dirs-missing': { file: 'home/.gemini/settings.json', holds: '"{base}/missing"' },
  // The trust rule that distrusts the folder.
  'gemini-do-not-trust': { file: 'home/.gemini/trustedFolders.json', holds: '"DO_NOT_TRUST"' },
  // The approval mode that allowed or asked, from the layer that set it last.
  'gemini-approval-setting-auto-edit': { file: 'home/.gemini/settings.json', holds: '"defaultApprovalMode": "auto_edit"' },
  'gemini-approval-workspace-over-user': { file: 'ws/.gemini/settings.json', holds: '"defaultApprovalMode": "default"' },
  'gemini-approval-system-over-workspace': { file: 'etc/settings.json', holds: '"defaultApprovalMode": "default"' },
};

describe('gemini-cli names the setting that decided, by file and line', () => {
  for (const [name, want] of Object.entries(DECIDING_SOURCES)) {
    test(name, () => {
      const c = CASES.find((each) => each.name === name)!;
      const tool = c.tools['gemini-cli']![0]!;
      const p = prepare(c, tool);
      try {
        const { rule } = decide(p, tool);
        const file = path.join(p.fx.base, want.file);
        const lines = fs.readFileSync(file, 'utf8').split('\n');
        const holding = lines.flatMap((line, i) => (line.includes(p.fx.expand(want.holds)) ? [i + 1] : []));
        assert.equal(holding.length, 1, `one line of ${want.file} holds ${want.holds}`);
        assert.deepEqual({ file: rule.source?.file, line: rule.source?.line }, { file, line: holding[0] }, rule.text);
      } finally {
        removeFixture(p.fx);
      }
    });
  }
});

/** Where Gemini CLI's rule for an input differs from Boundary Inspector's, the verdict says how. */
const DIFFERENCES: Readonly<Record<string, RegExp>> = {
  // A link outside that leads in: judged by where it leads.
  'link-in-read': /by where its links lead/,
  // .env inside: refused by name.
  'dotenv-read': /refuses "\.env" inside the workspace/,
  // %2e%2e: decoded before the check.
  'encoded-dotdot-read': /percent-decodes/,
  // @sub/b.txt: the @ dropped.
  'gemini-at-prefix': /leading "@"/,
  // Its own temporary folder.
  'gemini-project-temp-dir-yolo': /its own temporary folder/,
  // ..notes.txt in auto_edit.
  'gemini-dotdot-name-write': /begins with "\.\."/,
};

describe("gemini-cli says where Gemini CLI's rule differs from Boundary Inspector's", () => {
  for (const [name, want] of Object.entries(DIFFERENCES)) {
    test(name, () => {
      const c = CASES.find((each) => each.name === name)!;
      const tool = c.tools['gemini-cli']![0]!;
      const p = prepare(c, tool);
      try {
        const verdict = decide(p, tool);
        assert.ok(verdict.differences.some((difference) => want.test(difference)), verdict.differences.join('\n'));
        // Every file Gemini CLI reads is named, found or not.
        const roles = verdict.configFiles.map((file) => file.role);
        for (const role of ['system defaults', 'user settings', 'workspace settings', 'system settings', 'trusted folders']) assert.ok(roles.includes(role), role);
      } finally {
        removeFixture(p.fx);
      }
    });
  }
});

describe('every deny and ask of gemini-cli offers a fix that lets the request through', () => {
  for (const { c, tool, seen } of RECORDED.filter(({ seen }) => seen?.decision === 'deny' || seen?.decision === 'ask')) {
    test(`${c.name} ${tool}`, () => {
      const first = prepare(c, tool);
      const fixes = decide(first, tool).fixes;
      removeFixture(first.fx);
      // Each copy of the case has a folder of its own: a fix is moved to it.
      const moved = (fix: Fix, base: string): Fix => JSON.parse(JSON.stringify(fix).replaceAll(first.fx.base, base)) as Fix;
      assert.ok(fixes.length > 0);
      const applicable = fixes.filter((fix) => fix.flag !== undefined || (fix.file !== undefined && fix.add !== undefined) || fix.path !== undefined);
      if (c.name in NO_FIX_TO_APPLY) {
        assert.deepEqual(applicable, [], NO_FIX_TO_APPLY[c.name]);
        return;
      }
      const tried: string[] = [];
      // Each fix alone, then all of them together (a write outside in the default mode needs both a mode and a folder).
      for (const set of [...applicable.map((fix) => [fix]), applicable]) {
        const p = prepare(c, tool);
        try {
          let input = p.input;
          for (const fix of set) input = applyFix(p, moved(fix, p.fx.base))?.input ?? input;
          const after = geminiCli.decide(input, tool, p.ctx);
          tried.push(`${set.map((fix) => fix.text).join(' + ')} -> ${after.decision}: ${after.rule.text}`);
          if (after.decision === 'allow') return;
        } finally {
          removeFixture(p.fx);
        }
      }
      assert.fail(`${seen!.decision}: no fix lets it through:\n${tried.join('\n')}`);
    });
  }
});
