/**
 * Line LEADS: for a RegExp anchored at the line start, the characters a line it matches may
 * start with, and needle sets for the optional groups that may come before them. A rule whose
 * matches share no rare piece (log-info-after-time: a timestamp of digits, or a ten-digit epoch,
 * then a level word) still fails on most lines at their first character: a line that starts
 * with none of the lead and holds no factor of the sets cannot match, so LeadGate (asked by the
 * prefilter before the rule's combination) leaves the rule out with one character read instead
 * of the RegExp's run (which walks a `[\w.-]+` prefix back and forth on every line first).
 *
 * `^(?:[\w.-]+\s*\|\s?)?\[?(?:\d{4}…|\d\d:…|\d{10}…|\d{13})…` reads as: the line starts with `[`
 * or a digit, or starts with `[\w.-]` (`prefix`) and holds `|` (the compose prefix's needle).
 * Conservative like the needle sets: anything not modelled (`.`, a negated class, `\S`, a
 * back-reference, flags) gives no lead.
 */
import { buildProbes, needleSet, probeable, type Factor, type Probe } from './needle-set.js';
import { skipClass, skipGroup, topLevelBranches } from './regex-source.js';

/** Index of the lead table standing for every character outside ASCII (not modelled one by one). */
export const NON_ASCII_LEAD = 128;

/**
 * Lines may start with one of `lead` (1 at a character code, NON_ASCII_LEAD for any other), or
 * start with one of `prefix` (an optional group's first characters) and hold a factor of one of
 * `sets` (that group's needle set).
 */
export interface LineLead {
  lead: Uint8Array;
  prefix: Uint8Array;
  sets: Factor[][];
}

/** What a piece of pattern says: its first character is in `lead`, or the line holds a factor of `sets`, or (`empty`) it may match ''. */
interface Part {
  lead: Uint8Array;
  prefix: Uint8Array;
  sets: Factor[][];
  empty: boolean;
}

const table = () => new Uint8Array(NON_ASCII_LEAD + 1);

class NoLead extends Error {}

const DIGITS = '0123456789';
const WORD = `${DIGITS}ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`;
/** `\s` in ASCII (the rest of it is outside ASCII: NON_ASCII_LEAD). */
const ASCII_SPACE = '\t\n\v\f\r ';

/**
 * The lead of an anchored RegExp (its source starts with `^`), or undefined when it has none:
 * not anchored, flags other than none, syntax not modelled, or it may match an empty line start.
 */
export function lineLead(re: RegExp, source = re.source): LineLead | undefined {
  if (re.flags !== '' || source[0] !== '^') return undefined;
  const known = precomputed?.get(source);
  if (known !== undefined) return known ?? undefined;
  try {
    const part = alternation(source, 1, source.length);
    return part.empty ? undefined : { lead: part.lead, prefix: part.prefix, sets: part.sets };
  } catch (e) {
    if (e instanceof NoLead) return undefined;
    throw e;
  }
}

/**
 * Leads read ahead of time, by the source read (needle-table.ts; flags are always none), null
 * for none: the build reads the built-in always-on rules' leads, as it does their needle sets
 * (the same reader's cost in every fresh process). Shared: a caller must not change them.
 */
let precomputed: ReadonlyMap<string, LineLead | null> | undefined;

/** Use `table`'s leads instead of reading those sources (undefined: read every one). */
export function usePrecomputedLineLeads(table: ReadonlyMap<string, LineLead | null> | undefined): void {
  precomputed = table;
}

/** src[from, to): branches separated by a top-level `|`. */
function alternation(src: string, from: number, to: number): Part {
  const branches = topLevelBranches(src.slice(from, to));
  if (!branches) throw new NoLead();
  const out: Part = { lead: table(), prefix: table(), sets: [], empty: false };
  let at = from;
  for (const b of branches) {
    merge(out, sequence(src, at, at + b.length));
    at += b.length + 1;
  }
  return out;
}

function merge(into: Part, p: Part): void {
  for (let c = 0; c <= NON_ASCII_LEAD; c++) {
    into.lead[c] |= p.lead[c];
    into.prefix[c] |= p.prefix[c];
  }
  into.sets.push(...p.sets);
  into.empty ||= p.empty;
}

