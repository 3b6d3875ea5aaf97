/**
 * Pre-parsed TOML tables written at build time (scripts/build-cli.mjs →
 * dist/precompiled-toml.json): `{ format, entries: { <sha1 of the source text>: <JSON text> },
 * grammars: { <sha1>: <JSON text of the grammar file schema's output> }, policies: { <sha1>: <JSON
 * text of the policy schemas' output> }, categories: { <sha1>: <JSON text of the categories schema's output> } }`.
 * Keyed by the text's hash, so an edited file simply misses and is parsed as usual; the JSON is
 * parsed anew on every hit, so callers may keep or change what they get.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PrecompiledTomlLookup } from './parse-toml.js';

/** The file layout this reader understands (the build writes the same number). */
export const PRECOMPILED_TOML_FORMAT = 1;

/** The key of a source text in the tables. */
export function tomlSourceKey(source: string): string {
  return createHash('sha1').update(source).digest('hex');
}

/** The tables of a precompiled file: TOML texts parsed, and built-in grammar, policy and categories files also checked. */
export interface PrecompiledTables {
  toml: PrecompiledTomlLookup;
  /** By the text's hash: the grammar file schema's output (grammar/compile.ts useCheckedGrammars), for the texts that pass it. */
  grammar: (source: string) => unknown;
  /** By the text's hash: the policy schemas' output (policy/rules.ts useCheckedPolicies), for the texts that pass them. */
  policy: (source: string) => unknown;
  /** By the text's hash: the categories schema's output (router/meta.ts useCheckedCategories), for the texts that pass it. */
  categories: (source: string) => unknown;
}

/** A lookup over the tables in `file`, or undefined when the file is absent or not ours. */
export function readPrecompiledToml(file: string): PrecompiledTomlLookup | undefined {
  return readPrecompiledTables(file)?.toml;
}

/** The tables in `file`, or undefined when the file is absent or not ours. */
export function readPrecompiledTables(file: string): PrecompiledTables | undefined {
  let tables: { format?: unknown; entries?: Record<string, string>; grammars?: Record<string, string>; policies?: Record<string, string>; categories?: Record<string, string> };
  try {
    tables = JSON.parse(readFileSync(file, 'utf8')) as typeof tables;
  } catch {
    return undefined;
  }
  if (tables.format !== PRECOMPILED_TOML_FORMAT || !tables.entries || typeof tables.entries !== 'object') return undefined;
  const entries = tables.entries;
  // A file from before these were checked at build time has none of a table: every such file is checked.
  const table = (t: Record<string, string> | undefined) => {
    const byKey = t && typeof t === 'object' ? t : {};
    return (source: string): unknown => {
      const json = byKey[tomlSourceKey(source)];
      return typeof json === 'string' ? JSON.parse(json) : undefined;
    };
  };
  return { toml: table(entries), grammar: table(tables.grammars), policy: table(tables.policies), categories: table(tables.categories) };
}
