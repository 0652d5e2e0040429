// The walkthrough as the manifest declares it (contributes.walkthroughs): each step's links name
// commands that exist, its completion events are ones the editor knows and its button can fire,
// and its page is in the .vsix. The editor opening it is checked in test/extension.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { shipped } from './vsix.js';

const repoRoot = path.resolve(__dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const nls = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;

interface Step {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly media: { readonly markdown?: string; readonly image?: string; readonly svg?: string; readonly altText?: string };
  readonly completionEvents?: readonly string[];
}

const walkthroughs = manifest.contributes.walkthroughs as { id: string; title: string; description: string; steps: Step[] }[];
const contributed = new Set((manifest.contributes.commands as { command: string }[]).map((entry) => entry.command));
// The editor's own commands a step may link to.
const BUILT_IN = new Set(['workbench.action.openSettings']);
// The completion events the editor's walkthrough service accepts (gettingStartedService).
const EVENT = /^(onCommand|onLink|onView|onSettingChanged|onContext|onExtensionInstalled|onEvent):.+$|^(onStepSelected|stepSelected)$/;

/** The English text behind a %key%. */
function english(text: string): string {
  const key = /^%([\w.-]+)%$/.exec(text)?.[1];
  return key === undefined ? text : (nls[key] ?? assert.fail(`no English text for %${key}%`));
}

/** The markdown links of a description: [label](target). */
function links(description: string): { label: string; target: string }[] {
  return [...description.matchAll(/\[([^\]]+)\]\(([^)\s]+)\)/g)].map((match) => ({ label: match[1]!, target: match[2]! }));
}

/** `command:id?args` as the walkthrough runs it: the query is URI-encoded JSON, one argument or an array of them. */
function commandLink(target: string): { id: string; args: unknown[] } | null {
  const match = /^command:(?:toSide:)?([^?]+)(?:\?(.*))?$/.exec(target);
  if (match === null) return null;
  const parsed: unknown = match[2] === undefined ? [] : JSON.parse(decodeURIComponent(match[2]));
  return { id: match[1]!, args: Array.isArray(parsed) ? parsed : [parsed] };
}