/** src[from, to), no top-level `|`: atoms in order until one must consume a character. */
function sequence(src: string, from: number, to: number): Part {
  const out: Part = { lead: table(), prefix: table(), sets: [], empty: false };
  let i = from;
  while (i < to) {
    const c = src[i];
    let atom: Part;
    let end: number;
    if (c === '(') {
      const close = skipGroup(src, i);
      if (close < 0 || close >= to) throw new NoLead();
      end = close + 1;
      if (/^\(\?<?[=!]/.test(src.slice(i, i + 4))) {
        // A lookaround consumes nothing: the next atom starts where it stood.
        if (isQuantifier(src[end])) throw new NoLead();
        i = end;
        continue;
      }
      const bodyStart = src.startsWith('(?:', i) ? i + 3 : src.startsWith('(?<', i) ? src.indexOf('>', i) + 1 : src[i + 1] === '?' ? -1 : i + 1;
      if (bodyStart < 0) throw new NoLead();
      const q = quantifier(src, end);
      if (q.min === 0) {
        // Optional: either skipped (what follows starts the line) or matched, and then the line
        // holds a factor of its needle set (probed by the gate); without one, its own lead.
        const set = bodySet(src.slice(bodyStart, close));
        atom = set && probeable(set) ? { lead: table(), prefix: firstOf(src, bodyStart, close), sets: [set], empty: true } : { ...alternation(src, bodyStart, close), empty: true };
      } else atom = alternation(src, bodyStart, close);
      end = q.end;
    } else if (c === '[') {
      const close = skipClass(src, i);
      if (close < 0 || close >= to) throw new NoLead();
      atom = { lead: classLead(src.slice(i + 1, close)), prefix: table(), sets: [], empty: false };
      const q = quantifier(src, close + 1);
      atom.empty = q.min === 0;
      end = q.end;
    } else if (c === '\\' && (src[i + 1] === 'b' || src[i + 1] === 'B')) {
      i += 2; // a word boundary consumes nothing
      continue;
    } else {
      const lead = new Uint8Array(NON_ASCII_LEAD + 1);
      const next = atomLead(src, i, lead);
      const q = quantifier(src, next);
      atom = { lead, prefix: table(), sets: [], empty: q.min === 0 };
      end = q.end;
    }
    if (end > to) throw new NoLead();
    merge(out, { ...atom, empty: false });
    if (!atom.empty) return out;
    i = end;
  }
  out.empty = true;
  return out;
}

/**
 * The characters a group's body may start with when it matches (every character when that is
 * not read: anything not modelled, or a body that may match '').
 */
function firstOf(src: string, from: number, to: number): Uint8Array {
  try {
    const p = alternation(src, from, to);
    if (!p.empty) {
      for (let c = 0; c <= NON_ASCII_LEAD; c++) p.lead[c] |= p.prefix[c];
      return p.lead;
    }
  } catch (e) {
    if (!(e instanceof NoLead)) throw e;
  }
  return table().fill(1);
}

/** The needle set of a group's body on its own (none when it does not compile alone: a named back-reference into the rest). */
function bodySet(body: string): Factor[] | undefined {
  let re: RegExp;
  try {
    re = new RegExp(body);
  } catch {
    return undefined;
  }
  return needleSet(re);
}

function isQuantifier(c: string | undefined): boolean {
  return c === '?' || c === '*' || c === '+' || c === '{';
}

/** The quantifier at `at` (none: exactly once): its least count and where it ends (a lazy `?` included). */
function quantifier(src: string, at: number): { min: number; end: number } {
  const c = src[at];
  let min = 1;
  let end = at;
  if (c === '?' || c === '*') {
    min = 0;
    end = at + 1;
  } else if (c === '+') end = at + 1;
  else if (c === '{') {
    const m = /^\{(\d+)(?:,\d*)?\}/.exec(src.slice(at));
    if (!m) throw new NoLead(); // a literal `{`: not modelled
    min = Number(m[1]);
    end = at + m[0].length;
  }
  if (end > at && src[end] === '?') end++;
  return { min, end };
}

/** One atom at `at` that is not a group or class: its characters into `lead`; returns where it ends. */
function atomLead(src: string, at: number, lead: Uint8Array): number {
  const c = src[at];
  if (c === '.' || c === '^' || c === '$' || c === ')' || c === ']' || c === '}' || c === '|' || isQuantifier(c)) throw new NoLead();
  if (c !== '\\') {
    add(lead, c);
    return at + 1;
  }
  return escapeLead(src, at, lead);
}

/** The escape at `at` (`\d`, `\w`, `\s`, `\t`, `\x41`, `\u0041`, `\[`): its characters into `lead`; returns where it ends. */
function escapeLead(src: string, at: number, lead: Uint8Array): number {
  const e = src[at + 1];
  if (e === undefined) throw new NoLead();
  if (e === 'd') addAll(lead, DIGITS);
  else if (e === 'w') addAll(lead, WORD);
  else if (e === 's') {
    addAll(lead, ASCII_SPACE);
    lead[NON_ASCII_LEAD] = 1;
  } else if (e === 't') add(lead, '\t');
  else if (e === 'n') add(lead, '\n');
  else if (e === 'r') add(lead, '\r');
  else if (e === 'f') add(lead, '\f');
  else if (e === 'v') add(lead, '\v');
  else if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(src.slice(at + 2, at + 4))) {
    add(lead, String.fromCharCode(parseInt(src.slice(at + 2, at + 4), 16)));
    return at + 4;
  } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(src.slice(at + 2, at + 6))) {
    add(lead, String.fromCharCode(parseInt(src.slice(at + 2, at + 6), 16)));
    return at + 6;
  } else if (/[A-Za-z0-9_]/.test(e)) throw new NoLead(); // \D \W \S \p{…} \1 \k<…> \c… \0: not modelled
  else add(lead, e); // an identity escape: `\[`, `\|`, `\.`
  return at + 2;
}

