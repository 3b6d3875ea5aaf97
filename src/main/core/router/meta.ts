/**
 * The router's data: `grammars/_meta/categories.toml` (command → category, conditional rules)
 * and `grammars/_meta/dangerous.toml` (patterns on parsed commands). Loaded once, validated
 * with zod, regexes compiled once; a bad file is an error value naming the file and entry.
 */
import { findBuiltinGrammarDir } from '../grammar/registry.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import type { Category } from '../grammar/types.js';

const CATEGORY = z.enum(['condense', 'narrate', 'passthrough', 'structured', 'interactive']);

const RuleSchema = z
  .object({
    commands: z.array(z.string()).min(1),
    subcommand: z.array(z.string()).optional(),
    when_flags: z.array(z.string()).optional(),
    unless_flags: z.array(z.string()).optional(),
    max_positional: z.number().int().min(0).optional(),
    value_flags: z.array(z.string()).optional(),
    unless_stdin: z.boolean().optional(),
    tar_style: z.boolean().optional(),
    category: CATEGORY,
  })
  .strict();

const CategoriesSchema = z
  .object({
    commands: z.record(z.string(), CATEGORY).default({}),
    rule: z.array(RuleSchema).default([]),
  })
  .strict();

const PatternSchema = z
  .object({
    id: z.string().min(1),
    description: z.string().min(1),
    commands: z.array(z.string()).optional(),
    subcommand: z.array(z.string()).optional(),
    flags_all: z.array(z.string()).optional(),
    flags_any: z.array(z.string()).optional(),
    args_any: z.string().optional(),
    stdin_any: z.string().optional(),
    piped_to: z.array(z.string()).optional(),
    redirect_any: z.string().optional(),
    self_spawning_function: z.boolean().optional(),
  })
  .strict();

const DangerousSchema = z.object({ pattern: z.array(PatternSchema).default([]) }).strict();

export type CategoryRule = Omit<z.infer<typeof RuleSchema>, 'category'> & { category: Exclude<Category, 'dangerous'> };

export interface DangerPattern {
  id: string;
  description: string;
  commands?: string[];
  subcommand?: string[];
  /** Each entry: alternatives, all entries required. */
  flagsAll?: string[][];
  flagsAny?: string[];
  argsAny?: RegExp;
  stdinAny?: RegExp;
  pipedTo?: string[];
  redirectAny?: RegExp;
  selfSpawningFunction?: boolean;
}

export interface RouterMeta {
  /** "cmd" and "cmd sub" keys. */
  commands: Map<string, Exclude<Category, 'dangerous'>>;
  rules: CategoryRule[];
  dangerous: DangerPattern[];
}

export interface MetaError {
  file: string;
  message: string;
}

export type MetaResult = { ok: true; meta: RouterMeta } | { ok: false; error: MetaError };

/** Compile `(?i)…` (a common regex dialect) into a JS RegExp with the i flag. */
function compileRegex(src: string, where: string): RegExp {
  let flags = '';
  let body = src;
  if (body.startsWith('(?i)')) {
    flags = 'i';
    body = body.slice(4);
  }
  try {
    return new RegExp(body, flags);
  } catch (e) {
    throw new Error(`${where}: invalid regex: ${(e as Error).message}`);
  }
}

function zodMessage(e: z.ZodError): string {
  const i = e.issues[0];
  return `${i.path.join('.') || '(root)'}: ${i.message}`;
}

