/**
 * Grammar compiler: TOML text → validated, compiled Grammar (grammars/README.md), with no file
 * system, node or DOM dependency, so the console's grammar editor runs it in a Web Worker on
 * every keystroke. Reading files is loader.ts's job.
 *
 * Every problem comes back as a GrammarError value naming the file, the line and the rule, so a
 * broken grammar can be reported and skipped while the others keep working.
 */
import { parseToml, TomlError } from '../toml/parse-toml.js';
import { z } from 'zod';
import type {
  Category,
  CompiledHazardRule,
  CompiledNoiseRule,
  CompiledOutcomeRule,
  CompiledRule,
  Grammar,
  GrammarAction,
  GrammarError,
} from './types.js';

/** Result of a load step: errors are values, never thrown. */
export type LoadResult<T> = { ok: true; value: T } | { ok: false; errors: GrammarError[] };

/** A grammar compiled from one file, before the rules of its includes are merged in. */
export interface GrammarDraft {
  /** The grammar with only its own rules; `includes` is empty until linked. */
  grammar: Grammar;
  /** `include = [...]` as written (`_shared/ansi-progress`). */
  includeNames: string[];
  /** 1-based line of the `include` key, for include errors. */
  includeLine?: number;
}

/** Finds an included grammar by its include name; undefined when it does not exist. */
export type IncludeResolver = (name: string, from: GrammarDraft) => LoadResult<GrammarDraft> | undefined;

export const CATEGORIES = ['condense', 'narrate', 'passthrough', 'structured', 'interactive', 'dangerous'] as const;
const RULE_KINDS = ['hazard', 'outcome', 'noise', 'prompt'] as const;
type RuleKind = (typeof RULE_KINDS)[number];

/** Upper bound for context_after: a grammar asking for more is almost surely a typo, and the squasher keeps these lines unconditionally. */
const MAX_CONTEXT_AFTER = 50;
/** Upper bound for template tails, for the same reason. */
const MAX_TEMPLATE_TAIL = 1000;

/**
 * The only variables a grammar may set for its tool (`[grammar] presentation_env`): ones that
 * change how output looks, never what the command does. A project's `.mish/grammars` is not
 * trusted with more (LD_PRELOAD, BASH_ENV or NODE_OPTIONS would run code).
 */
export const PRESENTATION_ENV_VARS = ['NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE'] as const;

/**
 * The grammar file schema, built on first use rather than at module load: the built-in grammar
 * files come checked by the build (useCheckedGrammars), so a `mish <cmd>` with no grammar of its
 * own never builds it (or loads zod for it).
 */
function buildFileSchema() {
  const categorySchema = z.enum(CATEGORIES);
  const nameList = z.array(z.string().min(1));
  const flagsSchema = z
    .string()
    .regex(/^[imsuv]*$/, 'flags may only contain i, m, s, u, v (g and y would make matching stateful)');

  const ruleBase = {
    id: z.string().min(1).optional(),
    pattern: z.string().min(1),
    actions: nameList.optional(),
    dialects: nameList.optional(),
    flags: flagsSchema.optional(),
  };
  const hazardSchema = z.strictObject({
    ...ruleBase,
    severity: z.enum(['error', 'warning']),
    context_after: z.number().int().min(0).max(MAX_CONTEXT_AFTER).optional(),
    continue_pattern: z.string().min(1).optional(),
    end_pattern: z.string().min(1).optional(),
    frame_pattern: z.string().min(1).optional(),
    frame_focus: z.string().min(1).optional(),
    lead_noise: z.string().min(1).optional(),
  });
  const outcomeSchema = z.strictObject({ ...ruleBase, format: z.string().optional() });
  const noiseSchema = z.strictObject({
    ...ruleBase,
    action: z.enum(['strip', 'dedup']),
    continue_pattern: z.string().min(1).optional(),
    end_pattern: z.string().min(1).optional(),
  });
  const promptSchema = z.strictObject({ ...ruleBase });
  return z.strictObject({
    grammar: z
      .strictObject({
        name: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9_.+-]*$/, 'name must be a plain word (letters, digits, _ . + -)')
          .optional(),
        description: z.string().optional(),
        category: categorySchema.optional(),
        include: nameList.optional(),
        presentation_env: z.partialRecord(z.enum(PRESENTATION_ENV_VARS), z.string().regex(/^[0-9A-Za-z]{1,8}$/, 'a short word or number')).optional(),
      })
      .optional(),
    detect: z
      .strictObject({
        commands: nameList.optional(),
        dialects: z.record(z.string(), nameList).optional(),
        value_flags: nameList.optional(),
      })
      .optional(),
    actions: z
      .record(
        z.string(),
        z.strictObject({
          aliases: nameList.optional(),
          quiet_flags: nameList.optional(),
          category: categorySchema.optional(),
        }),
      )
      .optional(),
    hazard: z.array(hazardSchema).optional(),
    outcome: z.array(outcomeSchema).optional(),
    noise: z.array(noiseSchema).optional(),
    prompt: z.array(promptSchema).optional(),
    template: z
      .strictObject({
        description: z.string().optional(),
        include_regex: z.union([z.string().min(1), nameList]),
        flags: flagsSchema.optional(),
        tail_lines: z.number().int().min(0).max(MAX_TEMPLATE_TAIL).optional(),
        tail_paragraphs: z.number().int().min(0).max(MAX_TEMPLATE_TAIL).optional(),
      })
      .optional(),
  });
}
let schema: ReturnType<typeof buildFileSchema> | undefined;
const fileSchema = () => (schema ??= buildFileSchema());
type GrammarFileData = z.infer<ReturnType<typeof buildFileSchema>>;