/** The characters of a class body (no `[`/`]`); a negated class is not modelled. */
function classLead(body: string): Uint8Array {
  if (body[0] === '^' || body.length === 0) throw new NoLead();
  const lead = new Uint8Array(NON_ASCII_LEAD + 1);
  let i = 0;
  /** The single character read at i (a range end), or undefined for a class escape. */
  const one = (): string | undefined => {
    const c = body[i];
    if (c !== '\\') {
      i++;
      return c;
    }
    const e = body[i + 1];
    if (e === 'd' || e === 'w' || e === 's') {
      escapeLead(body, i, lead);
      i += 2;
      return undefined;
    }
    if (e === 'b') {
      i += 2;
      return '\b'; // in a class, a backspace
    }
    const mark = new Uint8Array(NON_ASCII_LEAD + 1);
    const end = escapeLead(body, i, mark);
    const code = mark.indexOf(1);
    if (code < 0 || code === NON_ASCII_LEAD) throw new NoLead();
    i = end;
    return String.fromCharCode(code);
  };
  while (i < body.length) {
    const from = one();
    if (from !== undefined && body[i] === '-' && i + 1 < body.length) {
      i++;
      const to = one();
      if (to === undefined || to < from) throw new NoLead();
      for (let c = from.charCodeAt(0); c <= to.charCodeAt(0) && c < NON_ASCII_LEAD; c++) lead[c] = 1;
      if (to.charCodeAt(0) >= NON_ASCII_LEAD) lead[NON_ASCII_LEAD] = 1;
    } else if (from !== undefined) add(lead, from);
  }
  return lead;
}

function add(lead: Uint8Array, c: string): void {
  const code = c.charCodeAt(0);
  lead[code < NON_ASCII_LEAD ? code : NON_ASCII_LEAD] = 1;
}

function addAll(lead: Uint8Array, chars: string): void {
  for (const c of chars) add(lead, c);
}

/** A RegExp as plain data: its source, and its flags when it has any. */
export type RegExpPlan = { source: string; flags?: string };
export const regExpPlan = (re: RegExp): RegExpPlan => (re.flags ? { source: re.source, flags: re.flags } : { source: re.source });
export const fromPlan = (p: RegExpPlan): RegExp => new RegExp(p.source, p.flags ?? '');

