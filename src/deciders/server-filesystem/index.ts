// The reference filesystem server, @modelcontextprotocol/server-filesystem 2026.8.31: its allowed
// directories as its start-up prepares them (allowedDirectories.ts), then validatePath
// (validatePath.ts), which every tool calls alike. Checked against the server running (the
// recording) and against its own validatePath (test/deciders/server-filesystem.test.ts).
import { spelledOut, visible } from '../../core/index.js';
import { isToolName, OPERATIONS } from '../../shared/operations.js';
import { boundaryInspector } from '../boundary-inspector/index.js';
import { nodePath, nodeRealpath } from '../shared/node.js';
import type { Access, Decider, DeciderContext, DeciderStage, DeciderVerdict, Fix } from '../types.js';
import { allowedDirectories, type AllowedDirectories } from './allowedDirectories.js';
import { isPathWithinAllowedDirectories, normalizePath } from './pathUtils.js';
import { validatePath, type Validated } from './validatePath.js';

const PROGRAM = 'the reference filesystem server (@modelcontextprotocol/server-filesystem)';
const VERSION = '2026.8.31';

const TOOLS = {
  read: ['read_text_file', 'read_media_file', 'read_multiple_files', 'list_directory', 'list_directory_with_sizes', 'directory_tree', 'search_files', 'get_file_info'],
  change: ['write_file', 'edit_file', 'create_directory', 'move_file'],
} as const;

interface Judged {
  readonly prepared: AllowedDirectories;
  /** Undefined when the server would not start. */
  readonly validated?: Validated;
}

function judge(input: string, context: DeciderContext): Judged {
  const prepared = allowedDirectories(context);
  if (context.allowed.length > 0 && prepared.directories.length === 0) return { prepared };
  return { prepared, validated: validatePath(input, prepared.directories, context) };
}

const allows = (judged: Judged) => judged.validated !== undefined && judged.validated.refusal === undefined;

/** The deepest existing folder at or above `path`, as the disk has it. */
function existingFolder(path: string, context: DeciderContext): string | undefined {
  const node = nodePath(context.platform);
  for (let at = path; ; at = node.dirname(at)) {
    const real = nodeRealpath(context.fs, at, context.platform);
    if (real.ok && context.fs.lstat(real.path).kind === 'directory') return at;
    if (node.dirname(at) === at) return undefined;
  }
}

/**
 * The changes that would let the request through, each tried on the model before it is offered:
 * a path that works instead (a link's real path, one Unicode spelling, the file in an allowed
 * directory), or a directory to add to the command line.
 */
