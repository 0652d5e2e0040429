import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import * as z from 'zod';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A JSON Schema without what only costs bytes: `$schema` (2020-12 is MCP's default dialect),
 * `additionalProperties: {}` (the default), and the ±2^53-1 bounds zod writes on every `.int()`. Tool definitions go to the model with every
 * request, so their size is paid on every turn.
 */
export function compactSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const compact: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    // Any further property allowed is what JSON Schema says when nothing is said.
    if (key === 'additionalProperties' && value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    compact[key] = compactSchema(value);
  }
  return compact;
}

/**
 * A zod schema as the SDK registers it, listed as its compact JSON Schema and validated by zod
 * itself, so what is checked is what the tool's code reads. The JSON Schema is made at the first
 * tools/list, once: making all of them is most of what a connection's server costs to set up,
 * and the handshake, answered before it, needs none.
 */
export function listedSchema<T extends z.ZodType>(schema: T): StandardSchemaWithJSON<z.input<T>, z.output<T>> {
  const made: { input?: Record<string, unknown>; output?: Record<string, unknown> } = {};
  const listed = (io: 'input' | 'output') => (made[io] ??= compactSchema(z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Json) as Record<string, unknown>);
  const own = schema['~standard'];
  return {
    '~standard': {
      version: 1,
      vendor: own.vendor,
      validate: own.validate,
      jsonSchema: { input: () => listed('input'), output: () => listed('output') },
    },
  } as StandardSchemaWithJSON<z.input<T>, z.output<T>>;
}