/** A LeadGate as plain data (a RuleFilter's plan holds it: prefilter.ts FilterPlan). */
export interface LeadGatePlan {
  /** Character codes (0..NON_ASCII_LEAD) set in the union of the leads' `lead`. */
  lead: number[];
  /** …and of their `prefix`. */
  prefix: number[];
  /** The probes of their sets: key and RegExp. */
  probes: { key: string; re: RegExpPlan }[];
  /** The probes' keys' class, if any. */
  keys?: RegExpPlan;
  keysAlone: boolean;
}

/** What a LeadGate of these leads is made of. */
export function leadGatePlan(leads: readonly LineLead[]): LeadGatePlan {
  const lead = table();
  const prefix = table();
  for (const l of leads) {
    for (let c = 0; c <= NON_ASCII_LEAD; c++) {
      lead[c] |= l.lead[c];
      prefix[c] |= l.prefix[c];
    }
  }
  const { probes, keys } = buildProbes(
    leads.flatMap((l) => l.sets),
    [],
  );
  const codes = (t: Uint8Array) => [...t.keys()].filter((c) => t[c] !== 0);
  return {
    lead: codes(lead),
    prefix: codes(prefix),
    probes: probes.map((p) => ({ key: p.key, re: regExpPlan(p.re) })),
    ...(keys ? { keys: regExpPlan(keys) } : {}),
    // Every factor one character (the compose prefix's `|`): the keys' class is the whole answer.
    keysAlone: leads.every((l) => l.sets.every((set) => set.every((f) => f.length === 1 && f[0].length === 1))),
  };
}

/**
 * The lines some of several leads let through: one table of first characters, and probes of
 * their sets (a rare key searched natively, then the factors holding it).
 */
export class LeadGate {
  private readonly lead = table();
  /** Union of the leads' `prefix`: only a line starting with one of these is probed. */
  private readonly prefix = table();
  private readonly probes: readonly Probe[];
  private readonly keys: RegExp | undefined;
  /** The sets' factors are single characters, each its own probe's key: a line holding a key holds a factor. */
  private readonly keysAlone: boolean;

  /** Of these leads, or of what leadGatePlan made of them. */
  constructor(leads: readonly LineLead[] | LeadGatePlan) {
    const plan = Array.isArray(leads) ? leadGatePlan(leads) : (leads as LeadGatePlan);
    for (const c of plan.lead) this.lead[c] = 1;
    for (const c of plan.prefix) this.prefix[c] = 1;
    this.probes = plan.probes.map((p) => ({ key: p.key, re: fromPlan(p.re) }));
    this.keys = plan.keys === undefined ? undefined : fromPlan(plan.keys);
    this.keysAlone = plan.keysAlone;
  }

  /** May a line lead by one of them start `text`? (False: none of their RegExps can match it.) */
  open(text: string): boolean {
    // A lead's RegExp consumes a character at the line start: none matches an empty line.
    if (text.length === 0) return false;
    const c = text.charCodeAt(0);
    const at = c < NON_ASCII_LEAD ? c : NON_ASCII_LEAD;
    if (this.lead[at] === 1) return true;
    // Lines that start as no optional prefix does (cargo's indented lines): shut without a scan.
    if (this.prefix[at] === 0) return false;
    if (this.keys === undefined || !this.keys.test(text)) return false;
    if (this.keysAlone) return true;
    const probes = this.probes;
    for (let p = 0; p < probes.length; p++) if (text.indexOf(probes[p].key) >= 0 && probes[p].re.test(text)) return true;
    return false;
  }
}

/** Share of lines a lead table lets through at their first character, roughly (for choosing whether to gate on it). */
export function leadShare(lead: Uint8Array, share: (c: string) => number): number {
  let sum = lead[NON_ASCII_LEAD] === 1 ? 0.05 : 0;
  for (let c = 0; c < NON_ASCII_LEAD; c++) if (lead[c] === 1) sum += share(String.fromCharCode(c));
  return sum;
}