// ---------------------------------------------------------------------------------------------
// Locating lines: smol-toml gives positions only for syntax errors, so for a bad value we find
// the header of its table (`[[hazard]]` number n, `[actions.install]`) and the key's line in it.

interface Section {
  /** Normalised header: `hazard`, `actions.install`, `` for the top level. */
  header: string;
  isArray: boolean;
  line: number;
  keys: Map<string, number>;
}

/** Maps TOML paths to 1-based source lines by scanning headers and keys (lazily: only errors need it). */
class SourceIndex {
  private scanned: Section[] | undefined;

  constructor(private readonly source: string) {}

  private get sections(): Section[] {
    return (this.scanned ??= this.scan());
  }

  private scan(): Section[] {
    const sections: Section[] = [];
    const source = this.source;
    let current: Section = { header: '', isArray: false, line: 1, keys: new Map() };
    sections.push(current);
    const lines = source.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i];
      const arr = /^\s*\[\[\s*([^\]]+?)\s*\]\]/.exec(text);
      const tbl = arr ? null : /^\s*\[\s*([^\]]+?)\s*\]/.exec(text);
      if (arr || tbl) {
        current = { header: normaliseHeader((arr ?? tbl)![1]), isArray: !!arr, line: i + 1, keys: new Map() };
        sections.push(current);
        continue;
      }
      const key = /^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*=/.exec(text);
      if (key) {
        const k = unquote(key[1]);
        if (!current.keys.has(k)) current.keys.set(k, i + 1);
      }
    }
    return sections;
  }

  /** Best line for a TOML path such as ['hazard', 2, 'pattern'] or ['detect', 'commands']. */
  locate(p: readonly PropertyKey[]): number | undefined {
    const [a, b, c] = p;
    if (typeof a !== 'string') return undefined;
    if (typeof b === 'number') {
      const s = this.sections.filter((x) => x.isArray && x.header === a)[b];
      if (s) return (typeof c === 'string' && s.keys.get(c)) || s.line;
      return this.topKey(a);
    }
    if (a === 'actions' && typeof b === 'string') {
      const s = this.sections.find((x) => !x.isArray && x.header === `actions.${b}`);
      if (s) return (typeof c === 'string' && s.keys.get(c)) || s.line;
    }
    const s = this.sections.find((x) => !x.isArray && x.header === a);
    if (s) return (typeof b === 'string' && s.keys.get(b)) || s.line;
    return this.topKey(a);
  }

  private topKey(k: string): number | undefined {
    return this.sections[0].keys.get(k);
  }
}

