import type { ToolDefinition } from './tool.js';
import { auditWorkspace } from './auditWorkspace.js';
import { compareDeciders } from './compareDeciders.js';
import { createDirectory } from './createDirectory.js';
import { deletePath } from './deletePath.js';
import { directoryTree } from './directoryTree.js';
import { editFile } from './editFile.js';
import { explainPath } from './explainPath.js';
import { getFileInfo } from './getFileInfo.js';
import { listDirectory } from './listDirectory.js';
import { listDirectoryWithSizes } from './listDirectoryWithSizes.js';
import { moveFile } from './moveFile.js';
import { readMediaFile } from './readMediaFile.js';
import { readMultipleFiles } from './readMultipleFiles.js';
import { readTextFile } from './readTextFile.js';
import { searchFileContents } from './searchFileContents.js';
import { searchFiles } from './searchFiles.js';
import { writeFile } from './writeFile.js';

/**
 * Every tool that acts in a named workspace; list_workspaces is registered on its own. Each
 * definition is typed by its own input shape, so the list widens them to the common type.
 */
export const WORKSPACE_TOOLS: readonly ToolDefinition[] = [
  explainPath,
  readTextFile,
  readMediaFile,
  readMultipleFiles,
  writeFile,
  editFile,
  createDirectory,
  listDirectory,
  listDirectoryWithSizes,
  directoryTree,
  moveFile,
  searchFiles,
  searchFileContents,
  getFileInfo,
  deletePath,
  auditWorkspace,
  compareDeciders,
] as unknown as readonly ToolDefinition[];
