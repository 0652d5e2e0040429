/// <reference types="mocha" />
/**
 * The walkthrough (contributes.walkthroughs) in the real editor: its strings come from
 * package.nls.json, its links name registered commands, the trace step's link traces without
 * asking, and workbench.action.openWalkthrough opens it. The harness then checks the page in the
 * workbench from outside (uiChecks.ts, runWalkthroughChecks): its titles and one step's button.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, handOver, harnessInfo, waitFor } from './helpers';
import { patience } from '../../patience';

const WALKTHROUGH_ID = 'gettingStarted';
/** How workbench.action.openWalkthrough names it: `<publisher>.<name>#<id>`. */
const WALKTHROUGH = `${EXTENSION_ID}#${WALKTHROUGH_ID}`;
const EXAMPLE = 'src/../../secret.txt';

interface Manifest {
  readonly displayName: string;
  readonly contributes: {
    readonly walkthroughs: readonly {
      readonly id: string;
      readonly title: string;
      readonly steps: readonly { readonly id: string; readonly title: string; readonly description: string; readonly completionEvents: readonly string[] }[];
    }[];
  };
}

function extension(): vscode.Extension<unknown> {
  const found = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(found, `${EXTENSION_ID} is not installed in this editor`);
  return found;
}

function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs);
}

async function closeEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await waitFor(() => (allTabs().length === 0 ? true : undefined), 'the editors did not close', 10_000);
}

suite('Walkthrough', function () {
  this.timeout(patience(500_000));

  test('the editor reads its strings from package.nls.json', () => {
    const manifest = extension().packageJSON as Manifest;
    const nls = JSON.parse(readFileSync(path.join(extension().extensionPath, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const walkthrough = manifest.contributes.walkthroughs.find((candidate) => candidate.id === WALKTHROUGH_ID);
    assert.ok(walkthrough, 'no walkthrough in the manifest the editor loaded');
    assert.equal(manifest.displayName, nls['displayName']);
    assert.equal(walkthrough.title, nls['walkthrough.title']);
    assert.deepEqual(
      walkthrough.steps.map((step) => step.title),
      walkthrough.steps.map((step) => nls[`walkthrough.${step.id}.title`]),
    );
  });

  test("its links and completion events name the editor's registered commands", async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const { steps } = (extension().packageJSON as Manifest).contributes.walkthroughs.find((candidate) => candidate.id === WALKTHROUGH_ID)!;
    const named = steps.flatMap((step) => [
      ...[...step.description.matchAll(/\]\(command:([^?)]+)/g)].map((match) => match[1]!),
      ...step.completionEvents.filter((event) => event.startsWith('onCommand:')).map((event) => event.slice('onCommand:'.length)),
    ]);
    assert.ok(named.length >= 4);
    assert.deepEqual(named.filter((command) => !registered.has(command)), []);
  });

  test("the trace step's link traces its input in the inspector without asking for one", async () => {
    await closeEditors();
    // An input box would keep the command from settling.
    const settled = await Promise.race([
      Promise.resolve(vscode.commands.executeCommand('boundaryInspector.inspectPath', EXAMPLE)).then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), patience(10_000))),
    ]);
    assert.ok(settled, 'inspectPath with an input did not settle: it asked for one');
    await waitFor(
      () => (allTabs().some((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('boundaryInspector.inspector')) ? true : undefined),
      'no inspector tab appeared',
      15_000,
    );
  });

  test('workbench.action.openWalkthrough opens it in the editor', async () => {
    await closeEditors();
    // The UI checks did three steps' work (their commands); opened now, the page would choose the
    // fourth, which is done once chosen, and the editor would put the finished walkthrough away.
    await vscode.commands.executeCommand('resetGettingStartedProgress');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
    // The page is the editor's own, with no API input type and the editor's name for it ("Welcome"):
    // here only that it opened; the harness reads what it shows.
    const tab = await waitFor(() => allTabs().find((candidate) => candidate.isActive), 'no tab opened', 15_000);
    assert.equal(allTabs().length, 1);
    assert.equal(tab.input, undefined, `the tab ${tab.label} is not the editor's walkthrough page`);
  });

  test('the harness checks the page in the workbench', async function () {
    if (harnessInfo()?.drivesUi !== true) this.skip();
    assert.ok(allTabs().some((candidate) => candidate.isActive), 'no active tab: the walkthrough is not open');
    const outcome = await handOver('walkthrough', { walkthrough: WALKTHROUGH });
    console.log(`[walkthrough] harness finished: ${outcome.ok ? 'all checks passed' : `${outcome.failures?.length ?? '?'} failed`}`);
  });
});
