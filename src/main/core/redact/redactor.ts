/**
 * Redaction of everything mish sends to an agent or writes to the audit log: known secret
 * values first (handoff secrets through any `SecretMasker`, the values of environment variables
 * named like secrets), then secrets found by pattern (secret-patterns.ts: secretlint's rules and
 * the few it lacks). A secret becomes `[redacted:<kind>]`, e.g. `[redacted:github]`,
 * `[redacted:$NPM_TOKEN]`. The spool keeps the raw bytes for humans; this is for the agent.
 */
import { findSecrets, type SecretFinding } from './secret-patterns.js';

/** Anything that masks known secret values in a text (the handoff's KnownSecrets is one). */
export interface SecretMasker {
  mask(text: string): string;
}

/** What replaces a secret of kind `label`. */
export function maskOf(label: string): string {
  return `[redacted:${label}]`;
}

/**
 * Environment variable names whose values are secrets: `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`,
 * `PGPASSWORD`, `OPENAI_API_KEY`, `NPM_CONFIG__AUTH`, `SSH_PASSPHRASE`, `DB_CREDENTIALS`, …
 */
export const SECRET_ENV_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|_AUTH$|^AUTH_|SESSION_?KEY|SIGNING_?KEY/i;

/** Shorter values are not masked: `1`, `true`, `dev` would mask ordinary output everywhere, and are no secret. */
export const MIN_ENV_SECRET_LENGTH = 6;

/** Values of `env` whose names look like secrets, longest first (so a value containing another is masked whole). */
export function secretEnvValues(env: Record<string, string | undefined>): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_ENV_SECRET_LENGTH || !SECRET_ENV_NAME.test(name)) continue;
    out.push({ name, value });
  }
  return out.sort((a, b) => b.value.length - a.value.length);
}

export interface RedactorOptions {
  /** Maskers of known secret values (handoff secrets). More can be added with addMasker. */
  known?: SecretMasker[];
  /** The session environment: values of variables named like secrets are masked. */
  env?: Record<string, string | undefined>;
}

export class Redactor {
  private readonly maskers: SecretMasker[];
  private values: { name: string; value: string; forms: string[] }[] = [];

  constructor(options: RedactorOptions = {}) {
    this.maskers = [...(options.known ?? [])];
    if (options.env) this.addEnv(options.env);
  }

  /** Masks the values `masker` knows from now on (e.g. the secrets typed during a handoff). */
  addMasker(masker: SecretMasker): void {
    this.maskers.push(masker);
  }

  /** Masks the values of the secret-named variables of `env` from now on. */
  addEnv(env: Record<string, string | undefined>): void {
    const seen = new Set(this.values.map((v) => v.value));
    for (const { name, value } of secretEnvValues(env)) {
      if (seen.has(value)) continue;
      seen.add(value);
      // The URL-encoded form too: a token lands in URLs (`https://x:${TOKEN}@…`) encoded.
      const encoded = encodeURIComponent(value);
      this.values.push({ name, value, forms: encoded === value ? [value] : [value, encoded] });
    }
    this.values.sort((a, b) => b.value.length - a.value.length);
  }

  /** Known values only (synchronous): maskers, then secret environment values. */
  maskKnown(text: string): string {
    let out = text;
    for (const m of this.maskers) out = m.mask(out);
    for (const v of this.values) for (const form of v.forms) if (out.includes(form)) out = out.split(form).join(maskOf(`$${v.name}`));
    return out;
  }

  /** `text` with every known and every pattern-found secret masked. */
  async redact(text: string): Promise<string> {
    return (await this.redactStrings([text]))[0];
  }

  /**
   * Several texts in one secretlint pass; each comes back masked. `joins[i]` (default "\n")
   * goes between texts[i-1] and texts[i] while scanning: "\n" lets a private key split over
   * consecutive lines of a read_raw page be seen whole; FIELD_BREAK keeps unrelated fields apart.
   */
  async redactStrings(texts: readonly string[], joins?: readonly string[]): Promise<string[]> {
    const known = texts.map((t) => this.maskKnown(t));
    const starts: number[] = [];
    let joined = '';
    known.forEach((t, i) => {
      if (i > 0) joined += joins?.[i] ?? '\n';
      starts.push(joined.length);
      joined += t;
    });
    const findings = await findSecrets(joined);
    if (findings.length === 0) return known;
    const perText: SecretFinding[][] = known.map(() => []);
    for (const f of findings) {
      for (let i = indexAt(starts, f.start); i < known.length && starts[i] < f.end; i++) {
        const s = Math.max(f.start - starts[i], 0);
        const e = Math.min(f.end - starts[i], known[i].length);
        if (e > s) perText[i].push({ start: s, end: e, label: f.label });
      }
    }
    return known.map((t, i) => applyMasks(t, perText[i]));
  }

  /** A JSON-like value (structuredContent) with every string in it redacted; keys are kept. */
  async redactDeep<T>(value: T): Promise<T> {
    const strings: string[] = [];
    const joins: string[] = [];
    collect(value, strings, joins, false);
    if (strings.length === 0) return value;
    const masked = await this.redactStrings(strings, joins);
    let k = 0;
    return rebuild(value, () => masked[k++]) as T;
  }
}

/** Index of the text (by start offsets) that holds offset `pos`. */
function indexAt(starts: number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Replaces the (possibly overlapping) ranges of `text`; overlapping ranges merge and keep the first kind. */
function applyMasks(text: string, ranges: SecretFinding[]): string {
  if (ranges.length === 0) return text;
  const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretFinding[] = [];
  for (const r of sorted) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  let out = '';
  let pos = 0;
  for (const r of merged) {
    out += text.slice(pos, r.start) + maskOf(r.label);
    pos = r.end;
  }
  return out + text.slice(pos);
}

/**
 * Between two fields while scanning: a line no pattern reads across (not base64, not part of a
 * URL or an assignment), so `status: "started"` can never be taken for the tail of a key in
 * the field before it.
 */
const FIELD_BREAK = '\n\u0000\n';

/**
 * Every string of `v` in order, with the join before each: "\n" between consecutive lines of
 * one array (strings, or `{n, text}` objects as read_raw returns them), FIELD_BREAK otherwise.
 */
function collect(v: unknown, out: string[], joins: string[], inLines: boolean): void {
  if (typeof v === 'string') {
    joins.push(inLines ? '\n' : FIELD_BREAK);
    out.push(v);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => collect(x, out, joins, i > 0 && (typeof x === 'string' || isLine(x))));
  } else if (v && typeof v === 'object') {
    for (const x of Object.values(v)) collect(x, out, joins, inLines && typeof x === 'string');
  }
}

/** An object with one string field (a numbered line `{n, text}`): its text continues the previous line. */
function isLine(x: unknown): boolean {
  return !!x && typeof x === 'object' && !Array.isArray(x) && Object.values(x).filter((y) => typeof y === 'string').length === 1;
}

function rebuild(v: unknown, next: () => string): unknown {
  if (typeof v === 'string') return next();
  if (Array.isArray(v)) return v.map((x) => rebuild(x, next));
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = rebuild(x, next);
    return o;
  }
  return v;
}
