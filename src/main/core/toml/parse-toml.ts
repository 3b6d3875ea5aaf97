/**
 * The one TOML parser of the engine (grammars, categories, policy), with an optional source of
 * already-parsed tables. Why: parsing the built-in TOML (26 KB of policy, 62 KB of grammars) with
 * smol-toml is ~35 ms of every `mish <cmd>` start, a third of what mish adds to a command; the
 * CLI bundle ships the same tables pre-parsed to JSON (scripts/build-cli.mjs) and installs a
 * lookup here, so only the parse is skipped — every caller still validates what it gets.
 * No file system or node dependency: the grammar editor's Web Worker uses this module too.
 */
import { parse, TomlError } from 'smol-toml';

export { TomlError };

/** Already-parsed data for exactly this source text, or undefined to parse it. */
export type PrecompiledTomlLookup = (source: string) => unknown;

let lookup: PrecompiledTomlLookup | undefined;

/** Installs (or, with undefined, removes) the source of pre-parsed tables. */
export function usePrecompiledToml(next: PrecompiledTomlLookup | undefined): void {
  lookup = next;
}

/** smol-toml's `parse`, answered from the pre-parsed tables when they hold this exact text. */
export function parseToml(source: string): Record<string, unknown> {
  const hit = lookup?.(source);
  if (hit !== undefined) return hit as Record<string, unknown>;
  return parse(source) as Record<string, unknown>;
}
