import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PLATFORMS, policyFromFlags, visible, type Platform, type Policy, type PolicyFlags } from '../core/index.js';

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

export function platformFrom(value: string | undefined, host: Platform): Platform {
  return oneOf('platform', value, PLATFORMS) ?? host;
}

export function policyFrom(flags: PolicyFlags): Partial<Policy> {
  const parsed = policyFromFlags(flags);
  if ('error' in parsed) throw new UsageError(parsed.error);
  return parsed.policy;
}