/** Parse both files' text (exported for tests of malformed input). */
export function compileMeta(categoriesText: string, dangerousText: string, files = { categories: 'categories.toml', dangerous: 'dangerous.toml' }): MetaResult {
  let cats: z.infer<typeof CategoriesSchema>;
  try {
    const r = CategoriesSchema.safeParse(parseToml(categoriesText));
    if (!r.success) return { ok: false, error: { file: files.categories, message: zodMessage(r.error) } };
    cats = r.data;
  } catch (e) {
    return { ok: false, error: { file: files.categories, message: (e as Error).message.split('\n')[0] } };
  }
  const dangerous: DangerPattern[] = [];
  try {
    const r = DangerousSchema.safeParse(parseToml(dangerousText));
    if (!r.success) return { ok: false, error: { file: files.dangerous, message: zodMessage(r.error) } };
    for (const p of r.data.pattern) {
      const where = `pattern ${p.id}`;
      dangerous.push({
        id: p.id,
        description: p.description,
        commands: p.commands,
        subcommand: p.subcommand,
        flagsAll: p.flags_all?.map((f) => f.split('|')),
        flagsAny: p.flags_any,
        argsAny: p.args_any !== undefined ? compileRegex(p.args_any, where) : undefined,
        stdinAny: p.stdin_any !== undefined ? compileRegex(p.stdin_any, where) : undefined,
        pipedTo: p.piped_to,
        redirectAny: p.redirect_any !== undefined ? compileRegex(p.redirect_any, where) : undefined,
        selfSpawningFunction: p.self_spawning_function,
      });
    }
  } catch (e) {
    return { ok: false, error: { file: files.dangerous, message: (e as Error).message.split('\n')[0] } };
  }
  return { ok: true, meta: { commands: new Map(Object.entries(cats.commands)), rules: cats.rule, dangerous } };
}

/** Load `<grammarsDir>/_meta/{categories,dangerous}.toml`. */
export function loadRouterMeta(grammarsDir: string = builtinGrammarsDir()): MetaResult {
  const files = { categories: path.join(grammarsDir, '_meta', 'categories.toml'), dangerous: path.join(grammarsDir, '_meta', 'dangerous.toml') };
  let c: string;
  let d: string;
  try {
    c = readFileSync(files.categories, 'utf8');
  } catch (e) {
    return { ok: false, error: { file: files.categories, message: (e as NodeJS.ErrnoException).code ?? String(e) } };
  }
  try {
    d = readFileSync(files.dangerous, 'utf8');
  } catch (e) {
    return { ok: false, error: { file: files.dangerous, message: (e as NodeJS.ErrnoException).code ?? String(e) } };
  }
  return compileMeta(c, d, files);
}

/**
 * The built-in `grammars/` folder: found by walking up from this module, which works both from
 * the sources (src/main/core/router) and from the esbuild bundle (dist/).
 */
export function builtinGrammarsDir(): string {
  return findBuiltinGrammarDir() ?? path.join(process.cwd(), 'grammars');
}

/** Flags end at `--`. */
export function flagWords(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (a === '--') break;
    if (a.startsWith('-') && a.length > 1) out.push(a);
  }
  return out;
}

/**
 * Whether `flag` is among `args`: long flags also as `--flag=value`; a one-letter short flag
 * also inside a cluster (`-rf` has `-r`), scanning letters until the first non-letter
 * (`-i.bak` has `-i`). Other flags (`-1`, `-Wall`) match exactly.
 */
export function hasFlag(args: readonly string[], flag: string): boolean {
  const short = /^-[A-Za-z]$/.test(flag) ? flag[1] : undefined;
  for (const a of args) {
    if (a === '--') return false;
    if (a === flag) return true;
    if (flag.startsWith('--') && a.startsWith(flag + '=')) return true;
    if (short && a.startsWith('-') && !a.startsWith('--')) {
      for (let k = 1; k < a.length && /[A-Za-z]/.test(a[k]); k++) if (a[k] === short) return true;
    }
  }
  return false;
}

/** Positional arguments (not flags, not values of `valueFlags`), after `--` all are positional. */
export function positionals(args: readonly string[], valueFlags: readonly string[] = []): string[] {
  const out: string[] = [];
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (rest) out.push(a);
    else if (a === '--') rest = true;
    else if (a.startsWith('-') && a.length > 1) {
      if (valueFlags.includes(a)) i++;
    } else out.push(a);
  }
  return out;
}