test('one walkthrough, with the four steps the issue asks for, each titled and described', () => {
  assert.equal(walkthroughs.length, 1);
  const [walkthrough] = walkthroughs;
  assert.ok(english(walkthrough!.title).length > 0 && english(walkthrough!.description).length > 0);
  assert.deepEqual(
    walkthrough!.steps.map((step) => step.id),
    ['openInspector', 'traceRefusedPath', 'seeGrants', 'readRefusals'],
  );
  for (const step of walkthrough!.steps) {
    assert.ok(english(step.title).length > 0, `${step.id}: title`);
    assert.ok(english(step.description).length > 0, `${step.id}: description`);
    // The page renders a description's links and nothing else of markdown: `code` and **bold** show their marks.
    assert.doesNotMatch(english(step.description), /`|\*\*/, `${step.id}: markdown the page shows as written`);
  }
});

test("each step's links name a command of this extension or the editor's, with arguments that parse", () => {
  for (const step of walkthroughs.flatMap((walkthrough) => walkthrough.steps)) {
    const found = links(english(step.description));
    assert.ok(found.length > 0, `${step.id} has no link`);
    for (const { target } of found) {
      const command = commandLink(target);
      assert.ok(command !== null, `${step.id}: ${target} is not a command link`);
      assert.ok(contributed.has(command.id) || BUILT_IN.has(command.id), `${step.id}: ${command.id} is no command`);
      assert.ok(command.args.every((arg) => typeof arg === 'string'), `${step.id}: ${target}`);
    }
    // The last line is the step's button: a link alone on its line.
    const lines = english(step.description).split('\n');
    assert.match(lines[lines.length - 1]!, /^\[[^\]]+\]\(command:[^)]+\)$/, `${step.id}: no button`);
  }
});

test("the trace step's button traces its example as the command it links to receives it", () => {
  const step = walkthroughs[0]!.steps.find((candidate) => candidate.id === 'traceRefusedPath')!;
  const lines = english(step.description).split('\n');
  const button = links(lines[lines.length - 1]!).map(({ target }) => commandLink(target)!)[0];
  assert.equal(button?.id, 'boundaryInspector.inspectPath');
  assert.deepEqual(button.args, ['src/../../secret.txt']);
  assert.ok(english(step.description).includes('"src/../../secret.txt"'), 'the description names the example it traces');
});

// The editor hides a step's page when the walkthrough is 950 px wide or less (the chat open beside
// it in a 1400 px window): what the step asks to be traced is in its description too.
test("each input the trace step's page gives to paste is in the step's description, traced by a link but for one that needs a link made first", () => {
  const step = walkthroughs[0]!.steps.find((candidate) => candidate.id === 'traceRefusedPath')!;
  const page = fs.readFileSync(path.join(repoRoot, step.media.markdown!), 'utf8');
  // A list item opens with the input to paste, as code.
  const offered = [...page.matchAll(/^- `([^`]+)`/gm)].map((match) => match[1]!);
  assert.ok(offered.length >= 4, `the page lists ${JSON.stringify(offered)}`);
  const description = english(step.description);
  const traced = links(description).map(({ target }) => commandLink(target)!).filter((command) => command.id === 'boundaryInspector.inspectPath').flatMap((command) => command.args);
  assert.deepEqual(offered.filter((input) => !traced.includes(input)), ['escape/passwd'], `traced by the description: ${JSON.stringify(traced)}`);
  // ...and that one, in the page and the description alike, with how to make its link.
  assert.match(page, /`ln -s \/etc escape`/);
  assert.match(description, /ln -s \/etc escape, then trace escape\/passwd/);
  // What "Copy as test case" gives is said as it is: JSON.
  assert.match(page, /one line of JSON/);
});

// A step's page is drawn in a column as narrow as a third of the walkthrough (the side bar open):
// a table's rows cannot wrap there, a list's do.
test('no walkthrough page holds a table or a line of code wider than the column', () => {
  for (const step of walkthroughs.flatMap((walkthrough) => walkthrough.steps)) {
    if (step.media.markdown === undefined) continue;
    const page = fs.readFileSync(path.join(repoRoot, step.media.markdown), 'utf8');
    assert.doesNotMatch(page, /^\|.*\|$/m, `${step.media.markdown} has a table`);
    assert.doesNotMatch(page, /^```/m, `${step.media.markdown} has a block of code, whose lines do not wrap`);
  }
});

test("each step's completion events are ones the editor knows, and an onCommand one its links can fire", () => {
  for (const step of walkthroughs.flatMap((walkthrough) => walkthrough.steps)) {
    const events = step.completionEvents ?? [];
    // Without any, the editor derives them from the links; written out, they say what "done" means.
    assert.ok(events.length > 0, `${step.id} has no completionEvents`);
    for (const event of events) assert.match(event, EVENT, `${step.id}: ${event}`);
    const linked = new Set(links(english(step.description)).map(({ target }) => commandLink(target)?.id));
    const onCommand = events.filter((event) => event.startsWith('onCommand:')).map((event) => event.slice('onCommand:'.length));
    for (const id of onCommand) assert.ok(contributed.has(id), `${step.id}: ${id} is not a command of this extension`);
    if (onCommand.length > 0) assert.ok(onCommand.some((id) => linked.has(id)), `${step.id}: no link fires ${onCommand.join(', ')}`);
  }
});

test("each step's page exists and goes into the .vsix", () => {
  for (const step of walkthroughs.flatMap((walkthrough) => walkthrough.steps)) {
    const media = step.media.markdown ?? step.media.image ?? step.media.svg;
    assert.ok(media !== undefined, `${step.id} has no media`);
    if (step.media.image !== undefined) assert.ok(step.media.altText, `${step.id}: an image needs altText`);
    assert.ok(fs.existsSync(path.join(repoRoot, media)), `${step.id}: ${media} does not exist`);
    assert.ok(shipped(media), `${step.id}: .vscodeignore leaves ${media} out`);
    if (step.media.markdown !== undefined) assert.match(fs.readFileSync(path.join(repoRoot, media), 'utf8'), /^# \S/, `${media} starts with a heading`);
  }
});
