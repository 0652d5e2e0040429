// What the MCP SDK takes from its `@modelcontextprotocol/server/_shims` entry, for the bundles
// that serve (esbuild.mjs points that entry here). The SDK's own shim for Node brings AJV, to
// check JSON Schema at run time: a quarter of the server's bundle, and about 10 ms of module
// initialisation on every start. This server never asks for it: its tools' input is checked by
// zod, and it sends no elicitation whose answer the SDK would check against a schema.
import process from 'node:process';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';

export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(): JsonSchemaValidator<T> {
    throw new Error('this server checks no JSON Schema at run time (its bundle leaves AJV out)');
  }
}

export { process };
