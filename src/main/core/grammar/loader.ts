/**
 * Grammar loader: grammar files on disk → compiled Grammars. The parsing and compiling itself is
 * compile.ts (file-system free, also run by the console's grammar editor in a Web Worker).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileGrammarSource, describeGrammarError, linkGrammar, type GrammarDraft, type LoadResult } from './compile.js';
import type { Grammar, GrammarError } from './types.js';

export * from './compile.js';

/** Options of loadGrammarFile. */
export interface LoadFileOptions {
  origin?: Grammar['origin'];
  /** Directories searched, in order, for `include = ["_shared/x"]` (`<dir>/_shared/x.toml`). Default: the file's own directory. */
  includeDirs?: string[];
}

/** Reads a TOML file as text; I/O failures become GrammarErrors. */
export function readGrammarText(file: string): LoadResult<string> {
  try {
    return { ok: true, value: readFileSync(file, 'utf8') };
  } catch (e) {
    return { ok: false, errors: [{ file, message: `cannot read grammar: ${(e as Error).message}` }] };
  }
}

/** Loads, compiles and links one grammar file from disk (convenience for tools and tests). */
export function loadGrammarFile(file: string, opts: LoadFileOptions = {}): LoadResult<Grammar> {
  const origin = opts.origin ?? 'builtin';
  const dirs = opts.includeDirs ?? [path.dirname(file)];
  const load = (f: string): LoadResult<GrammarDraft> => {
    const text = readGrammarText(f);
    return text.ok ? compileGrammarSource(text.value, f, origin) : text;
  };
  const root = load(file);
  if (!root.ok) return root;
  return linkGrammar(root.value, (name) => {
    for (const d of dirs) {
      const f = includePath(d, name);
      if (f && existsSync(f)) return load(f);
    }
    return undefined;
  });
}

/** `<dir>/<name>.toml` for a safe include name, undefined for names that try to leave the folder. */
export function includePath(dir: string, name: string): string | undefined {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.+-]*(?:\/[A-Za-z0-9_][A-Za-z0-9_.+-]*)*$/.test(name) || name.includes('..')) return undefined;
  return path.join(dir, `${name}.toml`);
}


/** One line for a human: `path/npm.toml:12: rule npm-error: invalid regular expression …`. */
export function formatGrammarError(e: GrammarError, relativeTo?: string): string {
  return describeGrammarError(e, relativeTo ? path.relative(relativeTo, e.file) || e.file : e.file);
}
