/**
 * What explain_path's result carries for its MCP Apps view besides the structured result: the
 * trace's facts the model does not need (they travel in the result's `_meta`, which clients do
 * not show the model). Shared by the server, which writes them, and the view, which reads them.
 */
import type { Trace } from '../core/types.js';

export const TRACE_FACTS_META_KEY = 'io.github.boundary-inspector/trace';

export type TraceFacts = Pick<Trace, 'input' | 'root' | 'rootPath' | 'platform' | 'policy' | 'links' | 'kind' | 'secret'>;