function unquote(s: string): string {
  return /^(["']).*\1$/.test(s) ? s.slice(1, -1) : s;
}

function normaliseHeader(h: string): string {
  return h
    .split('.')
    .map((part) => unquote(part.trim()))
    .join('.');
}

// ---------------------------------------------------------------------------------------------

function displayRuleId(kind: RuleKind, index: number, id: string | undefined): string {
  return id ?? `${kind}#${index + 1}`;
}

function compileRe(
  pattern: string,
  flags: string | undefined,
  ctx: { file: string; index: SourceIndex; path: PropertyKey[]; rule?: string; field: string },
  errors: GrammarError[],
): RegExp | undefined {
  try {
    return new RegExp(pattern, flags ?? '');
  } catch (e) {
    // Lines are looked up only on error: locating is a scan, and most grammars are fine.
    errors.push({
      file: ctx.file,
      line: ctx.index.locate(ctx.path),
      rule: ctx.rule,
      message: `invalid regular expression in ${ctx.field}: ${(e as Error).message}`,
    });
    return undefined;
  }
}

/** The name a grammar file gets when `[grammar] name` is absent: its file name without `.toml`. */
export function defaultGrammarName(file: string): string {
  return (file.split(/[\\/]/).pop() ?? file).replace(/\.toml$/i, '');
}

/** Grammar file data already checked against the file schema, for exactly this source text (undefined: parse and check it). */
export type CheckedGrammarLookup = (source: string) => unknown;

let checkedLookup: CheckedGrammarLookup | undefined;

/**
 * Installs (undefined: removes) the source of built-in grammar files the build parsed and checked
 * (dist/precompiled-toml.json, scripts/build-cli.mjs): checking every built-in file with zod
 * (jitless) was ~20 ms of every `mish <cmd>` start. A hit is the schema's output for this exact
 * text, so the file compiles as it would have.
 */
export function useCheckedGrammars(next: CheckedGrammarLookup | undefined): void {
  checkedLookup = next;
}

/** The file schema's output for a grammar file's parsed TOML, or undefined when it does not pass (the build's check). */
export function checkGrammarData(raw: unknown): unknown {
  const r = fileSchema().safeParse(raw);
  return r.success ? r.data : undefined;
}

/**
 * Parses, validates and compiles one grammar file's text. Includes are not resolved here
 * (see linkGrammar); all problems in the file are reported, not just the first.
 */
export function compileGrammarSource(
  source: string,
  file: string,
  origin: Grammar['origin'] = 'builtin',
): LoadResult<GrammarDraft> {
  const checked = checkedLookup?.(source);
  if (checked !== undefined) return compileData(checked as GrammarFileData, file, origin, new SourceIndex(source));
  let raw: unknown;
  try {
    raw = parseToml(source);
  } catch (e) {
    if (e instanceof TomlError) {
      const first = e.message.split('\n')[0];
      return { ok: false, errors: [{ file, line: e.line, message: `TOML syntax error: ${first}` }] };
    }
    return { ok: false, errors: [{ file, message: `TOML syntax error: ${(e as Error).message}` }] };
  }

  const index = new SourceIndex(source);
  const parsed = fileSchema().safeParse(raw);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue): GrammarError => {
      let p = issue.path;
      // An unknown key is reported on its parent; point at the key itself.
      if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) p = [...p, issue.keys[0]];
      const rule = ruleOfPath(raw, p);
      // Inside a rule the rule id already says where; name only the key (`severity`).
      const shown = (rule ? p.slice(2) : p).map(String).join('.');
      return { file, line: index.locate(p), rule, message: `${shown ? shown + ': ' : ''}${issue.message}` };
    });
    return { ok: false, errors };
  }
  return compileData(parsed.data, file, origin, index);
}

/** The rule id for an error at this path, if the path points into a rule. */
function ruleOfPath(raw: unknown, p: readonly PropertyKey[]): string | undefined {
  const [kind, idx] = p;
  if (typeof kind !== 'string' || typeof idx !== 'number') return undefined;
  if (!(RULE_KINDS as readonly string[]).includes(kind)) return undefined;
  const rule = (raw as Record<string, unknown[]>)[kind]?.[idx] as { id?: unknown } | undefined;
  return displayRuleId(kind as RuleKind, idx, typeof rule?.id === 'string' ? rule.id : undefined);
}

