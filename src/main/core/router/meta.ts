/**
 * The router's data: `grammars/_meta/categories.toml` (command → category, conditional rules)
 * and the policy (`grammars/_meta/policy.toml` and its layers, src/main/core/policy). Loaded
 * once, validated with zod, regexes compiled once; a bad file is an error value naming the
 * file and entry.
 */
import { findBuiltinGrammarDir } from '../grammar/registry.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseToml } from '../toml/parse-toml.js';
import { z } from 'zod';
import type { Category } from '../grammar/types.js';
import { builtinPolicy, loadPolicy, type Policy, type PolicySources } from '../policy/index.js';

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

export type CategoryRule = Omit<z.infer<typeof RuleSchema>, 'category'> & { category: Exclude<Category, 'dangerous'> };

export interface RouterMeta {
  /** "cmd" and "cmd sub" keys. */
  commands: Map<string, Exclude<Category, 'dangerous'>>;
  rules: CategoryRule[];
  /** The policy engine's rules (grammars/_meta/policy.toml and the user/project/env layers). */
  policy: Policy;
}

export interface MetaError {
  file: string;
  message: string;
}

export type MetaResult = { ok: true; meta: RouterMeta } | { ok: false; error: MetaError };

function zodMessage(e: z.ZodError): string {
  const i = e.issues[0];
  return `${i.path.join('.') || '(root)'}: ${i.message}`;
}

/**
 * Parse the categories file and the built-in policy text (exported for tests of malformed
 * input). A malformed categories file is an error; a malformed policy is carried in
 * `meta.policy.errors` and holds every decision at ask or stricter (never looser).
 */
export function compileMeta(categoriesText: string, policyText: string, files = { categories: 'categories.toml', policy: 'policy.toml' }): MetaResult {
  let cats: z.infer<typeof CategoriesSchema>;
  try {
    const r = CategoriesSchema.safeParse(parseToml(categoriesText));
    if (!r.success) return { ok: false, error: { file: files.categories, message: zodMessage(r.error) } };
    cats = r.data;
  } catch (e) {
    return { ok: false, error: { file: files.categories, message: (e as Error).message.split('\n')[0] } };
  }
  return { ok: true, meta: { commands: new Map(Object.entries(cats.commands)), rules: cats.rule, policy: builtinPolicy(policyText, files.policy) } };
}

/**
 * Load `<grammarsDir>/_meta/categories.toml` and the layered policy (built-in
 * `_meta/policy.toml`, then the user's, the project's, $MISH_POLICY and CLI flags).
 */
export function loadRouterMeta(grammarsDir: string = builtinGrammarsDir(), policy: Omit<PolicySources, 'grammarsDir'> = {}): MetaResult {
  const file = path.join(grammarsDir, '_meta', 'categories.toml');
  let c: string;
  try {
    c = readFileSync(file, 'utf8');
  } catch (e) {
    return { ok: false, error: { file, message: (e as NodeJS.ErrnoException).code ?? String(e) } };
  }
  const r = compileMeta(c, '', { categories: file, policy: '' });
  if (!r.ok) return r;
  return { ok: true, meta: { ...r.meta, policy: loadPolicy({ ...policy, grammarsDir }) } };
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

export { positionals } from './argv.js';
