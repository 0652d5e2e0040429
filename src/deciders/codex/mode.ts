// The sandbox mode: --sandbox, else `sandbox_mode` from the merged layers, else workspace-write for
// a project with a trust decision (trusted or untrusted alike), else read-only. Codex on Windows
// without its own sandbox runs workspace-write as read-only.
import type { DeciderContext, RuleSource } from '../types.js';
import { settingOf, type Configuration, type SandboxMode, type Setting } from './layers.js';
import { show } from './paths.js';
import { isTable } from './toml.js';

export interface ModeChoice {
  readonly mode: SandboxMode;
  readonly by: 'flag' | 'config' | 'trust' | 'default';
  readonly source: RuleSource;
  /** The layer and line that set it, when a file did. */
  readonly setting?: Setting;
  /** What the stage says about how the mode came about. */
  readonly note: string;
}

export function sandboxModeOf(config: Configuration, ctx: DeciderContext): ModeChoice {
  const chosen = choose(config, ctx);
  if (ctx.platform !== 'win32' || chosen.mode !== 'workspace-write' || (isTable(config.merged.windows) && config.merged.windows.sandbox !== undefined)) return chosen;
  return { ...chosen, mode: 'read-only', note: `${chosen.note} On Windows without Codex's own sandbox ([windows] sandbox = "elevated" or "unelevated"), Codex runs workspace-write as read-only.` };
}

function choose(config: Configuration, ctx: DeciderContext): ModeChoice {
  const flag = ctx.flags?.sandbox as SandboxMode | undefined;
  const setting = settingOf(config, ['sandbox_mode']);
  if (flag !== undefined) {
    return { mode: flag, by: 'flag', source: { text: `--sandbox ${flag}`, flag: `--sandbox ${flag}` }, note: `--sandbox ${flag} on the command line${setting ? `, over ${setting.source.text} in ${setting.layer.file}` : ''}.` };
  }
  if (setting) return { mode: setting.value as SandboxMode, by: 'config', source: setting.source, setting, note: `${setting.source.text} in ${setting.layer.file}.` };
  const platform = ctx.platform;
  for (const folder of [config.cwd, ...(config.repoRoot ? [config.repoRoot] : [])]) {
    const key = show(folder, platform);
    const trust = settingOf(config, ['projects', key, 'trust_level']);
    if (trust && (trust.value === 'trusted' || trust.value === 'untrusted')) {
      return {
        mode: 'workspace-write',
        by: 'trust',
        source: trust.source,
        setting: trust,
        note: `No sandbox_mode is set, and ${key} has a trust decision ([projects."${key}"] trust_level = "${trust.value}"), so Codex takes workspace-write${trust.value === 'untrusted' ? ', for an untrusted project too (as observed in 0.171.0)' : ''}.`,
      };
    }
  }
  return { mode: 'read-only', by: 'default', source: { text: 'read-only, the default' }, note: `No --sandbox, no sandbox_mode in any layer, and no trust decision for ${show(config.cwd, platform)}: Codex's default, read-only.` };
}
