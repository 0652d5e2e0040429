// What each worker sends, tool by tool. Every call goes through the swapping folder `d`, and the
// names vary so creates, deletes and moves keep having something to do. Victims are refilled,
// and what a call made inside is removed, through the descriptor of the real inside folder
// (fixture.inside), never through the swapping name.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import {
  EDIT_ORIGINAL,
  editName,
  ensureDirectory,
  ensureFile,
  holdsMarker,
  removeUnlessMarked,
  VICTIM_CONTENT,
  victimDirectoryName,
  victimName,
  type Fixture,
} from './fixture.js';

/** Our server, or the reference server `@modelcontextprotocol/server-filesystem`. */
export type Target = 'ours' | 'reference';

export type Request =
  | { readonly kind: 'tool'; readonly name: string; readonly arguments: Record<string, unknown> }
  | { readonly kind: 'resources/list' }
  | { readonly kind: 'resources/read'; readonly uri: string };

export interface Step {
  readonly request: Request;
  /** Runs just before the call is sent. */
  readonly before?: () => void;
  /** Runs once its answer (or error) is back. */
  readonly after?: () => void;
}

export interface StepContext {
  readonly fixture: Fixture;
  readonly target: Target;
  readonly worker: number;
  /** Counts this worker's calls: unique names come from it. */
  readonly iteration: number;
  /** A workspace-relative path as this target takes it: ours relative, the reference's absolute. */
  path(relative: string): string;
}

export interface ToolPlan {
  /** The tool's name (both servers use the same names), or the resource method, or a variant. */
  readonly name: string;
  readonly targets: readonly Target[];
  step(context: StepContext): Step;
}

const pick = <T>(items: readonly T[], index: number): T => items[index % items.length]!;

function tool(name: string, args: Record<string, unknown>, hooks: Omit<Step, 'request'> = {}): Step {
  return { request: { kind: 'tool', name, arguments: args }, ...hooks };
}

const BOTH: readonly Target[] = ['ours', 'reference'];
const OURS: readonly Target[] = ['ours'];