function compileData(
  data: GrammarFileData,
  file: string,
  origin: Grammar['origin'],
  index: SourceIndex,
): LoadResult<GrammarDraft> {
  const errors: GrammarError[] = [];
  const actions: Record<string, GrammarAction> = {};
  for (const [name, a] of Object.entries(data.actions ?? {})) {
    const aliases = [name, ...(a.aliases ?? []).filter((x) => x !== name)];
    actions[name] = { aliases, quietFlags: a.quiet_flags, category: a.category as Category | undefined };
  }
  const dialects = data.detect?.dialects ?? {};

  const base = (kind: RuleKind, i: number, r: NonNullable<GrammarFileData['prompt']>[number]): CompiledRule | undefined => {
    const id = displayRuleId(kind, i, r.id);
    const before = errors.length;
    for (const a of r.actions ?? []) {
      if (!(a in actions)) {
        errors.push({ file, line: index.locate([kind, i, 'actions']), rule: id, message: `unknown action '${a}' (not in [actions.*])` });
      }
    }
    for (const d of r.dialects ?? []) {
      if (!(d in dialects)) {
        errors.push({ file, line: index.locate([kind, i, 'dialects']), rule: id, message: `unknown dialect '${d}' (not in [detect] dialects)` });
      }
    }
    const re = compileRe(r.pattern, r.flags, { file, index, path: [kind, i, 'pattern'], rule: id, field: 'pattern' }, errors);
    if (!re || errors.length > before) return undefined;
    const rule: CompiledRule = { id, re, source: file };
    if (r.actions) rule.actions = new Set(r.actions);
    if (r.dialects) rule.dialects = new Set(r.dialects);
    return rule;
  };

  const seen = new Map<string, Set<string>>();
  const checkUnique = (kind: RuleKind, i: number, id: string | undefined) => {
    if (!id) return;
    const set = seen.get(kind) ?? new Set();
    seen.set(kind, set);
    if (set.has(id)) errors.push({ file, line: index.locate([kind, i]), rule: id, message: `duplicate ${kind} rule id '${id}'` });
    set.add(id);
  };

  /** A rule's optional pattern field (a hazard's continuation, end, frame lines; a noise paragraph's), compiled where set. */
  const optionalRe = (section: 'hazard' | 'noise', i: number, rule: string, field: 'continue_pattern' | 'end_pattern' | 'frame_pattern' | 'frame_focus' | 'lead_noise', source: string | undefined, flags: string | undefined) =>
    source === undefined ? undefined : compileRe(source, flags, { file, index, path: [section, i, field], rule, field }, errors);

  const hazard: CompiledHazardRule[] = [];
  (data.hazard ?? []).forEach((r, i) => {
    checkUnique('hazard', i, r.id);
    const b = base('hazard', i, r);
    const id = displayRuleId('hazard', i, r.id);
    const continueRe = optionalRe('hazard', i, id, 'continue_pattern', r.continue_pattern, r.flags);
    const endRe = optionalRe('hazard', i, id, 'end_pattern', r.end_pattern, r.flags);
    const frameRe = optionalRe('hazard', i, id, 'frame_pattern', r.frame_pattern, r.flags);
    const focusRe = optionalRe('hazard', i, id, 'frame_focus', r.frame_focus, r.flags);
    // Matched at the line's start only (the squasher reads the rest of the line with `pattern`).
    const leadRe = r.lead_noise === undefined || !compileRe(r.lead_noise, r.flags, { file, index, path: ['hazard', i, 'lead_noise'], rule: id, field: 'lead_noise' }, errors) ? undefined : optionalRe('hazard', i, id, 'lead_noise', `^(?:${r.lead_noise})`, r.flags);
    if (r.frame_focus !== undefined && r.frame_pattern === undefined) {
      errors.push({ file, line: index.locate(['hazard', i, 'frame_focus']), rule: id, message: 'frame_focus needs frame_pattern (the frame lines it picks from)' });
    }
    if (!b) return;
    const h: CompiledHazardRule = { ...b, severity: r.severity, contextAfter: r.context_after ?? 0 };
    if (continueRe) h.continueRe = continueRe;
    if (endRe) h.endRe = endRe;
    if (frameRe) h.frameRe = frameRe;
    if (focusRe) h.focusRe = focusRe;
    if (leadRe) h.leadRe = leadRe;
    hazard.push(h);
  });
  const outcome: CompiledOutcomeRule[] = [];
  (data.outcome ?? []).forEach((r, i) => {
    checkUnique('outcome', i, r.id);
    const b = base('outcome', i, r);
    if (b) outcome.push(r.format === undefined ? b : { ...b, format: r.format });
  });
  const noise: CompiledNoiseRule[] = [];
  (data.noise ?? []).forEach((r, i) => {
    checkUnique('noise', i, r.id);
    const b = base('noise', i, r);
    const id = displayRuleId('noise', i, r.id);
    const continueRe = optionalRe('noise', i, id, 'continue_pattern', r.continue_pattern, r.flags);
    const endRe = optionalRe('noise', i, id, 'end_pattern', r.end_pattern, r.flags);
    if ((r.continue_pattern !== undefined || r.end_pattern !== undefined) && r.action !== 'strip') {
      const key = r.continue_pattern !== undefined ? 'continue_pattern' : 'end_pattern';
      errors.push({ file, line: index.locate(['noise', i, key]), rule: id, message: `${key} needs action = "strip" (a paragraph of boilerplate is left out, not grouped)` });
    }
    if (!b) return;
    const n: CompiledNoiseRule = { ...b, action: r.action };
    if (continueRe) n.continueRe = continueRe;
    if (endRe) n.endRe = endRe;
    noise.push(n);
  });
  const prompt: CompiledRule[] = [];
  (data.prompt ?? []).forEach((r, i) => {
    checkUnique('prompt', i, r.id);
    const b = base('prompt', i, r);
    if (b) prompt.push(b);
  });

  let template: Grammar['template'];
  if (data.template) {
    const t = data.template;
    const patterns = typeof t.include_regex === 'string' ? [t.include_regex] : t.include_regex;
    patterns.forEach((p, i) => {
      const id = `template#${i + 1}`;
      const re = compileRe(p, t.flags, { file, index, path: ['template', 'include_regex'], rule: id, field: 'include_regex' }, errors);
      if (re) outcome.push({ id, re, source: file });
    });
    template = {};
    if (t.description !== undefined) template.description = t.description;
    if (t.tail_lines !== undefined) template.tailLines = t.tail_lines;
    if (t.tail_paragraphs !== undefined) template.tailParagraphs = t.tail_paragraphs;
  }

  if (errors.length) return { ok: false, errors };

  const g = data.grammar ?? {};
  const grammar: Grammar = {
    name: g.name ?? defaultGrammarName(file),
    file,
    origin,
    commands: data.detect?.commands ?? [],
    dialects,
    actions,
    hazard,
    outcome,
    noise,
    prompt,
    includes: [],
    valueFlags: data.detect?.value_flags ?? [],
    ...(data.grammar?.presentation_env ? { presentationEnv: { ...data.grammar.presentation_env } as Record<string, string> } : {}),
  };
  if (g.description !== undefined) grammar.description = g.description;
  if (g.category !== undefined) grammar.category = g.category;
  if (template) grammar.template = template;
  if (grammar.description === undefined && template?.description !== undefined) grammar.description = template.description;
  // The include line is only read for an include's error message (linkGrammar): locating it scans the whole text.
  let includeLine: number | undefined | null = null;
  const include = g.include;
  return {
    ok: true,
    value: {
      grammar,
      includeNames: include ?? [],
      get includeLine() {
        if (includeLine === null) includeLine = include?.length ? index.locate(['grammar', 'include']) : undefined;
        return includeLine;
      },
    },
  };
}

