// The workspace as Gemini CLI builds it (core utils/workspaceContext.js, config/storage.js,
// Config.validatePathAccess): the working folder and the included folders by their real paths,
// the names refused inside them, the project's temporary folder and the global memory file.
import type { RuleSource } from '../types.js';
import { blockedSegment, GeminiPathError, isPathWithinRoot, isSubpath, realpathOf, resolveToRealPath, type GeminiHost } from './paths.js';

export interface IncludedFolder {
  /** As written (after `~` expansion). */
  readonly written: string;
  readonly source: RuleSource;
}

export interface WorkspaceFolders {
  /** The workspace folders' real paths, the working folder first, each once. */
  readonly directories: readonly string[];
  /** Where each folder came from, by its real path. */
  readonly sources: ReadonlyMap<string, RuleSource>;
  /** An included folder Gemini CLI could not add: it stops at start. */
  readonly failure?: { readonly folder: IncludedFolder; readonly message: string };
}

/** WorkspaceContext.resolveAndValidateDir: the folder must exist and be a folder; its real path is kept. */
function resolveAndValidateDir(host: GeminiHost, targetDir: string, directory: string): string {
  const absolute = host.path.resolve(targetDir, directory);
  const real = realpathOf(host, absolute);
  if (real === undefined) throw new GeminiPathError(`Directory does not exist: ${absolute}`);
  if (host.fs.lstat(real).kind !== 'directory') throw new GeminiPathError(`Path is not a directory: ${absolute}`);
  return resolveToRealPath(host, absolute);
}

/** The working folder, then each included folder in order, as Config.initialize adds them. */
export function workspaceFolders(host: GeminiHost, included: readonly IncludedFolder[]): WorkspaceFolders {
  const directories: string[] = [];
  const sources = new Map<string, RuleSource>();
  const add = (real: string, source: RuleSource) => {
    if (directories.includes(real)) return;
    directories.push(real);
    sources.set(real, source);
  };
  add(resolveAndValidateDir(host, host.processCwd, host.processCwd), { text: 'the working folder' });
  for (const folder of included) {
    try {
      add(resolveAndValidateDir(host, host.processCwd, folder.written), folder.source);
    } catch (error) {
      return { directories, sources, failure: { folder, message: (error as Error).message } };
    }
  }
  return { directories, sources };
}

/** Why isPathWithinWorkspace said what it did. */
export interface WithinWorkspace {
  readonly inside: boolean;
  /** The path as the check resolved it (decoded once more, links resolved). */
  readonly resolved?: string;
  /** The workspace folder that holds it: the first, in order. */
  readonly folder?: string;
  /** The refused name, when the folder holds it below a `.git`, `.env`... */
  readonly blocked?: string;
  readonly error?: string;
}

/** WorkspaceContext.isPathWithinWorkspace: the first folder holding the path decides, and refuses a blocked name under it. */
export function isPathWithinWorkspace(host: GeminiHost, folders: WorkspaceFolders, pathToCheck: string): WithinWorkspace {
  let resolved: string;
  try {
    resolved = resolveToRealPath(host, host.path.resolve(host.processCwd, pathToCheck));
  } catch (error) {
    return { inside: false, error: (error as Error).message };
  }
  for (const folder of folders.directories) {
    if (!isPathWithinRoot(host, resolved, folder)) continue;
    const blocked = blockedSegment(host.path.relative(folder, resolved));
    return blocked === undefined ? { inside: true, resolved, folder } : { inside: false, resolved, folder, blocked };
  }
  return { inside: false, resolved };
}

/** Where Gemini CLI keeps its own files, and the project's temporary folder. */
export interface GeminiStorage {
  /** ~/.gemini (GEMINI_CLI_HOME replaces the home folder). */
  readonly globalDir: string;
  /** ~/.gemini, or ~/.cache/.gemini under macOS's sandbox-exec. */
  readonly runtimeDir: string;
  readonly registryPath: string;
  /** ~/.gemini/tmp/<project>: inside it is allowed as the workspace is. */
  readonly projectTempDir: string;
  /** How the project's name there was found. */
  readonly identifierNote: string;
  readonly registryFound: boolean;
}

