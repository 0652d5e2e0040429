import { rootToPath, visible, type Platform } from '../../core/index.js';
import { EXIT, hostPolicyOptions, parseCommand, platformFrom, platformOption, policyFrom, SPELLING_OPTIONS_HELP, spellingOptions, spellingsFrom, writeJson, type Io } from '../usage.js';

export const rootHelp = `Usage: boundary-inspector root <uri> [options]

Converts a workspace root URI (or absolute path) into the path the server would use,
or says which stage refuses it and why.

Options:
  --platform linux|darwin|win32      whose path rules apply (default: this machine's)
  --allow-localhost                  accept file://localhost/... (default: refused)
  --allow-unc                        accept \\\\host\\share and file://host/share on win32 (default:
                                     refused)
${SPELLING_OPTIONS_HELP}
  --json                             print one JSON object: {"ok":true,"path":...} or
                                     {"ok":false,"code","stage","reason"}
  -h, --help                         show this help

Exit status: 0 converted, 3 refused, 2 usage error.

Example:
  boundary-inspector root 'file:///c%3A/Users/dev/app' --platform win32
`;

export function runRoot(args: readonly string[], io: Io, host: Platform): number {
  const { values, positionals } = parseCommand(args, { ...platformOption, ...hostPolicyOptions, ...spellingOptions, json: { type: 'boolean' } }, 1);
  if (values.help) {
    io.stdout.write(rootHelp);
    return EXIT.ok;
  }
  const platform = platformFrom(values.platform, host);
  const converted = rootToPath(positionals[0]!, { platform, policy: policyFrom(values), spellings: spellingsFrom(values, platform, host, io.env) });
  if (values.json) {
    const body = converted.ok
      ? { ok: true, path: converted.path }
      : { ok: false, code: converted.code, stage: converted.stage, reason: converted.reason };
    writeJson(io, body);
  } else if (converted.ok) {
    io.stdout.write(`${visible(converted.path)}\n`);
  } else {
    io.stderr.write(`refused at ${converted.stage} (${converted.code}): ${visible(converted.reason)}\n`);
  }
  return converted.ok ? EXIT.ok : EXIT.refused;
}
