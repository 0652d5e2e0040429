// The file layer: every filesystem call a tool makes after the core's verdict goes through here.
export { Anchor, anchorOf, currentAnchor, type AnchorMode, type CheckedPath, type WorkspaceChange } from './anchor.js';
export { type Base } from './commit.js';
export { ChangedError, compareNames, entryTypeOf, errnoOf, fsError, notThere, sameVersion, type EntryType } from './errors.js';
export { type Folder } from './folder.js';
export { baseOf, contentBase, describe, destinationExists, makeDirectories, move, openFolder, readFile, readIn, remove, settleTemporaries, writeFile, type WriteResult } from './operations.js';
export { tagOf, TEMPORARY_NAME, temporaryNameFor, thisProcess, useWriters, writerAliveHere, writerOfTag, type Writer, type Writers } from './temporary.js';
export { readLineWindow, type LineWindow, type WindowRead } from './lines.js';
export { STOP, STOP_BEFORE, walk, walkInTurns, type Below, type WalkEntry, type WalkOptions, type WalkResult } from './walk.js';