const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '') || 'project';

/** The project's short name under ~/.gemini/tmp (ProjectRegistry.getShortId), as the next start would find or claim it. */
function projectIdentifier(host: GeminiHost, runtimeDir: string, registryPath: string): { id: string; note: string; registryFound: boolean } {
  const { path, fs } = host;
  const normalise = (p: string) => (host.platform === 'win32' ? path.resolve(host.processCwd, p).toLowerCase() : path.resolve(host.processCwd, p));
  const project = normalise(host.processCwd);
  const baseDirs = [path.join(runtimeDir, 'tmp'), path.join(runtimeDir, 'history')];
  const ownerOf = (base: string, slug: string) => fs.readText(path.join(base, slug, '.project_root'))?.trim();
  const ownedHere = (slug: string) => baseDirs.every((base) => {
    const owner = ownerOf(base, slug);
    return owner === undefined || normalise(owner) === project;
  });
  let projects: Record<string, unknown> = {};
  const text = fs.readText(registryPath);
  try {
    const parsed: unknown = text === undefined ? undefined : JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { projects?: unknown }).projects === 'object') projects = { ...(parsed as { projects: Record<string, unknown> }).projects };
  } catch {
    // A broken registry is reset to empty.
  }
  const registered = projects[project];
  if (typeof registered === 'string' && registered !== '') {
    if (ownedHere(registered)) return { id: registered, note: `registered in ${registryPath}`, registryFound: true };
    delete projects[project];
  }
  for (const base of baseDirs) {
    for (const candidate of fs.listNames?.(base, 10_000) ?? []) {
      const owner = ownerOf(base, candidate);
      if (owner !== undefined && normalise(owner) === project) return { id: candidate, note: `its folder's .project_root names this project`, registryFound: text !== undefined };
    }
  }
  const taken = new Set(Object.values(projects));
  const slug = slugify(path.basename(project) || 'project');
  for (let counter = 0; ; counter++) {
    const candidate = counter === 0 ? slug : `${slug}-${counter}`;
    if (taken.has(candidate)) continue;
    if (baseDirs.some((base) => {
      const owner = ownerOf(base, candidate);
      return owner !== undefined && normalise(owner) !== project;
    })) continue;
    return { id: candidate, note: `not registered yet: the working folder's name, made a slug, is claimed at start`, registryFound: text !== undefined };
  }
}

export function geminiStorage(host: GeminiHost, home: string, env: Readonly<Record<string, string | undefined>>): GeminiStorage {
  const { path } = host;
  const globalDir = path.join(home, '.gemini');
  const runtimeDir = env.SANDBOX === 'sandbox-exec' ? path.join(home, '.cache', '.gemini') : globalDir;
  const registryPath = path.join(runtimeDir, 'projects.json');
  const { id, note, registryFound } = projectIdentifier(host, runtimeDir, registryPath);
  return { globalDir, runtimeDir, registryPath, projectTempDir: path.join(runtimeDir, 'tmp', id), identifierNote: note, registryFound };
}

/** Which of Config.isPathAllowed's places let a path through, or why none did. */
export type PathAccess =
  | { readonly allowed: true; readonly by: 'workspace'; readonly within: WithinWorkspace }
  | { readonly allowed: true; readonly by: 'project temp dir' | 'global memory file'; readonly within: WithinWorkspace }
  | { readonly allowed: false; readonly why: 'invalid' | 'not in workspace' | 'memory inbox'; readonly message: string; readonly within?: WithinWorkspace };

const MAX_PATH_LENGTH = 4096;
const MAX_COMPONENT_LENGTH = 255;

