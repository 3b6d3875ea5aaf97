/**
 * The rules applied to every command, whatever its grammar: `grammars/_shared/log-levels.toml`
 * (log levels in the common formats, see that file). Loaded once from the built-in grammar
 * folder; a squasher may be given another grammar (or none) instead.
 */
import path from 'node:path';
import { loadGrammarFile, type LoadResult } from '../grammar/loader.js';
import { findBuiltinGrammarDir } from '../grammar/builtin-dir.js';
import type { Grammar } from '../grammar/types.js';

/** The shared grammar applied to every command (a file in `grammars/_shared/`). */
export const ALWAYS_GRAMMAR = 'log-levels';

let loaded: Grammar | null | undefined;

/**
 * The built-in always-on grammar, or undefined when the grammar folder cannot be found or the
 * file does not load (then mish condenses with the tool grammars and universal patterns alone,
 * as before; the grammar tests catch a broken file).
 */
export function builtinAlwaysGrammar(): Grammar | undefined {
  if (loaded === undefined) {
    const dir = findBuiltinGrammarDir();
    const r = dir ? loadAlwaysGrammar(dir) : undefined;
    loaded = r?.ok ? r.value : null;
  }
  return loaded ?? undefined;
}

/** Loads `<dir>/_shared/log-levels.toml` (its includes resolve in `dir`, like a tool grammar's). */
export function loadAlwaysGrammar(dir: string): LoadResult<Grammar> {
  return loadGrammarFile(path.join(dir, '_shared', `${ALWAYS_GRAMMAR}.toml`), { includeDirs: [dir] });
}
