// The file layer: every filesystem call a tool makes after the core's verdict goes through here.
export { Anchor, anchorOf, currentAnchor, HeldFolders, openFolder, type AnchorMode, type CheckedPath, type WorkspaceChange } from './anchor.js';
export { type Base } from './commit.js';
export { ChangedError, compareNames, entryTypeOf, errnoOf, fsError, notThere, sameVersion, type EntryType } from './errors.js';
export { type Folder } from './folder.js';
// The operations the tools perform, one file each. Each takes a CheckedPath (the core's verdict,
// its names checked again by the anchor) and acts on it through anchored folders only, one entry
// at a time.
export { describe } from './describe.js';
export { makeDirectories } from './makeDirectories.js';
export { destinationExists, move } from './move.js';
export { readFile, readIn } from './read.js';
export { remove } from './remove.js';
export { baseOf, contentBase, settleTemporaries, writeFile, type WriteResult } from './write.js';
export { tagOf, TEMPORARY_NAME, temporaryNameFor, thisProcess, useWriters, writerAliveHere, writerOfTag, type Writer, type Writers } from './temporary.js';
export { readLineWindow, type LineWindow, type WindowRead } from './lines.js';
export { STOP, STOP_BEFORE, walk, walkInTurns, type Below, type WalkEntry, type WalkOptions, type WalkResult } from './walk.js';
