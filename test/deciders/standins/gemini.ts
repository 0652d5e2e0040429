// The Gemini API (Gemini CLI): POST /v1beta/models/<model>:streamGenerateContent?alt=sse or
// :generateContent with `tools[].functionDeclarations`; a call is a `functionCall` part, its
// answer a `functionResponse` part in a later content.
import type { ApiShape, ToolAnswer } from './service.js';
import { sendEvents, sendJson } from './service.js';

interface Part {
  text?: string;
  functionCall?: { name?: string };
  functionResponse?: { name?: string; response?: Record<string, unknown> };
}
interface Body {
  contents?: { role?: string; parts?: Part[] }[];
  tools?: { functionDeclarations?: { name?: string }[] }[];
  generationConfig?: { responseMimeType?: string };
}

/** A side request that asks for JSON (the next-speaker check, the model router) gets an answer each can read. */
const SIDE_JSON = JSON.stringify({ next_speaker: 'user', reasoning: 'done', model_choice: 'flash' });

export const gemini: ApiShape = {
  readTurn(url, raw) {
    if (!/:(stream)?generateContent/i.test(url)) return undefined;
    const body = (raw ?? {}) as Body;
    const toolNames = (body.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name ?? ''));
    const answers: ToolAnswer[] = [];
    for (const content of body.contents ?? []) {
      for (const part of content.parts ?? []) {
        const response = part.functionResponse;
        if (response === undefined) continue;
        const { output, error } = (response.response ?? {}) as { output?: unknown; error?: unknown };
        const text = error ?? output ?? response.response;
        answers.push({ name: response.name ?? '', output: typeof text === 'string' ? text : JSON.stringify(text), isError: error !== undefined });
      }
    }
    return { offersTools: toolNames.includes('read_file'), toolNames, answers };
  },
  reply(res, url, raw, answer) {
    const body = (raw ?? {}) as Body;
    const part =
      'text' in answer
        ? { text: body.generationConfig?.responseMimeType === 'application/json' ? SIDE_JSON : answer.text }
        : { functionCall: { name: answer.name, args: answer.args } };
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      modelVersion: 'gemini-2.5-flash',
    };
    if (/:streamGenerateContent/i.test(url)) sendEvents(res, [{ data: chunk }]);
    else sendJson(res, 200, chunk);
  },
  other(res, url) {
    if (/:countTokens/i.test(url)) return sendJson(res, 200, { totalTokens: 1 });
    sendJson(res, 404, { error: { code: 404, message: 'not here', status: 'NOT_FOUND' } });
  },
};
