// The Anthropic Messages API, streamed (Claude Code): POST /v1/messages with `tools`; a call is a
// `tool_use` block, its answer a `tool_result` block in a later user message.
import type { ApiShape, ToolAnswer } from './service.js';
import { sendEvents, sendJson } from './service.js';

interface Block {
  type?: string;
  text?: string;
  name?: string;
  id?: string;
  tool_use_id?: string;
  content?: string | Block[];
  is_error?: boolean;
}
interface Body {
  model?: string;
  tools?: { name?: string }[];
  messages?: { role?: string; content?: string | Block[] }[];
}

const textOf = (content: string | Block[] | undefined): string =>
  typeof content === 'string' ? content : (content ?? []).map((block) => block.text ?? '').join('');

export const anthropic: ApiShape = {
  readTurn(url, raw) {
    if (!url.startsWith('/v1/messages') || url.startsWith('/v1/messages/count_tokens')) return undefined;
    const body = (raw ?? {}) as Body;
    const toolNames = (body.tools ?? []).map((tool) => tool.name ?? '');
    const names = new Map<string, string>();
    const answers: ToolAnswer[] = [];
    for (const message of body.messages ?? []) {
      if (typeof message.content === 'string') continue;
      for (const block of message.content ?? []) {
        if (block.type === 'tool_use' && block.id !== undefined) names.set(block.id, block.name ?? '');
        if (block.type === 'tool_result')
          answers.push({ name: names.get(block.tool_use_id ?? '') ?? '', output: textOf(block.content), isError: block.is_error === true });
      }
    }
    return { offersTools: toolNames.includes('Read'), toolNames, answers };
  },
  reply(res, _url, raw, answer, callId) {
    const model = ((raw ?? {}) as Body).model ?? 'claude-sonnet-4-5';
    const usage = { input_tokens: 1, output_tokens: 1 };
    const block =
      'text' in answer
        ? { start: { type: 'text', text: '' }, delta: { type: 'text_delta', text: answer.text } }
        : { start: { type: 'tool_use', id: `toolu_${callId}`, name: answer.name, input: {} }, delta: { type: 'input_json_delta', partial_json: JSON.stringify(answer.args) } };
    sendEvents(res, [
      { event: 'message_start', data: { type: 'message_start', message: { id: `msg_${callId}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: block.start } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: block.delta } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'text' in answer ? 'end_turn' : 'tool_use', stop_sequence: null }, usage } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
  },
  other(res, url) {
    if (url.startsWith('/v1/messages/count_tokens')) return sendJson(res, 200, { input_tokens: 1 });
    sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'not here' } });
  },
};