function fixesFor(input: string, judged: Judged, context: DeciderContext): Fix[] {
  const node = nodePath(context.platform);
  const v = judged.validated;
  const candidates: Fix[] = [];
  const addDirectory = (dir: string | undefined, why: string, path?: string) => {
    if (dir !== undefined) candidates.push({ text: `Add ${visible(dir)} to the server's allowed directories (${why}).`, flag: dir, ...(path ? { path } : {}) });
  };
  if (v === undefined) {
    for (const dir of context.allowed) addDirectory(existingFolder(node.resolve(context.cwd, dir), context), 'the nearest folder of a directory that does not exist');
  } else {
    if (v.real !== undefined) candidates.push({ text: `Use the real path ${visible(v.real)}, which every link on the way leads to.`, path: v.real });
    for (const spelling of v.ambiguous ?? []) {
      const rest = v.absolute === undefined ? [] : node.relative(context.cwd, v.missingFrom ?? spelling, v.absolute).split(node.sep).slice(1);
      const path = node.join(spelling, ...rest);
      candidates.push({ text: `Name the folder by its exact spelling on disk, ${spelledOut(node.relative(context.cwd, node.dirname(spelling), spelling))}: ${visible(path)}.`, path });
    }
    if (v.danglingLink !== undefined) {
      const target = context.fs.readlink(v.danglingLink);
      if (target.ok) {
        const landing = node.resolve(context.cwd, node.dirname(v.danglingLink), target.target);
        candidates.push({ text: `Write to the link's target ${visible(landing)} itself.`, path: landing });
        addDirectory(existingFolder(node.dirname(landing), context), "the folder of the link's target", landing);
      }
    }
    if (v.refusal?.startsWith('Access denied - Windows-style path') === true) {
      // The file the Windows path names, looked for by its last names in each allowed directory.
      const names = input.split(/[\\/]/).slice(1).filter(Boolean);
      for (const dir of judged.prepared.directories) {
        for (let from = 0; from < names.length; from++) {
          const path = node.join(dir, ...names.slice(from));
          if (nodeRealpath(context.fs, path, context.platform).ok) candidates.push({ text: `Send a path of this machine: ${visible(path)}.`, path });
        }
      }
    }
    if (v.absolute !== undefined) addDirectory(existingFolder(v.absolute, context), 'the folder the path names');
    if (v.real !== undefined) addDirectory(existingFolder(v.real, context), 'the folder its links lead to');
  }
  const seen = new Set<string>();
  const working = candidates.filter((fix) => {
    const key = `${fix.path ?? ''}\u0000${fix.flag ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    const tried = { ...context, allowed: fix.flag === undefined ? context.allowed : [...context.allowed, fix.flag] };
    return allows(judge(fix.path ?? input, tried));
  });
  return working.length > 0 ? working : [{ text: 'Give the server an allowed directory that holds the file and exists, or send a path inside one of its allowed directories.' }];
}

/** This server's own tool for the same access, to compare with. */
function ownTool(tool: string, access: Access): string {
  return isToolName(tool) && OPERATIONS[tool].changes === (access === 'change') ? tool : access === 'change' ? 'write_file' : 'read_text_file';
}

function differencesFor(input: string, tool: string, access: Access, judged: Judged, decision: DeciderVerdict['decision'], context: DeciderContext): string[] {
  const differences: string[] = [];
  const v = judged.validated;
  const dirs = judged.prepared.directories;
  for (const { original, resolved } of judged.prepared.linked) {
    differences.push(`It takes the allowed directory ${visible(original)}, a link, as allowing its target ${visible(resolved)} by its own path too; Boundary Inspector judges a path against the workspace's real path, whichever way it was written.`);
  }
  if (v?.relativeFrom !== undefined && dirs.length > 1) {
    differences.push(`It took the relative path from ${visible(v.relativeFrom)}, the first allowed directory under which it lands, whether or not the file is there; Boundary Inspector takes a relative path from its one workspace root.`);
  }
  for (const { requested, onDisk } of v?.unicodeMatches ?? []) {
    differences.push(`For a path that does not exist, it matched the name ${spelledOut(requested)} to ${spelledOut(onDisk)} on disk by NFC form; Boundary Inspector compares names as the filesystem does, and on Linux these are two names.`);
  }
  if (v?.ambiguous !== undefined) differences.push('It refuses a name equal in NFC to two entries of its folder; Boundary Inspector looks up the name as written.');
  if (v?.danglingLink !== undefined) differences.push(`It reports the link to nothing ${visible(v.danglingLink)} as a missing parent folder; Boundary Inspector says the link dangles, or leads outside (ERR_SYMLINK_DANGLING, ERR_SYMLINK_ESCAPE).`);
  if (input.trim().replace(/^["']|["']$/g, '') !== input) differences.push('It drops surrounding spaces and quotes for its check only: the tool then opens the path with them.');
  const foldedInside = () =>
    v?.absolute !== undefined && isPathWithinAllowedDirectories(normalizePath(v.absolute, context.platform).toLowerCase(), dirs.map((dir) => dir.toLowerCase()), context.platform, context.cwd);
  if (context.platform !== 'linux' && decision === 'deny' && v?.refusal?.startsWith('Access denied - path outside') === true && foldedInside()) differences.push(`It compares paths as strings with their letter case, where ${context.platform === 'win32' ? 'Windows' : 'macOS'} folds case: this path names a folder it allows, in another case, and is refused.`);
  // This server, given the same folders as workspaces, on the same input.
  const ours = dirs.map((root) => boundaryInspector.decide(input, ownTool(tool, access), { ...context, root }));
  const best = ours.find((verdict) => verdict.decision === 'allow') ?? ours[0];
  if (best !== undefined && best.decision !== decision) {
    differences.push(`Boundary Inspector, given the same folders as workspaces, would ${best.decision} this (${best.rule.text.replace(/\.$/, '')}).`);
  }
  return differences;
}

function stagesOf(judged: Judged): DeciderStage[] {
  return [judged.prepared.stage, ...(judged.validated?.stages ?? [])];
}

export const serverFilesystem: Decider = {
  name: 'server-filesystem',
  program: PROGRAM,
  version: VERSION,
  tools: TOOLS,
  decide(input: string, toolName: string, context: DeciderContext): DeciderVerdict {
    const access: Access = (TOOLS.change as readonly string[]).includes(toolName) ? 'change' : 'read';
    const tool = (TOOLS[access] as readonly string[]).includes(toolName) ? toolName : TOOLS[access][0];
    const judged = judge(input, context);
    const v = judged.validated;
    const decision = allows(judged) ? 'allow' : 'deny';
    const flag = { text: context.allowed.join(' '), flag: `mcp-server-filesystem ${context.allowed.join(' ')}` };
    const rule =
      v === undefined
        ? { text: 'Error: None of the specified directories are accessible (the server exits at start)', source: flag }
        : v.refusal !== undefined
          ? { text: v.refusal, source: flag }
          : { text: v.failure === undefined ? `validatePath returned ${v.path ?? ''}` : `validatePath let the path through; the tool then fails: ${v.failure}`, source: flag };
    return {
      decider: 'server-filesystem',
      program: PROGRAM,
      version: VERSION,
      // Recorded on Linux; the Windows branches are read from its code.
      basis: context.platform === 'win32' ? 'documented' : 'recorded',
      tool,
      access,
      input,
      decision,
      rule,
      path: v?.path ?? null,
      stages: stagesOf(judged),
      fixes: decision === 'allow' ? [] : fixesFor(input, judged, context),
      differences: differencesFor(input, tool, access, judged, decision, context),
      configFiles: [],
    };
  },
};
