/**
 * Asking the person before a secret is read or changed. A call that met a path held by an `ask`
 * pattern (tools/secretConsent.ts) is run again once the person answers: allow once (this call),
 * allow for this session, or refuse. On 2026-07-28 the question rides the multi-round-trip result
 * (an `elicitation/create` input request; the client retries with the answer); on 2025-11-25 it
 * is a live `elicitation/create` request. The answer only ever comes from the client's
 * elicitation, never from a tool's arguments: the model cannot answer for the person. Without a
 * client that declares elicitation, the call's own refusal (ERR_SECRET) stands.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, type CallToolResult, type ElicitRequestFormParams, type InputRequiredResult, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { CallConsent, sessionConsents, type HeldPath } from '../tools/secretConsent.js';
import type { Era } from './era.js';

const ANSWERS = { once: 'Allow once', session: 'Allow for this session', refuse: 'Refuse' } as const;
type Answer = keyof typeof ANSWERS;

/** The input request's key on 2026-07-28. */
const QUESTION_KEY = 'secret';
/** Questions one call may lead to (a tool that stops at its first held path meets the next on its rerun). */
const MAX_QUESTIONS = 8;

function question(held: readonly HeldPath[]): ElicitRequestFormParams {
  const lines = held.map(({ access, match }) => `${access === 'read' ? 'read' : 'change'} ${JSON.stringify(match.path.replace(/\/$/, ''))} (secret pattern ${JSON.stringify(match.pattern)}, ${match.source})`);
  return {
    mode: 'form',
    message: `The agent asks to ${lines.join('; ')}. Allow it?`,
    requestedSchema: {
      type: 'object',
      properties: { answer: { type: 'string', title: 'Answer', oneOf: (Object.keys(ANSWERS) as Answer[]).map((key) => ({ const: key, title: ANSWERS[key] })) } },
      required: ['answer'],
    },
  };
}

function answerOf(result: { action: string; content?: Record<string, unknown> | undefined } | undefined): Answer {
  const answer = result?.action === 'accept' ? result.content?.answer : undefined;
  return answer === 'once' || answer === 'session' ? answer : 'refuse';
}

/** The paths asked about and those allowed once in earlier rounds, signed: the client echoes it, and may not widen it. */
interface Asked {
  readonly asked: readonly string[];
  readonly once: readonly string[];
}

const signingKey = randomBytes(32);
const sign = (body: string) => createHmac('sha256', signingKey).update(body).digest('base64url');

function encodeState(state: Asked): string {
  const body = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${body}.${sign(body)}`;
}

function decodeState(text: string | undefined): Asked | undefined {
  if (text === undefined) return undefined;
  const [body, mac] = text.split('.');
  if (body === undefined || mac !== sign(body)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(body, 'base64url').toString()) as Asked;
    return Array.isArray(parsed.asked) && Array.isArray(parsed.once) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

type Result = CallToolResult | InputRequiredResult;

/** Each connection's questions: its era, and its server for a live question on 2025-11-25. */
export class SecretQuestions {
  constructor(
    private readonly era: Era,
    private readonly connection: () => McpServer | undefined,
  ) {}

  /** Runs the call, and when it met held paths and the client can ask, asks and runs it again. */
  async settle(state: object, ctx: ServerContext | undefined, run: (consent: CallConsent) => Promise<Result>): Promise<Result> {
    const session = sessionConsents(state);
    const once = new Set<string>();
    // A retry on 2026-07-28 carries the answer to the question the last round asked.
    const previous = this.era === 'modern' ? decodeState(ctx?.mcpReq.requestState()) : undefined;
    for (const key of previous?.once ?? []) once.add(key);
    let answered = previous !== undefined ? answerOf(inputResponse(ctx?.mcpReq.inputResponses, QUESTION_KEY) as never) : undefined;
    for (let round = 0; ; round++) {
      const consent = new CallConsent(session, once, true);
      const result = await run(consent);
      // The call's refusals of held paths wait for this round's outcome: the log shows a question
      // asked as asked, and a refusal only when the call is refused.
      const refused = () => {
        consent.settle('refused');
        return result;
      };
      if (consent.held.size === 0 || round >= MAX_QUESTIONS) return refused();
      const held = [...consent.held.values()];
      if (answered !== undefined && previous !== undefined) {
        // Only what was asked, and is still what the call needs, is allowed.
        const allowed = held.filter((path) => previous.asked.includes(path.key));
        const answer = answered;
        answered = undefined;
        if (answer === 'refuse' || allowed.length === 0) return refused();
        consent.settle('answered');
        for (const path of allowed) (answer === 'session' ? session : once).add(path.key);
        continue;
      }
      if (this.era === 'modern') {
        if (!this.canAskModern(ctx)) return refused();
        consent.settle('asked');
        return inputRequired({ inputRequests: { [QUESTION_KEY]: inputRequired.elicit(question(held)) }, requestState: encodeState({ asked: held.map((path) => path.key), once: [...once] }) });
      }
      const server = this.connection();
      if (server === undefined || server.server.getClientCapabilities()?.elicitation === undefined) return refused();
      consent.settle('asked');
      let answer: Answer;
      try {
        answer = answerOf(await server.server.elicitInput(question(held)));
      } catch {
        // A client that fails to answer has not consented.
        return refused();
      }
      if (answer === 'refuse') return refused();
      for (const path of held) (answer === 'session' ? session : once).add(path.key);
    }
  }

  private canAskModern(ctx: ServerContext | undefined): boolean {
    const capabilities = ctx?.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope] as { elicitation?: unknown } | undefined;
    return capabilities?.elicitation !== undefined;
  }
}