/**
 * Merges the rules of a draft's includes (recursively) after its own rules. A missing include,
 * an include that fails to load, or a cycle makes the whole grammar fail, with an error naming
 * the including file and line.
 */
export function linkGrammar(draft: GrammarDraft, resolve: IncludeResolver): LoadResult<Grammar> {
  const out: Grammar = { ...draft.grammar, hazard: [...draft.grammar.hazard], outcome: [...draft.grammar.outcome], noise: [...draft.grammar.noise], prompt: [...draft.grammar.prompt], includes: [] };
  const errors: GrammarError[] = [];
  const merged = new Set<string>();

  const visit = (d: GrammarDraft, stack: string[]): void => {
    for (const name of d.includeNames) {
      const where = { file: d.grammar.file, line: d.includeLine };
      if (stack.includes(name)) {
        errors.push({ ...where, message: `include cycle: ${[...stack, name].join(' → ')}` });
        continue;
      }
      const r = resolve(name, d);
      if (!r) {
        errors.push({ ...where, message: `include '${name}' not found` });
        continue;
      }
      if (!r.ok) {
        errors.push({ ...where, message: `include '${name}' failed to load: ${r.errors.map((e) => describeGrammarError(e)).join('; ')}` });
        continue;
      }
      if (merged.has(name)) continue; // diamond: the rules are already in
      merged.add(name);
      out.includes.push(name);
      const g = r.value.grammar;
      out.hazard.push(...g.hazard);
      out.outcome.push(...g.outcome);
      out.noise.push(...g.noise);
      out.prompt.push(...g.prompt);
      visit(r.value, [...stack, name]);
    }
  };
  visit(draft, [draft.grammar.name]);
  return errors.length ? { ok: false, errors } : { ok: true, value: out };
}

/** One line for a human: `file:12: rule npm-error: invalid regular expression …` (file as given). */
export function describeGrammarError(e: GrammarError, file: string = e.file): string {
  return `${file}${e.line ? `:${e.line}` : ''}: ${e.rule ? `rule ${e.rule}: ` : ''}${e.message}`;
}
