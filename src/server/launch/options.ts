import { parseArgs } from 'node:util';
import { DEFAULT_REFUSAL_LOG_BYTES } from '../refusals/refusalLog.js';
import type { GrantSpec } from '../grants.js';
import { policyFromFlags, secretChoiceFromFlags, SECRET_FLAG_OPTIONS, type Policy, type SecretChoice } from '../../core/index.js';

export class ServeUsageError extends Error {}

export interface ServeOptions {
  readonly help: boolean;
  readonly grants: readonly GrantSpec[];
  readonly refusalLog: string | undefined;
  readonly refusalLogBytes: number;
  readonly policy: Partial<Policy>;
  /** The secrets policy of every workspace: the defaults, patterns added, Claude Code's deny rules. */
  readonly secrets: SecretChoice;
  readonly sandbox: 'auto' | 'off';
  /** Start the sandbox, check it from inside as the server would, print what it found as JSON and exit. */
  readonly checkSandbox: boolean;
  /** Answer plain tools/call requests of 2025-11-25 connections without the SDK's per-request layer (directCalls.ts). */
  readonly directCalls: boolean;
  /** No start-up line even at a terminal (a client's pipe never gets one when all is well). */
  readonly quiet: boolean;
}

export const serveHelp = `Usage: boundary-inspector serve --workspace <uri> [--workspace <uri> ...] [options]

Serves the granted workspaces to an MCP client over stdio (stdout carries JSON-RPC only). Every
tool call names its workspace with workspaceUri; MCP roots are never authority. stderr gets
nothing on a normal start (clients show it as errors): only start-up errors, a sandbox that
could not start or is incomplete, and failures later; at a terminal, one line naming what is
served.

Options:
  --workspace <uri>             grant a workspace read-write (repeatable)
  --read-only-workspace <uri>   grant a workspace read-only (repeatable)
  --refusal-log <file>          append every refusal to this JSON-lines file
  --refusal-log-size <bytes>    rotate the log to <file>.1 past this size (default ${DEFAULT_REFUSAL_LOG_BYTES})
  --allow-localhost             accept file://localhost/... (default: refused)
  --allow-unc                   accept UNC shares on win32 (default: refused)
  --case auto|sensitive|insensitive   how names are compared (default: auto)
  --symlinks contain|refuse     links below a workspace (default: contain)
  --secret <pattern>            a gitignore pattern, relative to each workspace, whose files are read
                                or changed only with the person's consent (repeatable; "!pattern"
                                lets a file go); after the defaults: .env*, *.pem, *.key, id_rsa*,
                                .npmrc, .netrc, **/.aws/credentials, .ssh/, and .git for changes
  --no-default-secrets          only the --secret patterns
  --claude-code-deny            also refuse what Claude Code's permissions.deny Read(...) and
                                Edit(...) rules in a workspace's .claude/settings.json and
                                .claude/settings.local.json name
  --sandbox auto|off            run inside bubblewrap (Linux) or sandbox-exec (macOS) where it works,
                                seeing only the workspaces; Windows has none (default: auto)
  --check-sandbox               start the sandbox for these workspaces, check it from inside as the
                                server does at start-up, print {active, mechanism, detail} as JSON
                                and exit without serving
  --direct-calls on|off         on a 2025-11-25 connection, answer a plain tools/call without the
                                MCP SDK's per-request layer, with the same answer (default: on);
                                off sends every request through the SDK
  --quiet                       no start-up line at a terminal either
  -h, --help                    show this help

Exit status: 2 when the arguments or a workspace are refused at start-up.

Example:
  boundary-inspector serve --workspace file:///home/me/project --refusal-log /tmp/refusals.jsonl
`;

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new ServeUsageError(`--${flag} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  return value as T;
}

export function parseServeArgs(args: readonly string[]): ServeOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        workspace: { type: 'string', multiple: true },
        'read-only-workspace': { type: 'string', multiple: true },
        'refusal-log': { type: 'string' },
        'refusal-log-size': { type: 'string' },
        'allow-localhost': { type: 'boolean' },
        'allow-unc': { type: 'boolean' },
        case: { type: 'string' },
        symlinks: { type: 'string' },
        sandbox: { type: 'string' },
        'check-sandbox': { type: 'boolean' },
        'direct-calls': { type: 'string' },
        quiet: { type: 'boolean' },
        ...SECRET_FLAG_OPTIONS,
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new ServeUsageError((error as Error).message);
  }
  const { values } = parsed;
  const size = values['refusal-log-size'] === undefined ? DEFAULT_REFUSAL_LOG_BYTES : Number(values['refusal-log-size']);
  if (!Number.isInteger(size) || size < 1024) throw new ServeUsageError('--refusal-log-size must be a whole number of bytes, at least 1024');
  const parsedPolicy = policyFromFlags(values);
  if ('error' in parsedPolicy) throw new ServeUsageError(parsedPolicy.error);
  const secrets = secretChoiceFromFlags(values);
  if ('error' in secrets) throw new ServeUsageError(secrets.error);
  return {
    help: values.help === true,
    grants: [
      ...(values.workspace ?? []).map((uri) => ({ uri, rights: 'read-write' as const })),
      ...(values['read-only-workspace'] ?? []).map((uri) => ({ uri, rights: 'read' as const })),
    ],
    refusalLog: values['refusal-log'],
    refusalLogBytes: size,
    policy: parsedPolicy.policy,
    secrets: secrets.secrets,
    sandbox: oneOf('sandbox', values.sandbox, ['auto', 'off'] as const) ?? 'auto',
    checkSandbox: values['check-sandbox'] === true,
    directCalls: (oneOf('direct-calls', values['direct-calls'], ['on', 'off'] as const) ?? 'on') === 'on',
    quiet: values.quiet === true,
  };
}