export const PLANS: readonly ToolPlan[] = [
  {
    name: 'read_text_file',
    targets: BOTH,
    step: (c) => tool('read_text_file', { path: c.path(pick(['d/file.txt', 'd/sub/inner.txt'], c.iteration)) }),
  },
  {
    name: 'read_media_file',
    targets: BOTH,
    step: (c) => tool('read_media_file', { path: c.path('d/image.png') }),
  },
  {
    name: 'read_multiple_files',
    targets: BOTH,
    step: (c) => tool('read_multiple_files', { paths: ['d/file.txt', 'd/sub/inner.txt', `d/${editName(c.worker)}`].map(c.path) }),
  },
  {
    name: 'write_file',
    targets: BOTH,
    step: (c) => {
      // Half create a new name (then removed inside, so creating stays possible), half replace a file both sides have.
      if (c.iteration % 2 === 0) return tool('write_file', { path: c.path('d/file.txt'), content: 'replaced by the race harness\n' });
      const name = `new-${c.worker}-${c.iteration}.txt`;
      return tool('write_file', { path: c.path(`d/${name}`), content: 'written by the race harness\n' }, {
        after: () => removeUnlessMarked(c.fixture.inside(name), c.fixture.contentMarker),
      });
    },
  },
  {
    name: 'edit_file',
    targets: BOTH,
    step: (c) => {
      // One file per worker, reset before each call so the edit always applies (outside too: its twin reads the same).
      const name = editName(c.worker);
      return tool('edit_file', { path: c.path(`d/${name}`), edits: [{ oldText: 'value: A', newText: 'value: B' }] }, {
        before: () => {
          const inside = c.fixture.inside(name);
          if (holdsMarker(inside, c.fixture.contentMarker)) c.fixture.markedFilesOverwritten += 1;
          fs.writeFileSync(inside, EDIT_ORIGINAL);
        },
      });
    },
  },
  {
    name: 'create_directory',
    targets: BOTH,
    step: (c) => {
      const name = `newdir-${c.worker}-${c.iteration}`;
      const target = c.iteration % 2 === 0 ? `d/${name}` : `d/${name}/a/b`;
      return tool('create_directory', { path: c.path(target) }, { after: () => removeUnlessMarked(c.fixture.inside(name), c.fixture.contentMarker) });
    },
  },
  {
    name: 'list_directory',
    targets: BOTH,
    step: (c) => tool('list_directory', { path: c.path(pick(['d', 'd/sub'], c.iteration)) }),
  },
  {
    name: 'list_directory_with_sizes',
    targets: BOTH,
    step: (c) => tool('list_directory_with_sizes', { path: c.path(pick(['d', 'd/sub'], c.iteration)) }),
  },
  {
    name: 'directory_tree',
    targets: BOTH,
    step: (c) => tool('directory_tree', { path: c.path(pick(['d', '.'], c.iteration)) }),
  },
  {
    name: 'search_files',
    targets: BOTH,
    step: (c) => tool('search_files', { path: c.path(pick(['d', '.'], c.iteration)), pattern: '**/*' }),
  },
  {
    name: 'get_file_info',
    targets: BOTH,
    step: (c) => tool('get_file_info', { path: c.path(pick(['d/file.txt', 'd/sub', 'd/image.png'], c.iteration)) }),
  },
  {
    name: 'move_file',
    targets: BOTH,
    step: (c) => {
      const victim = victimName(c.worker, c.iteration);
      const moved = `moved-${c.worker}-${c.iteration}`;
      const { fixture } = c;
      const refillInside = () => ensureFile(fixture.inside(victim), VICTIM_CONTENT);
      const refillTop = () => ensureFile(fixture.top(victim), VICTIM_CONTENT);
      const clearInside = () => removeUnlessMarked(fixture.inside(moved), fixture.contentMarker);
      const clearTop = () => removeUnlessMarked(fixture.top(moved), fixture.contentMarker);
      // Both ends through the swap; out of the swap into a folder nobody swaps; and the other way.
      switch (c.iteration % 3) {
        case 0:
          return tool('move_file', { source: c.path(`d/${victim}`), destination: c.path(`d/${moved}`) }, { before: refillInside, after: clearInside });
        case 1:
          return tool('move_file', { source: c.path(`d/${victim}`), destination: c.path(`top/${moved}`) }, { before: refillInside, after: clearTop });
        default:
          return tool('move_file', { source: c.path(`top/${victim}`), destination: c.path(`d/${moved}`) }, { before: refillTop, after: clearInside });
      }
    },
  },
  {
    name: 'delete_path',
    targets: OURS,
    step: (c) => {
      const victim = victimName(c.worker, c.iteration);
      return tool('delete_path', { path: c.path(`d/${victim}`) }, { before: () => ensureFile(c.fixture.inside(victim), VICTIM_CONTENT) });
    },
  },
  {
    name: 'delete_path:recursive',
    targets: OURS,
    step: (c) => {
      const victim = victimDirectoryName(c.worker, c.iteration);
      return tool('delete_path', { path: c.path(`d/${victim}`), recursive: true }, {
        before: () => {
          ensureDirectory(c.fixture.inside(victim));
          ensureFile(c.fixture.inside(`${victim}/inner.txt`), VICTIM_CONTENT);
        },
      });
    },
  },
  {
    name: 'explain_path',
    targets: OURS,
    step: (c) => tool('explain_path', { path: c.path(pick(['d/file.txt', 'd/sub', 'd/image.png'], c.iteration)) }),
  },
  {
    name: 'resources/list',
    targets: OURS,
    step: () => ({ request: { kind: 'resources/list' } }),
  },
  {
    name: 'resources/read',
    targets: OURS,
    step: (c) => ({
      request: { kind: 'resources/read', uri: pathToFileURL(path.join(c.fixture.workspace, pick(['d/file.txt', 'd/sub/inner.txt'], c.iteration))).href },
    }),
  },
];

export const PLAN_NAMES: readonly string[] = PLANS.map((plan) => plan.name);
