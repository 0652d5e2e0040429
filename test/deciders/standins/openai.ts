// The OpenAI Responses API, streamed (Codex): POST /v1/responses; a call is an output item
// (`function_call`, or `custom_tool_call` for a freeform tool such as apply_patch), its answer a
// `function_call_output` or `custom_tool_call_output` item in a later request's input.
import type { ApiShape, ToolAnswer } from './service.js';
import { sendEvents, sendJson } from './service.js';

interface Item {
  type?: string;
  name?: string;
  call_id?: string;
  output?: unknown;
}
interface Body {
  model?: string;
  tools?: { type?: string; name?: string }[];
  input?: Item[];
}

/** A tool output is a string, or content items with text. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((part: { text?: string }) => part.text ?? '').join('');
  if (output !== null && typeof output === 'object' && 'content' in output) return outputText((output as { content: unknown }).content);
  return JSON.stringify(output);
}

/** The freeform tools take their input as one text (`input`), the others JSON `arguments`. */
export const FREEFORM_INPUT = 'input';

export const openai: ApiShape = {
  readTurn(url, raw) {
    if (!url.endsWith('/responses')) return undefined;
    const body = (raw ?? {}) as Body;
    const toolNames = (body.tools ?? []).map((tool) => tool.name ?? tool.type ?? '');
    const names = new Map<string, string>();
    const answers: ToolAnswer[] = [];
    for (const item of body.input ?? []) {
      if ((item.type === 'function_call' || item.type === 'custom_tool_call') && item.call_id !== undefined) names.set(item.call_id, item.name ?? '');
      if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
        answers.push({ name: names.get(item.call_id ?? '') ?? '', output: outputText(item.output), isError: false });
    }
    return { offersTools: toolNames.length > 0, toolNames, answers };
  },
  reply(res, _url, raw, answer, callId) {
    const model = ((raw ?? {}) as Body).model ?? 'gpt-5.5';
    const id = `resp_${callId}`;
    const item =
      'text' in answer
        ? { type: 'message', id: `msg_${callId}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text, annotations: [] }] }
        : FREEFORM_INPUT in answer.args
          ? { type: 'custom_tool_call', id: `ctc_${callId}`, call_id: callId, name: answer.name, input: answer.args[FREEFORM_INPUT], status: 'completed' }
          : { type: 'function_call', id: `fc_${callId}`, call_id: callId, name: answer.name, arguments: JSON.stringify(answer.args), status: 'completed' };
    const usage = { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 };
    const response = { id, object: 'response', created_at: 0, model, status: 'in_progress', output: [] as unknown[] };
    sendEvents(res, [
      { event: 'response.created', data: { type: 'response.created', sequence_number: 0, response } },
      { event: 'response.output_item.added', data: { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item } },
      { event: 'response.output_item.done', data: { type: 'response.output_item.done', sequence_number: 2, output_index: 0, item } },
      { event: 'response.completed', data: { type: 'response.completed', sequence_number: 3, response: { ...response, status: 'completed', output: [item], usage } } },
    ]);
  },
  other(res, url) {
    if (url.includes('/models')) return sendJson(res, 200, { object: 'list', data: [], models: [] });
    sendJson(res, 404, { error: { message: 'not here', type: 'not_found' } });
  },
};