/** validatePath: what Gemini CLI takes for a path at all before asking where it is. */
function invalidPath(path: string): string | undefined {
  if (path === '') return 'Path must be a non-empty string.';
  if (/[\n\r\0\t]/.test(path)) return 'Path contains invalid characters (newlines or control characters).';
  if ([/(^|[/\\])AssertionError:/, /(^|[/\\])FAIL /, /(^|[/\\])✓ /, /(^|[/\\])× /, /(^|[/\\])TestingLibraryElementError:/].some((marker) => marker.test(path))) {
    return 'Path appears to be a misinterpreted log fragment.';
  }
  if ((path.includes('"') || path.includes('...')) && path.length > 20) return 'Path contains suspicious characters (double quotes or ellipses) and is too long to be a simple filename.';
  if (path.length > MAX_PATH_LENGTH) return `Path is too long (maximum ${MAX_PATH_LENGTH} characters).`;
  const long = path.split(/[/\\]/).find((name) => name.length > MAX_COMPONENT_LENGTH);
  if (long !== undefined) return `Path component "${long.slice(0, 20)}..." is too long (maximum ${MAX_COMPONENT_LENGTH} characters).`;
  return undefined;
}

/**
 * Config.validatePathAccess for a tool's resolved path: a read is let through inside the
 * workspace; otherwise (and for every write) isPathAllowed looks at the workspace, the project's
 * temporary folder and the global memory file, never at its memory inbox.
 */
export function validatePathAccess(
  host: GeminiHost,
  folders: WorkspaceFolders,
  storage: GeminiStorage,
  memoryFileName: string,
  absolutePath: string,
  checkType: 'read' | 'write',
): PathAccess {
  const invalid = invalidPath(absolutePath);
  if (invalid !== undefined) return { allowed: false, why: 'invalid', message: `Invalid path: ${invalid}` };
  const { path } = host;
  let firstLook: WithinWorkspace | undefined;
  if (checkType === 'read') {
    firstLook = isPathWithinWorkspace(host, folders, absolutePath);
    if (firstLook.inside) return { allowed: true, by: 'workspace', within: firstLook };
  }
  const refused = (within: WithinWorkspace): PathAccess => ({
    allowed: false,
    why: 'not in workspace',
    message: `Path not in workspace: Attempted path "${absolutePath}" resolves outside the allowed workspace directories: ${folders.directories.join(', ')} or the project temp directory: ${storage.projectTempDir}`,
    within,
  });
  let resolved: string;
  try {
    resolved = resolveToRealPath(host, absolutePath);
  } catch (error) {
    return refused(firstLook ?? { inside: false, error: (error as Error).message });
  }
  const inbox = path.join(storage.projectTempDir, 'memory', '.inbox');
  const realInbox = resolveToRealPath(host, inbox);
  const normalized = path.resolve(host.processCwd, absolutePath);
  if (resolved === realInbox || isSubpath(host, realInbox, resolved) || normalized === inbox || isSubpath(host, inbox, normalized)) {
    return { allowed: false, why: 'memory inbox', message: `Path not in workspace: ${absolutePath} is in Gemini CLI's memory inbox, kept for its memory agent`, within: firstLook ?? { inside: false, resolved } };
  }
  const within = isPathWithinWorkspace(host, folders, resolved);
  if (within.inside) return { allowed: true, by: 'workspace', within };
  if (isSubpath(host, resolveToRealPath(host, storage.projectTempDir), resolved)) return { allowed: true, by: 'project temp dir', within };
  if (resolved === resolveToRealPath(host, path.join(storage.globalDir, memoryFileName))) return { allowed: true, by: 'global memory file', within };
  return refused(firstLook?.blocked !== undefined ? firstLook : within);
}

/** The nearest folder that exists at or above a path (where an included folder would have to be). */
export function nearestFolder(host: GeminiHost, path: string): string {
  for (let current = path; ; current = host.path.dirname(current)) {
    const real = realpathOf(host, current);
    if (real !== undefined && host.fs.lstat(real).kind === 'directory') return current;
    if (host.path.dirname(current) === current) return current;
  }
}
