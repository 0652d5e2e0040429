// Claude Code 2.1.332 as a decider: its permission decision for the Read, Write and Edit tools,
// from the settings files it reads (settings.ts), with its rules (rules.ts, gitignore.ts), its
// spellings of a path (paths.ts), its own checks (safety.ts) and its order (judge.ts), checked
// against the real program on the recorded table (test/deciders/claude-code.test.ts).
import { toolFor } from '../tools.js';
import type { ConfigFile, Decider, DeciderContext, DeciderStage, DeciderVerdict } from '../types.js';
import { deriveEffective, type Effective } from './config.js';
import { fixesFor } from './fixes.js';
import { judge, type ClaudeTool, type Judgement } from './judge.js';
import { requestedPath, spell } from './paths.js';
import { ROLES, readSetup } from './settings.js';

const PROGRAM = 'Claude Code';
const VERSION = '2.1.332';

/** Every file read, whether it was there, and whether anything in it shaped this decision. */
function configFilesOf(effective: Effective, judgement: Judgement): ConfigFile[] {
  const { setup } = effective;
  const cited = new Set<string>();
  for (const stage of judgement.stages) if (stage.source?.file) cited.add(stage.source.file);
  if (judgement.rule.source?.file) cited.add(judgement.rule.source.file);
  if (effective.mode.source?.path) cited.add(effective.mode.source.path);
  const files: ConfigFile[] = setup.sources.filter((source) => source.path !== undefined).map((source) => ({ path: source.path!, role: ROLES[source.layer], found: source.found, used: cited.has(source.path!) }));
  const trustMattered = effective.dropped.some(({ rule }) => rule.source.layer === 'project') || effective.droppedFolders.length > 0 || (effective.trust.trusted && setup.sources.some((source) => source.layer === 'project' && source.found));
  files.push({ path: setup.global.path, role: 'trust record (~/.claude.json)', found: setup.global.found, used: trustMattered });
  return files;
}

/** The stages, the last saying when the decision rests on the documentation or the code rather than the recording. */
function withBasis(stages: readonly DeciderStage[], documented: readonly string[]): DeciderStage[] {
  if (documented.length === 0) return [...stages];
  const last = stages.at(-1)!;
  const said = `Not recorded: ${[...new Set(documented)].join('; ')} (as documented for ${VERSION}).`;
  return [...stages.slice(0, -1), { ...last, note: last.note ? `${last.note}. ${said}` : said }];
}

export const claudeCode: Decider = {
  name: 'claude-code',
  program: PROGRAM,
  version: VERSION,
  tools: { read: ['Read'], change: ['Write', 'Edit'] },
  decide(input: string, tool: string, context: DeciderContext): DeciderVerdict {
    const own = toolFor(claudeCode, tool);
    if (!own) throw new Error(`Claude Code has no tool ${tool}: use Read, Write or Edit`);
    const claudeTool = own.tool as ClaudeTool;
    const { access } = own;
    const setup = readSetup(context);
    const effective = deriveEffective(setup);
    const spelled = spell(requestedPath(input, setup.cwd, setup.home, setup.platform), setup.fs, setup.platform);
    const judgement = judge(effective, claudeTool, input, spelled);
    return {
      decider: 'claude-code',
      program: PROGRAM,
      version: VERSION,
      basis: judgement.documented.length > 0 ? 'documented' : 'recorded',
      tool: claudeTool,
      access,
      input,
      decision: judgement.decision,
      rule: judgement.rule,
      path: spelled.requested,
      stages: withBasis(judgement.stages, judgement.documented),
      fixes: judgement.decision === 'allow' ? [] : fixesFor(effective, claudeTool, input, spelled, judgement),
      differences: [...new Set(judgement.differences)],
      configFiles: configFilesOf(effective, judgement),
    };
  },
};
