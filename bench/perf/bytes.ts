// Section 6: the bytes a client puts before the model, ours against the reference on one tree.
// The tool definitions go with every request: name, description and input schema, as clients
// hand them to the model. An answer reaches the model as its text, or as its structured result
// where a client (VS Code) gives the model that instead: both are counted, each against the
// reference's (whose structured result is {content: its text}).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTempDir, removeTempDir, writeFanOutTree } from './fixtures.js';
import { answerText, startServer, type RunningServer, type ToolAnswer } from './servers.js';
import { formatRatio, renderTable, type Verdict } from './stats.js';
import { EXPLAIN_HINT } from '../../src/server/refusals/refusal.js';

/** Every row: at most this share of the reference's bytes. */
export const BYTES_GOAL = 0.75;

/**
 * A refusal says much more than "access denied": what refused it, why, and what to do instead,
 * which spares the agent the wrong retries. It may cost this many times the reference's bytes.
 */
const REFUSAL_GOAL = 4;

const TREE_FILES = 900;
const WIDE_ENTRIES = 1000;
const INFO_FILE = 'notes/plan.md';
const MISSPELT_FILE = 'notes/Plan.md';

export interface BytesRow {
  readonly id: string;
  readonly label: string;
  /** The definitions, or an answer's text. */
  readonly ours: number;
  readonly reference: number;
  readonly ratio: number;
  /** An answer's structured result, where ours has one. */
  readonly oursStructured?: number;
  readonly referenceStructured?: number;
  readonly structuredRatio?: number;
  /** At most this ratio passes. */
  readonly goal: number;
  readonly verdict: Verdict;
}

export interface BytesReport {
  readonly rows: readonly BytesRow[];
  /** The whole tools/list result on the wire (output schemas, titles, annotations included): not before the model. */
  readonly toolsListBytes: { readonly ours: number; readonly reference: number };
  /** The definitions of the tools only views call (compare_deciders), which a host keeps from the model: what a host that ignores their visibility would add. */
  readonly appOnlyDefinitionBytes: number;
}

interface Question {
  readonly id: string;
  readonly label: string;
  /** Both servers answer with an error (nothing is there). */
  readonly error?: true;
  /** Its own goal, where ours says more than the reference: BYTES_GOAL otherwise. */
  readonly goal?: number;
  ours(uri: string): { tool: string; args: Record<string, unknown> };
  reference(root: string): { tool: string; args: Record<string, unknown> };
}

const QUESTIONS: readonly Question[] = [
  {
    id: 'search_files',
    label: `search_files **/* over ${TREE_FILES} files`,
    ours: (workspaceUri) => ({ tool: 'search_files', args: { workspaceUri, path: 'tree', pattern: '**/*' } }),
    reference: (root) => ({ tool: 'search_files', args: { path: path.join(root, 'tree'), pattern: '**/*' } }),
  },
  {
    id: 'list_directory',
    label: `list_directory, ${WIDE_ENTRIES.toLocaleString('en-US')} entries`,
    ours: (workspaceUri) => ({ tool: 'list_directory', args: { workspaceUri, path: 'wide' } }),
    reference: (root) => ({ tool: 'list_directory', args: { path: path.join(root, 'wide') } }),
  },
  {
    id: 'directory_tree',
    label: `directory_tree, ${TREE_FILES} files`,
    ours: (workspaceUri) => ({ tool: 'directory_tree', args: { workspaceUri, path: 'tree' } }),
    reference: (root) => ({ tool: 'directory_tree', args: { path: path.join(root, 'tree') } }),
  },
  {
    id: 'get_file_info',
    label: 'get_file_info',
    ours: (workspaceUri) => ({ tool: 'get_file_info', args: { workspaceUri, path: INFO_FILE } }),
    reference: (root) => ({ tool: 'get_file_info', args: { path: path.join(root, INFO_FILE) } }),
  },
  {
    // The slip an agent most often makes: ours names the file it nearly named, the reference does not.
    id: 'not_found',
    error: true,
    // It names the file the agent meant; the goal is to cost no more than the bare error.
    goal: 1,
    label: `read_text_file of ${MISSPELT_FILE} (${INFO_FILE} exists)`,
    ours: (workspaceUri) => ({ tool: 'read_text_file', args: { workspaceUri, path: MISSPELT_FILE } }),
    reference: (root) => ({ tool: 'read_text_file', args: { path: path.join(root, MISSPELT_FILE) } }),
  },
  {
    // Ours names the code, the stage, the reason, what to do next and, in one sentence, explain_path
    // (whose trace a client with MCP Apps shows the person); the reference says access is denied.
    id: 'refusal',
    error: true,
    goal: REFUSAL_GOAL,
    label: 'read_text_file of ../outside.md (refused: outside)',
    ours: (workspaceUri) => ({ tool: 'read_text_file', args: { workspaceUri, path: '../outside.md' } }),
    reference: (root) => ({ tool: 'read_text_file', args: { path: path.join(root, '..', 'outside.md') } }),
  },
];

/** Whether a host that speaks MCP Apps lists a tool to the model: not one whose `_meta.ui.visibility` leaves out "model". */
export function shownToModel(tool: Record<string, unknown>): boolean {
  const visibility = ((tool['_meta'] as Record<string, unknown> | undefined)?.['ui'] as { visibility?: unknown } | undefined)?.visibility;
  return !Array.isArray(visibility) || visibility.includes('model');
}

/** What a client hands the model of a tool: its name, description and input schema. */
export function definitionBytes(tools: readonly Record<string, unknown>[]): number {
  return Buffer.byteLength(JSON.stringify(tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }))));
}

