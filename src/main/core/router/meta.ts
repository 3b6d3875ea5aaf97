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
import { PARSED_WITH_DEFAULTS } from '../policy/rules.js';

/**
 * The schemas are built on first use, not at module load: a `mish <cmd>` whose categories file is
 * the built-in one gets its checked data from the build (useCheckedCategories) and never builds them.
 */
const categorySchema = () => z.enum(['condense', 'narrate', 'passthrough', 'structured', 'interactive']);

const ruleSchema = () =>
  z
    .object({
      commands: z.array(z.string()).min(1),
      subcommand: z.array(z.string()).optional(),
      when_flags: z.array(z.string()).optional(),
      unless_flags: z.array(z.string()).optional(),
      max_positional: z.number().int().min(0).optional(),
      unless_args: z.array(z.string()).optional(),
      value_flags: z.array(z.string()).optional(),
      unless_stdin: z.boolean().optional(),
      tar_style: z.boolean().optional(),
      category: categorySchema(),
    })
    .strict();

const categoriesSchema = () =>
  z
    .object({
      commands: z.record(z.string(), categorySchema()).default({}),
      rule: z.array(ruleSchema()).default([]),
    })
    .strict();

let schema: ReturnType<typeof categoriesSchema> | undefined;
const CategoriesSchema = () => (schema ??= categoriesSchema());
type CategoriesData = z.infer<ReturnType<typeof categoriesSchema>>;

/**
 * The categories schema's output for a file's text, or undefined to parse and check it; or
 * PARSED_WITH_DEFAULTS: it is the text's parsed TOML with the schema's defaults filled in
 * (withCategoriesDefaults), as the build checked for this text.
 */
export type CheckedCategoriesLookup = (source: string) => unknown;

/**
 * The parsed TOML of a categories file with what the schema defaults filled in (`commands = {}`,
 * `rule = []`): its output for a file that passes it, where the build has checked that it is
 * (scripts/build-cli.mjs); not a check itself.
 */
export function withCategoriesDefaults(raw: Record<string, unknown>): CategoriesData {
  return { ...raw, commands: raw.commands ?? {}, rule: raw.rule ?? [] } as CategoriesData;
}

let checkedLookup: CheckedCategoriesLookup | undefined;

/**
 * Installs (undefined: removes) the source of the built-in categories file the build parsed and
 * checked (dist/precompiled-toml.json, scripts/build-cli.mjs): a hit is the schema's output for
 * this exact text, so the file compiles as it would have, without zod.
 */
export function useCheckedCategories(next: CheckedCategoriesLookup | undefined): void {
  checkedLookup = next;
}

/** The schema's output for a categories file's parsed TOML, or undefined when it does not pass (the build's check). */
export function checkCategoriesData(raw: unknown): unknown {
  const r = CategoriesSchema().safeParse(raw);
  return r.success ? r.data : undefined;
}

export type CategoryRule = Omit<z.infer<ReturnType<typeof ruleSchema>>, 'category'> & { category: Exclude<Category, 'dangerous'> };

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
  const c = compileCategories(categoriesText, files.categories);
  if (!c.ok) return c;
  return { ok: true, meta: { ...c.value, policy: builtinPolicy(policyText, files.policy) } };
}

/** The categories file's part of the router's data. */
function compileCategories(text: string, file: string): { ok: true; value: Omit<RouterMeta, 'policy'> } | { ok: false; error: MetaError } {
  let cats: CategoriesData;
  const hit = checkedLookup?.(text);
  const checked = hit === PARSED_WITH_DEFAULTS ? withCategoriesDefaults(parseToml(text)) : (hit as CategoriesData | undefined);
  if (checked !== undefined) cats = checked;
  else {
    try {
      const r = CategoriesSchema().safeParse(parseToml(text));
      if (!r.success) return { ok: false, error: { file, message: zodMessage(r.error) } };
      cats = r.data;
    } catch (e) {
      return { ok: false, error: { file, message: (e as Error).message.split('\n')[0] } };
    }
  }
  return { ok: true, value: { commands: new Map(Object.entries(cats.commands)), rules: cats.rule } };
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
  const r = compileCategories(c, file);
  if (!r.ok) return r;
  return { ok: true, meta: { ...r.value, policy: loadPolicy({ ...policy, grammarsDir }) } };
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
