// server.json, the entry for the MCP registry: its shape against the registry's 2025-12-11 schema
// (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json, restated here
// as zod so the test needs no network), its agreement with package.json, and its arguments
// against the command line the CLI really parses.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as z from 'zod';
import { mainHelp } from '../../src/cli/main.js';
import { parseServeArgs, serveHelp } from '../../src/server/launch/options.js';

const repoRoot = path.resolve(__dirname, '../..');
const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8'));
const serverJson = readJson('server.json');
const packageJson = readJson('package.json');

// Objects are strict here though the schema is open: a misspelt optional field (`isrequired`)
// would pass the registry and be silently ignored by every client.
const input = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
};
const positional = z
  .strictObject({ ...input, type: z.literal('positional'), valueHint: z.string().optional(), isRepeated: z.boolean().optional() })
  .refine((arg) => arg.value !== undefined || arg.valueHint !== undefined, 'a positional argument needs value or valueHint');
const named = z.strictObject({ ...input, type: z.literal('named'), name: z.string(), isRepeated: z.boolean().optional() });
const argument = z.union([positional, named]);
const keyValue = z.strictObject({ ...input, name: z.string() });
// The schema's prose: "Version ranges are rejected (e.g., '^1.2.3', '~1.2.3', '>=1.2.3', '1.x', '1.*')".
const exactVersion = z
  .string()
  .min(1)
  .max(255)
  .refine((v) => v !== 'latest' && !/^[\^~<>=]|(^|\.)[xX*](\.|$)|\s/.test(v), 'one exact version, not a range');
const transport = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('stdio') }),
  z.strictObject({ type: z.literal('streamable-http'), url: z.string(), headers: z.array(keyValue).optional() }),
  z.strictObject({ type: z.literal('sse'), url: z.string(), headers: z.array(keyValue).optional() }),
]);
const packageEntry = z.strictObject({
  registryType: z.string(),
  registryBaseUrl: z.url().optional(),
  identifier: z.string().min(1),
  version: exactVersion.optional(),
  fileSha256: z.string().regex(/^[a-f0-9]{64}$/).optional(),
  runtimeHint: z.string().optional(),
  transport,
  runtimeArguments: z.array(argument).optional(),
  packageArguments: z.array(argument).optional(),
  environmentVariables: z.array(keyValue).optional(),
});
const serverDetail = z.strictObject({
  $schema: z.url(),
  name: z.string().min(3).max(200).regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  description: z.string().min(1).max(100),
  title: z.string().min(1).max(100).optional(),
  version: exactVersion,
  websiteUrl: z.url().optional(),
  repository: z.strictObject({ url: z.url(), source: z.string(), id: z.string().optional(), subfolder: z.string().optional() }).optional(),
  icons: z.array(z.strictObject({ src: z.url(), mimeType: z.string().optional(), sizes: z.array(z.string()).optional(), theme: z.enum(['light', 'dark']).optional() })).optional(),
  packages: z.array(packageEntry).optional(),
  remotes: z.array(z.unknown()).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

type Argument = z.infer<typeof argument>;
const npmEntry = () => {
  const entries = (serverJson.packages as { registryType: string }[]).filter((entry) => entry.registryType === 'npm');
  assert.equal(entries.length, 1, 'one npm package entry');
  return entries[0] as z.infer<typeof packageEntry>;
};

/** The flags `serve --help` lists, each with whether it takes a value (`--workspace <uri>`). */
function documentedFlags(help: string): Map<string, boolean> {
  const flags = new Map<string, boolean>();
  for (const match of help.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)( \S+)?/gm)) flags.set(match[1]!, match[2] !== undefined);
  return flags;
}

test('server.json fits the registry schema it names', () => {
  assert.equal(serverJson.$schema, SCHEMA_URL);
  const parsed = serverDetail.safeParse(serverJson);
  assert.ok(parsed.success, parsed.success ? '' : z.prettifyError(parsed.error));
});

test('server.json agrees with package.json: name is mcpName, versions match, the npm entry is this package', () => {
  // The registry checks npm ownership by package.json's mcpName; it must equal server.json's name.
  assert.equal(serverJson.name, packageJson.mcpName);
  assert.equal(serverJson.version, packageJson.version);
  const entry = npmEntry();
  assert.equal(entry.identifier, packageJson.name);
  assert.equal(entry.version, packageJson.version);
  assert.deepEqual(entry.transport, { type: 'stdio' });
  // An io.github.<owner> name is authorised by signing in as that GitHub owner: the repository's.
  const owner = /github\.com\/([^/]+)\//.exec(packageJson.repository.url)?.[1];
  assert.ok(serverJson.name.startsWith(`io.github.${owner}/`), `${serverJson.name} is not under io.github.${owner}`);
  assert.equal(serverJson.repository.url, packageJson.repository.url.replace(/^git\+/, '').replace(/\.git$/, ''));
});

test('the package arguments are the serve command and flags that serve --help documents', () => {
  const args = npmEntry().packageArguments ?? [];
  const [command, ...rest] = args;
  assert.equal(command?.type, 'positional');
  assert.equal(command.value, 'serve');
  assert.match(mainHelp, /^ {2}serve --workspace <uri>/m, 'main help lists serve');
  const flags = documentedFlags(serveHelp);
  assert.ok(flags.size >= 10, `parsed ${flags.size} flags from serve --help`);
  for (const arg of rest) {
    assert.equal(arg.type, 'named', 'only the command is positional');
    const flag = (arg as Extract<Argument, { type: 'named' }>).name;
    assert.ok(flags.has(flag), `${flag} is not in serve --help`);
    assert.equal(flags.get(flag), true, `${flag} takes a value in serve --help`);
    assert.ok(arg.description, `${flag} has a description`);
  }
  const workspace = rest.find((arg) => arg.type === 'named' && arg.name === '--workspace');
  assert.equal(workspace?.isRequired, true, '--workspace is required');
  assert.equal(workspace?.isRepeated, true, '--workspace is repeatable');
});

test('a command line built from server.json, as a registry client would, parses into the grants it names', () => {
  const line: string[] = [];
  for (const arg of npmEntry().packageArguments ?? []) {
    if (arg.type === 'positional') continue;
    line.push(arg.name, arg.format === 'filepath' ? '/var/log/refusals.jsonl' : arg.placeholder!);
  }
  const options = parseServeArgs(line);
  assert.deepEqual(options.grants, [
    { uri: 'file:///path/to/project', rights: 'read-write' },
    { uri: 'file:///path/to/docs', rights: 'read' },
  ]);
  assert.equal(options.refusalLog, '/var/log/refusals.jsonl');
});