function structuredBytes(answer: ToolAnswer): number | undefined {
  return answer.structuredContent === undefined ? undefined : Buffer.byteLength(JSON.stringify(answer.structuredContent));
}

function verdictOf(goal: number, ...ratios: (number | undefined)[]): Verdict {
  return ratios.every((ratio) => ratio === undefined || ratio <= goal) ? 'pass' : 'FAIL';
}

function createTree(): string {
  const root = makeTempDir('bi-perf-bytes-');
  writeFanOutTree(path.join(root, 'tree'), TREE_FILES);
  fs.mkdirSync(path.join(root, 'wide'));
  for (let index = 0; index < WIDE_ENTRIES; index += 1) {
    const name = path.join(root, 'wide', `entry-${String(index).padStart(4, '0')}`);
    if (index % 10 === 0) fs.mkdirSync(name);
    else fs.writeFileSync(name, '');
  }
  fs.mkdirSync(path.join(root, path.dirname(INFO_FILE)));
  fs.writeFileSync(path.join(root, INFO_FILE), '# Plan\n');
  return root;
}

async function ask(server: RunningServer, call: { tool: string; args: Record<string, unknown> }, expectError: boolean): Promise<ToolAnswer> {
  const answer = await server.call(call.tool, call.args);
  if ((answer.isError === true) !== expectError) throw new Error(`${server.configuration}: ${call.tool} answered ${expectError ? 'no error' : 'an error'}: ${answerText(answer).slice(0, 300)}`);
  return answer;
}

export async function runBytes(options: { readonly bundle: string; readonly progress: (line: string) => void }): Promise<BytesReport> {
  const root = createTree();
  let ours: RunningServer | undefined;
  let reference: RunningServer | undefined;
  try {
    options.progress('bytes: starting the servers');
    ours = await startServer('ours-off', root, { bundle: options.bundle });
    reference = await startServer('reference', root, { bundle: options.bundle });
    const [ourTools, referenceTools] = [await ours.listTools(), await reference.listTools()];
    const ourDefinitions = definitionBytes(ourTools.filter(shownToModel));
    const referenceDefinitions = definitionBytes(referenceTools);
    const rows: BytesRow[] = [
      {
        id: 'definitions',
        label: `tool definitions (${ourTools.filter(shownToModel).length} tools / ${referenceTools.length}), in every request`,
        ours: ourDefinitions,
        reference: referenceDefinitions,
        ratio: ourDefinitions / referenceDefinitions,
        goal: BYTES_GOAL,
        verdict: verdictOf(BYTES_GOAL, ourDefinitions / referenceDefinitions),
      },
    ];
    const uri = pathToFileURL(root).href;
    for (const question of QUESTIONS) {
      options.progress(`bytes: ${question.label}`);
      const mine = await ask(ours, question.ours(uri), question.error === true);
      const theirs = await ask(reference, question.reference(root), question.error === true);
      const text = Buffer.byteLength(answerText(mine));
      const referenceText = Buffer.byteLength(answerText(theirs));
      const structured = structuredBytes(mine);
      const referenceStructured = structuredBytes(theirs) ?? referenceText;
      const structuredRatio = structured === undefined ? undefined : structured / referenceStructured;
      rows.push({
        goal: question.goal ?? BYTES_GOAL,
        verdict: verdictOf(question.goal ?? BYTES_GOAL, text / referenceText, structuredRatio),
        id: question.id,
        label: question.label,
        ours: text,
        reference: referenceText,
        ratio: text / referenceText,
        ...(structured !== undefined ? { oursStructured: structured, referenceStructured, structuredRatio: structured / referenceStructured } : {}),
      });
    }
    const wire = (tools: readonly Record<string, unknown>[]) => Buffer.byteLength(JSON.stringify({ tools }));
    const appOnlyDefinitionBytes = definitionBytes(ourTools.filter((tool) => !shownToModel(tool)));
    return { rows, toolsListBytes: { ours: wire(ourTools), reference: wire(referenceTools) }, appOnlyDefinitionBytes };
  } finally {
    await ours?.close();
    await reference?.close();
    removeTempDir(root);
  }
}

export function formatBytesReport(report: BytesReport): string {
  const bytes = (value: number | undefined) => (value === undefined ? '-' : value.toLocaleString('en-US'));
  const table = renderTable(
    ['what', 'ours', 'reference', 'ratio', 'ours structured', 'reference structured', 'ratio', 'goal', 'verdict'],
    report.rows.map((row) => [
      row.label,
      bytes(row.ours),
      bytes(row.reference),
      formatRatio(row.ratio),
      bytes(row.oursStructured),
      bytes(row.referenceStructured),
      formatRatio(row.structuredRatio),
      `<= ${row.goal}x`,
      row.verdict,
    ]),
  );
  const { ours, reference } = report.toolsListBytes;
  return (
    `${table}\n` +
    'Bytes as JSON-encoded (definitions) or UTF-8 (text). "ours"/"reference": the definitions, or the answer\'s text; "structured": the\n' +
    "answer's structuredContent, which VS Code gives the model instead of the text (the reference's is {content: its text}).\n" +
    `The whole tools/list result on the wire, output schemas included: ours ${ours.toLocaleString('en-US')} B, reference ${reference.toLocaleString('en-US')} B.\n` +
    `Not in the definitions above: the tools for MCP Apps views only (_meta.ui.visibility ["app"]), which a host that ignored their visibility would add: ${report.appOnlyDefinitionBytes.toLocaleString('en-US')} B.\n` +
    `A refusal of a path sends the model to explain_path in one sentence: ${Buffer.byteLength(` ${EXPLAIN_HINT}`)} B of its text.\n`
  );
}
