import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PLATFORMS, policyFromFlags, visible, type Platform, type Policy, type PolicyFlags, type Spellings } from '../core/index.js';
import { readSpellings } from '../host/spellings.js';

/** A mistake in how the command was called: exit 2 with the message and a pointer to --help. */
export class UsageError extends Error {}

export const EXIT = { ok: 0, failure: 1, usage: 2, refused: 3, findings: 3 } as const;

export interface Io {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Prints one JSON object on one line. Hidden characters are written as JSON escapes too, which a
 * reader decodes to the same text: the line is exact, and cannot drive a terminal either.
 */
export function writeJson(io: Io, body: unknown): void {
  io.stdout.write(`${visible(JSON.stringify(body))}\n`);
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Strict parsing: an unknown flag or a missing value is a usage error, never ignored. */
export function parseCommand<T extends Options>(args: readonly string[], options: T, positionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[\w+\]: /, ''));
  }
  const wantsHelp = (parsed.values as { help?: boolean }).help === true;
  if (!wantsHelp && parsed.positionals.length !== positionals) {
    throw new UsageError(
      parsed.positionals.length < positionals
        ? 'missing argument'
        : `unexpected argument ${JSON.stringify(parsed.positionals[positionals])}`,
    );
  }
  return parsed;
}

export function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  }
  return value as T;
}

export const platformOption = { platform: { type: 'string' } } as const;
export const hostPolicyOptions = {
  'allow-localhost': { type: 'boolean' },
  'allow-unc': { type: 'boolean' },
} as const;

/** Other spellings of a folder: this machine's, or another's simulated. */
export const spellingOptions = {
  wsl: { type: 'string' },
  'wsl-mount-root': { type: 'string' },
  'map-drive': { type: 'string', multiple: true },
} as const;

export const SPELLING_OPTIONS_HELP = `  --wsl <distribution>               judge as inside that WSL distribution (linux): a Windows
                                     path is refused with its /mnt/<drive> spelling (default:
                                     this machine's, from WSL_DISTRO_NAME and WSL's interop)
  --wsl-mount-root <dir>             where WSL mounts Windows' drives (default: /etc/wsl.conf's
                                     [automount] root, else /mnt/)
  --map-drive <X:=\\\\host\\share>      a network drive and its share (win32, repeatable): the
                                     two are one folder (default: this machine's mapped drives)`;

/**
 * The spellings to judge with: the flags' when any is given (another machine simulated), else
 * this machine's own when its platform is the one judged, else none.
 */
export function spellingsFrom(
  values: { readonly wsl?: string | undefined; readonly 'wsl-mount-root'?: string | undefined; readonly 'map-drive'?: readonly string[] | undefined },
  platform: Platform,
  host: Platform,
  env: NodeJS.ProcessEnv,
): Spellings {
  const drives = values['map-drive'] ?? [];
  if (values.wsl === undefined && values['wsl-mount-root'] === undefined && drives.length === 0) return platform === host ? readSpellings(platform, env) : {};
  if ((values.wsl !== undefined || values['wsl-mount-root'] !== undefined) && platform !== 'linux') throw new UsageError('--wsl and --wsl-mount-root describe a Linux inside WSL: use them with --platform linux');
  if (drives.length > 0 && platform !== 'win32') throw new UsageError('--map-drive describes Windows: use it with --platform win32');
  if (values['wsl-mount-root'] !== undefined && values.wsl === undefined) throw new UsageError('--wsl-mount-root needs --wsl <distribution>');
  if (values.wsl === '') throw new UsageError('--wsl needs the name of a distribution');
  if (values['wsl-mount-root'] !== undefined && !values['wsl-mount-root'].startsWith('/')) throw new UsageError(`--wsl-mount-root must be an absolute path; got ${JSON.stringify(values['wsl-mount-root'])}`);
  const mappedDrives: Record<string, string> = {};
  for (const mapping of drives) {
    const parsed = /^([A-Za-z]):?=(\\\\[^\\/]+[\\/][^\\/]+)[\\/]?$/.exec(mapping);
    if (!parsed) throw new UsageError(`--map-drive takes a drive and a share, as Z:=\\\\host\\share; got ${JSON.stringify(mapping)}`);
    mappedDrives[`${parsed[1]!.toUpperCase()}:`] = parsed[2]!.replace(/\//g, '\\');
  }
  return {
    ...(values.wsl !== undefined ? { wsl: { distro: values.wsl, ...(values['wsl-mount-root'] !== undefined ? { mountRoot: values['wsl-mount-root'] } : {}) } } : {}),
    ...(drives.length > 0 ? { mappedDrives } : {}),
  };
}

export function platformFrom(value: string | undefined, host: Platform): Platform {
  return oneOf('platform', value, PLATFORMS) ?? host;
}

export function policyFrom(flags: PolicyFlags): Partial<Policy> {
  const parsed = policyFromFlags(flags);
  if ('error' in parsed) throw new UsageError(parsed.error);
  return parsed.policy;
}
