// Lets @modelcontextprotocol/conformance (which declares Node >= 22) run on Node 20: its bundle
// imports `globSync` from "fs" (added in Node 22) for the tier-report command only; the server
// scenarios never call it. This hook hands that one import a module with every fs export plus
// a globSync that says why it is missing. Used with `node --import ./test/mcp-conformance-node20.mjs`.
import { register } from 'node:module';

if (!('globSync' in (await import('node:fs')))) {
  register(
    'data:text/javascript,' +
      encodeURIComponent(`
        const shim = 'data:text/javascript,' + encodeURIComponent(
          "export * from 'node:fs'; import fs from 'node:fs'; export default fs;" +
          "export function globSync() { throw new Error('fs.globSync needs Node >= 22'); }");
        export async function resolve(specifier, context, next) {
          if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL && context.parentURL.includes('/@modelcontextprotocol/conformance/')) {
            return { url: shim, shortCircuit: true };
          }
          return next(specifier, context);
        }`),
  );
}
