import { visible } from '../core/index.js';
import { hostPlatform } from '../host/node.js';
import { runAudit } from './commands/audit.js';
import { runCompare } from './commands/compare.js';
import { runRoot } from './commands/root.js';
import { runServe } from './commands/serve.js';
import { runTrace } from './commands/trace.js';
import { EXIT, UsageError, type Io } from './usage.js';

declare const PACKAGE_VERSION: string;

export const mainHelp = `Usage: boundary-inspector <command> [options]

Decides, stage by stage, whether a URI or path lies inside a workspace root.

Commands:
  root <uri>                   convert a workspace root URI into a path, or refuse it
  trace <input> --root <uri>   trace an input through every stage against a root, as one
                               tool judges it (--tool, default read_text_file); with
                               --as <decider>, as another program decides it
  compare <input>              the decision of every program modelled, one line each
  serve --workspace <uri>      serve workspaces to an MCP client over stdio
  audit --root <uri>           walk a workspace and report links, names and hard links that
                               trip an agent or another platform

Options:
  -h, --help                   show help (also: boundary-inspector <command> --help)
  -v, --version                show the version

Exit status: 0 inside, allowed, converted or nothing found; 3 outside, refused, asked,
denied or findings; 2 usage error.
`;

type Status = number | 'serving' | Promise<number>;
type Command = (args: readonly string[], io: Io, host: ReturnType<typeof hostPlatform>) => Status;
const COMMANDS: Record<string, Command> = { root: runRoot, trace: runTrace, compare: runCompare, serve: runServe, audit: runAudit };

/**
 * Runs one command; `serving` means the MCP server is running and sets its own exit status. A
 * command that walks the disk (audit) answers with a promise, after checking its arguments.
 */
export function main(argv: readonly string[], io: Io): Status {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command === undefined ? io.stderr : io.stdout).write(mainHelp);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (command === '--version' || command === '-v') {
    io.stdout.write(`${typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : 'dev'}\n`);
    return EXIT.ok;
  }
  const run = COMMANDS[command];
  try {
    if (!run) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    const status = run(rest, io, hostPlatform());
    // A walk that fails is said in one escaped line, as every message is: its text may hold a path.
    return status instanceof Promise
      ? status.catch((error: Error) => {
          io.stderr.write(`boundary-inspector: ${visible(error.message)}\n`);
          return EXIT.failure;
        })
      : status;
  } catch (error) {
    if (error instanceof UsageError) {
      // The message may echo an argument: escaped, so it cannot drive the terminal.
      const help = run ? `boundary-inspector ${command} --help` : 'boundary-inspector --help';
      io.stderr.write(`boundary-inspector: ${visible(error.message)}\nSee: ${help}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
