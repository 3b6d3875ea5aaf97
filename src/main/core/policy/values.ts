/**
 * The values a line gives its words, as far as they can be known statically: a small abstract
 * interpreter over unbash's word parts. Variables and arrays assigned earlier on the line
 * (`d=$HOME; rm -rf "$d"`), `read` from a herestring or pipe, `printf -v`, positionals (`set --`,
 * function arguments), `for` over literal words, parameter expansions with defaults, trimming,
 * replacement and slicing (`${X:-/}`, `${HOME%/*}`), and command substitutions whose output is
 * knowable (`$(echo ~)`, `$(pwd)`, `$(dirname "$PWD")`, `$(git rev-parse --show-toplevel)`,
 * `$(mktemp -d)`, a base64 decode).
 *
 * A value is a set of candidate strings, plus `unknown` when it may also be something this file
 * cannot know (an environment variable, a program's output). Callers treat an unknown value as
 * the worst case: at a destructive position it is asked about, never assumed safe.
 */
import type { Node } from './ast.js';
import { bashPrintf, echoOutput } from './printf.js';

/** Candidate strings per word before the rest is refused (`for x in a b c …` × `{…}`): more fail closed (fact expansion-too-large). */
export const MAX_CANDIDATES = 16;
/** Longest value tracked (characters); longer values are unknown, so trimming patterns stay cheap. */
export const MAX_VALUE_CHARS = 4096;

export interface Piece {
  /** Known candidates (each one possible value). */
  cands: string[];
  /** It may also be something not known statically. */
  unknown: boolean;
}

export interface WordValue {
  /** Known candidate values of the whole word (brace expansion not applied yet). */
  values: string[];
  /** Some part could not be known: the word is then also its text as written (`$d`, `$(cmd)`). */
  unknown: boolean;
  /** An unquoted glob character, written or from an unquoted expansion. */
  glob: boolean;
  /** Too many candidates: the rest were dropped and the line must be asked about. */
  truncated: boolean;
}

/** What the evaluator asks of the walker: the current directory, the budget, knowable substitutions. */
export interface ValueHost {
  /** Working directory after the line's `cd`s: absolute or `~/…`, null unknown, undefined the line's own. */
  cwd(): string | null | undefined;
  step(n?: number): boolean;
}

/** bash's IFS when none is set (and after `unset IFS`): space, tab, newline. */
const DEFAULT_IFS = ' \t\n';

const KNOWN_ENV: Record<string, string> = {
  HOME: '~',
  TMPDIR: '/tmp',
  TMP: '/tmp',
  TEMP: '/tmp',
  USER: 'user',
  LOGNAME: 'user',
  SHELL: '/bin/bash',
  IFS: DEFAULT_IFS,
};
/** Marks, in a value, a field boundary made by an IFS whitespace character (bash trims and merges these). */
export const FIELD_SPACE = '\u0001';
/** Marks a field boundary made by an IFS character that is not whitespace (`IFS=_`: each one ends a field). */
export const FIELD_DELIM = '\u0002';

/**
 * The fields bash makes of a word whose unquoted expansions carry FIELD_SPACE / FIELD_DELIM
 * marks: whitespace marks at the ends are trimmed and runs merge; each non-whitespace mark ends
 * a field (so `a__b` with IFS=_ is `a`, ``, `b`, and a final one adds no empty field).
 */
export function splitFields(v: string): string[] {
  if (v.includes(ELEMENT)) return v.split(ELEMENT).flatMap((e) => (/[\u0001\u0002]/.test(e) ? splitFields(e) : [e]));
  const t = v.replace(/^\u0001+|\u0001+$/g, '');
  if (t === '') return [];
  const fields = t.split(/\u0001*\u0002\u0001*|\u0001+/);
  if (/\u0002\u0001*$/.test(t)) fields.pop();
  return fields;
}

/** Separates the elements of `"${a[@]}"` in a value: each is a word of its own, quoted or not. */
export const ELEMENT = '\u0003';

/** HOME spelled out for trimming (`${HOME%/*}` is the folder above home, a top-level one). */
const HOME_SPELLED = '/home/user';

const known = (...cands: string[]): Piece => ({ cands, unknown: false });
const UNKNOWN: Piece = { cands: [], unknown: true };

/** The `dirname` of a path as a value (`~` → `/home`, `.` → `..`). */
export function dirnameOf(p: string): string {
  if (p === '~' || p === '~/') return '/home';
  if (p === '.' || p === './') return '..';
  const t = p.replace(/\/+$/, '');
  if (t === '') return '/';
  const at = t.lastIndexOf('/');
  if (at < 0) return '.';
  if (at === 0) return '/';
  return t.slice(0, at);
}

function basenameOf(p: string): string {
  const t = p.replace(/\/+$/, '');
  if (t === '') return '/';
  return t.slice(t.lastIndexOf('/') + 1);
}

/** A shell pattern as a regex source (`*`, `?`, `[…]`), anchored by the caller. */
function patternSource(pat: string, lazy: boolean): string {
  let out = '';
  for (let i = 0; i < pat.length; i++) {
    const ch = pat[i];
    if (ch === '*') out += lazy ? '[\\s\\S]*?' : '[\\s\\S]*';
    else if (ch === '?') out += '[\\s\\S]';
    else if (ch === '[') {
      const close = pat.indexOf(']', i + 2);
      if (close < 0) out += '\\[';
      else {
        out += `[${pat.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else out += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}

/** `${v#p}`, `${v##p}`, `${v%p}`, `${v%%p}`. */
function trim(v: string, op: string, pat: string): string {
  const longest = op.length === 2;
  if (op.startsWith('#')) {
    const re = new RegExp(`^(?:${patternSource(pat, !longest)})`);
    const m = re.exec(v);
    return m ? v.slice(m[0].length) : v;
  }
  // Suffix: try each start, shortest suffix first unless longest (values are capped in length).
  const re = new RegExp(`^(?:${patternSource(pat, false)})$`);
  if (longest) {
    for (let i = 0; i <= v.length; i++) if (re.test(v.slice(i))) return v.slice(0, i);
  } else {
    for (let i = v.length; i >= 0; i--) if (re.test(v.slice(i))) return v.slice(0, i);
  }
  return v;
}

function decodeBase64(s: string): string | undefined {
  const t = s.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t) || t.length === 0) return undefined;
  return Buffer.from(t, 'base64').toString('utf8');
}

function product(a: Piece, b: Piece): { piece: Piece; truncated: boolean } {
  const cands: string[] = [];
  let truncated = false;
  const left = a.cands.length ? a.cands : a.unknown ? [] : [''];
  const right = b.cands.length ? b.cands : b.unknown ? [] : [''];
  outer: for (const x of left) {
    for (const y of right) {
      if (cands.length >= MAX_CANDIDATES) {
        truncated = true;
        break outer;
      }
      cands.push(x + y);
    }
  }
  return { piece: { cands, unknown: a.unknown || b.unknown }, truncated };
}

/** Variables, arrays and positionals of the line being read. */
export class Values {
  /** name → candidates (an array's elements are candidates too); null: assigned something unknown. */
  private readonly vars = new Map<string, string[] | null>();
  /** $1, $2, …: null outside a function / `set --` (what the shell was started with is not known). */
  positional: string[] | null = null;

  /**
   * Namerefs (`declare -n r=HOME`, `local -n`, `typeset -n`): name → the variable it refers to;
   * null until it is given one, '' when that is not known (then every use is unknown).
   */
  private readonly refs = new Map<string, string | null>();

  /** Arrays whose elements are all known, in order (`a=(rm -rf ~)`): `"${a[@]}"` is those words, `${a[1]}` one of them. */
  private readonly arrays = new Map<string, string[]>();

  constructor(private readonly host: ValueHost) {}

  /** The values as they are now; calling the result puts them back (a scratch read forgets what it assigned). */
  snapshot(): () => void {
    const vars = new Map(this.vars);
    const arrays = new Map(this.arrays);
    const refs = new Map(this.refs);
    const positional = this.positional;
    const put = <K, V>(m: Map<K, V>, from: Map<K, V>) => {
      m.clear();
      for (const [k, v] of from) m.set(k, v);
    };
    return () => {
      put(this.vars, vars);
      put(this.arrays, arrays);
      put(this.refs, refs);
      this.positional = positional;
    };
  }

  /**
   * A branch that may or may not run (`a && x=ls`, an `if`'s arms, a loop body): `join()` keeps
   * both what the line held before it and what it assigned — every value a path could give, so
   * `x=rm; false && x=ls; $x -rf ~` still reads rm. A name given differing values is the union
   * of both (unknown when either is, or when it had no value before and no known default).
   */
  branch(): { restore: () => void; join: (keepNew?: boolean) => void } {
    const vars = new Map(this.vars);
    const arrays = new Map(this.arrays);
    const refs = new Map(this.refs);
    const positional = this.positional;
    const restore = this.snapshot();
    // keepNew: a name first given a value here keeps it (`local d=build` where d had none on the line).
    const join = (keepNew = false) => {
      for (const k of new Set([...vars.keys(), ...this.vars.keys()])) {
        if (keepNew && !vars.has(k)) continue;
        const a = vars.has(k) ? vars.get(k)! : KNOWN_ENV[k] !== undefined ? [KNOWN_ENV[k]] : null;
        const b = this.vars.has(k) ? this.vars.get(k)! : KNOWN_ENV[k] !== undefined ? [KNOWN_ENV[k]] : null;
        if (a === b) continue;
        const both = a === null || b === null ? null : [...new Set([...a, ...b])];
        this.vars.set(k, both && both.length <= MAX_CANDIDATES ? both : null);
      }
      for (const k of new Set([...arrays.keys(), ...this.arrays.keys()])) if (arrays.get(k) !== this.arrays.get(k) && !(keepNew && !vars.has(k))) this.arrays.delete(k);
      for (const k of new Set([...refs.keys(), ...this.refs.keys()])) if (refs.get(k) !== this.refs.get(k)) this.refs.set(k, '');
      if (positional !== this.positional && JSON.stringify(positional) !== JSON.stringify(this.positional)) this.positional = null;
    };
    return { restore, join };
  }

  /** Names whose known values (or array elements) match `re`: a stored `a[$(…)]` (late-code.ts). Empty in the common case, at no cost. */
  namesHolding(re: RegExp): string[] {
    const out: string[] = [];
    for (const [k, v] of this.vars) if (v?.some((x) => re.test(x))) out.push(k);
    for (const [k, v] of this.arrays) if (v.some((x) => re.test(x))) out.push(k);
    return out;
  }

  /** A variable assigned on this line (undefined: never — its value is the environment's): its one known value, else not literal. */
  assigned(name: string): { value: string; literal: boolean } | undefined {
    if (!this.vars.has(name)) return undefined;
    const v = this.vars.get(name);
    return v && v.length === 1 ? { value: v[0], literal: true } : { value: `$${name}`, literal: false };
  }

  /** An array's elements in order, when all are known. */
  elementsOf(name: string): string[] | undefined {
    return this.arrays.get(this.target(name) || name);
  }

  /** An array assignment: its elements (null when one is not known); the elements are candidates of `$a` too. */
  setArray(name: string, elements: string[] | null, unknown: boolean): void {
    this.set(name, { cands: elements ?? [], unknown: unknown || elements === null });
    if (elements && !unknown) this.arrays.set(this.target(name) || name, elements.slice(0, MAX_CANDIDATES * 4));
  }

  /** `declare -n name[=target]`: uses of name read (and assignments write) the target. */
  reference(name: string, target: Piece | undefined): void {
    this.vars.delete(name);
    if (target === undefined) this.refs.set(name, null);
    else this.refs.set(name, !target.unknown && target.cands.length === 1 && /^[A-Za-z_]\w*$/.test(target.cands[0]) ? target.cands[0] : '');
  }

  /** The variable a name stands for after namerefs ('' when unknown). */
  private target(name: string): string {
    for (let hops = 0; hops < 8 && this.refs.has(name); hops++) {
      const t = this.refs.get(name);
      if (t === null || t === undefined) return name;
      if (t === '') return '';
      name = t;
    }
    return this.refs.has(name) && this.refs.get(name) !== null ? '' : name;
  }

  set(name: string, value: Piece): void {
    this.arrays.delete(name);
    if (this.refs.get(name) === null) {
      // The first assignment to a nameref with no target names its target.
      this.reference(name, value);
      return;
    }
    name = this.target(name);
    if (name === '') return;
    if (value.unknown && value.cands.length === 0) this.vars.set(name, null);
    else if (value.unknown) this.vars.set(name, null);
    else this.vars.set(name, value.cands.filter((c) => c.length <= MAX_VALUE_CHARS));
  }

  /** `for name in WORDS`: the name holds every word's values while the body is read (no list: "$@"). */
  loop(name: string, words: Array<{ argv: string[]; unknown: boolean }> | undefined): void {
    if (!words) return this.set(name, this.lookup('@'));
    this.set(name, { cands: words.flatMap((v) => v.argv), unknown: words.some((v) => v.unknown) });
  }

  /** Marks a name as holding something unknown (`read x` from an unknown source, `x=$(curl …)`). */
  forget(name: string): void {
    if (this.refs.size) name = this.target(name);
    if (name === '') return;
    this.vars.set(name, null);
  }

  lookup(name: string): Piece {
    if (this.refs.size) {
      name = this.target(name);
      if (name === '') return UNKNOWN;
    }
    if (/^[1-9]$/.test(name)) {
      if (!this.positional) return UNKNOWN;
      const v = this.positional[Number(name) - 1];
      return known(v ?? '');
    }
    if (name === '@' || name === '*') {
      if (!this.positional) return UNKNOWN;
      return known(...(this.positional.length ? this.positional : ['']));
    }
    if (name === '#') return this.positional ? known(String(this.positional.length)) : UNKNOWN;
    const v = this.vars.get(name);
    if (v === null) return UNKNOWN;
    if (v !== undefined) return known(...(v.length ? v : ['']));
    if (name === 'PWD') {
      const c = this.host.cwd();
      return c === null ? UNKNOWN : known(c ?? '.');
    }
    if (KNOWN_ENV[name] !== undefined) return known(KNOWN_ENV[name]);
    return UNKNOWN;
  }

  /** `NAME=value`, `NAME=(a b c)`, `NAME+=…`: the variable holds the value (an array: each element is a candidate). */
  assign(p: Node, element: (n: Node) => { argv: string[]; literal: boolean[]; starts: number[]; unknown: boolean }, value: (n: Node) => WordValue): void {
    const name = String(p.name ?? '');
    if (!name) return;
    const v = p.value as Node | undefined;
    const piece: Piece = { cands: [], unknown: false };
    /** The array's elements in order, while each one is known (null: some element is not). */
    let elements: string[] | null = [];
    if (v?.type === 'ArrayValue') {
      for (const el of (v.elements as Node[]) ?? []) {
        const r = element(el);
        piece.cands.push(...r.argv.filter((_x, k) => r.literal[k]));
        if (r.unknown || r.starts.length > 1) elements = null;
        else elements?.push(...r.argv);
        if (r.unknown) piece.unknown = true;
      }
    } else if (v) {
      const r = value(v);
      // `b="${a[@]}"` joins the elements with spaces.
      piece.cands.push(...r.values.map((x) => x.replaceAll(ELEMENT, ' ')));
      piece.unknown = r.unknown;
    } else piece.cands.push('');
    const text = String(p.text ?? '');
    // `a+=(x)` appends; `a[1]=x` sets one element (both keep the elements in order while they are known).
    const index = /^[A-Za-z_]\w*\[([^\]]*)\]/.exec(text)?.[1];
    if (text.startsWith(`${name}+=`) || index !== undefined) {
      const old = this.lookup(name);
      const had = this.elementsOf(name);
      if (old.unknown) piece.unknown = true;
      else if (v?.type !== 'ArrayValue' && index === undefined) piece.cands = old.cands.flatMap((o) => piece.cands.map((c) => o + c));
      else piece.cands.unshift(...old.cands);
      const one = piece.cands.length === old.cands.length + 1 ? piece.cands[piece.cands.length - 1] : undefined;
      if (index !== undefined) elements = had && one !== undefined && /^\d+$/.test(index) && Number(index) <= had.length ? had.map((x, k) => (k === Number(index) ? one : x)).concat(Number(index) === had.length ? [one] : []) : null;
      else elements = had && elements && v?.type === 'ArrayValue' ? [...had, ...elements] : null;
    }
    if (elements && (v?.type === 'ArrayValue' || index !== undefined)) this.setArray(name, elements, piece.unknown);
    else this.set(name, piece);
  }

  /** Builtins that set values the rest of the line uses: read, printf -v, set --, shift, unset. */
  builtin(a: string[], literal: boolean[], stdin: string | undefined, prefixSetsIfs = false): void {
    // A field separator other than the default splits `read`'s input in ways not followed here
    // (the adversary pass: `IFS=: read -r a b <<< "x:$HOME"; rm -rf "$b"` was allowed).
    const ifsChanged = prefixSetsIfs || this.vars.has('IFS');
    const name = a.length ? a[0].slice(a[0].lastIndexOf('/') + 1) : '';
    if (name === 'read') {
      const names: string[] = [];
      let array: string | undefined;
      for (let k = 1; k < a.length; k++) {
        if (a[k] === '-a' && a[k + 1]) array = a[++k];
        else if (/^-[pdnNtu]$/.test(a[k])) k++;
        else if (!a[k].startsWith('-')) names.push(a[k]);
      }
      if (array) names.push(array);
      if (names.length === 0) names.push('REPLY');
      const words = stdin === undefined || ifsChanged ? undefined : (stdin.split('\n')[0] ?? '').trim().split(/\s+/);
      names.forEach((nm, k) => {
        if (words === undefined) this.forget(nm);
        else if (nm === array) this.setArray(nm, words, false);
        else this.set(nm, { cands: [k === names.length - 1 ? words.slice(k).join(' ') : (words[k] ?? '')], unknown: false });
      });
    } else if (name === 'printf' && a[1] === '-v' && a[2] !== undefined) {
      const out = literal.slice(3).every(Boolean) ? Values.substOutput([{ argv: ['printf', ...a.slice(3)], known: true }]) : undefined;
      if (out === undefined) this.forget(a[2]);
      else this.set(a[2], { cands: [out], unknown: false });
    } else if (name === 'set' && (a[1] === '--' || (a.length > 1 && !a[1].startsWith('-') && !a[1].startsWith('+')))) {
      this.positional = a.slice(a[1] === '--' ? 2 : 1);
      if (!literal.slice(1).every(Boolean)) this.positional = null;
    } else if (name === 'shift') {
      // `shift 0` shifts nothing; a count not known (`shift $n`) leaves the positionals unknown.
      const n = a[1] === undefined ? 1 : literal[1] ? Number(a[1]) : NaN;
      if (this.positional) this.positional = Number.isInteger(n) && n >= 0 ? this.positional.slice(n) : null;
    } else if (name === 'getopts' && a[2] !== undefined) {
      // `getopts spec x`: x becomes an option letter or `?` from arguments not known here.
      this.forget(a[2]);
      this.forget('OPTARG');
    } else if (name === 'unset') {
      for (const x of a.slice(1)) if (!x.startsWith('-')) this.set(x, { cands: [''], unknown: false });
    } else if (name === 'mapfile' || name === 'readarray') {
      const arr = a.slice(1).filter((x) => !x.startsWith('-')).pop() ?? 'MAPFILE';
      if (stdin === undefined) this.forget(arr);
      else this.setArray(arr, stdin.split('\n').filter((x) => x !== ''), false);
    }
  }


  /**
   * A word node's value. `subst` gives a command substitution's output when it is knowable.
   * `split`: an argv word — its unquoted expansions carry field marks (FIELD_SPACE / FIELD_DELIM)
   * where the IFS of the moment splits them (`IFS=_; c=rm_-rf_$HOME; $c`); an IFS set to
   * something unknown makes them unknown.
   */
  word(w: Node | undefined, subst: (n: Node) => Piece, split = false): WordValue {
    if (!w) return { values: [''], unknown: false, glob: false, truncated: false };
    const parts = w.parts as Node[] | undefined;
    if (!parts) return { values: [String(w.value ?? w.text ?? '')], unknown: false, glob: false, truncated: false };
    let acc: Piece = known('');
    let glob = false;
    let truncated = false;
    const ifs = split ? this.lookup('IFS') : undefined;
    parts.forEach((p, k) => {
      const r = this.part(p, false, subst, k === 0);
      if (ifs && /^(?:SimpleExpansion|ParameterExpansion|CommandExpansion)$/.test(String(p.type))) r.piece = this.marked(r.piece, ifs);
      if (r.glob) glob = true;
      const pr = product(acc, r.piece);
      if (pr.truncated) truncated = true;
      acc = pr.piece;
    });
    return { values: acc.cands, unknown: acc.unknown, glob, truncated };
  }

  /**
   * An unquoted expansion's candidates with field marks where `ifs` splits them, and — worst case —
   * where bash's default IFS splits them too: the line's IFS is known only as its last assignment
   * (`( IFS= )`, `f() { IFS=; }`, `false && IFS=`, `unset IFS`, `local IFS` leave bash splitting
   * on whitespace), so a non-default one adds a reading, never replaces the default one. An
   * unknown IFS: unknown.
   */
  private marked(v: Piece, ifs: Piece): Piece {
    // Several IFS values (one set in a branch that may not run): every reading is kept.
    if (ifs.unknown || ifs.cands.length === 0) return UNKNOWN;
    const mark = (chars: string) => (c: string) => {
      let out = '';
      for (const ch of c) out += !chars.includes(ch) ? ch : /\s/.test(ch) ? FIELD_SPACE : FIELD_DELIM;
      return out;
    };
    const byDefault = v.cands.map(mark(DEFAULT_IFS));
    const byLine = ifs.cands.filter((i) => i !== DEFAULT_IFS).flatMap((i) => (i === '' ? v.cands : v.cands.map(mark(i))));
    return { cands: [...new Set([...byLine, ...byDefault])], unknown: v.unknown };
  }

  private part(p: Node, quoted: boolean, subst: (n: Node) => Piece, first: boolean): { piece: Piece; glob: boolean } {
    if (!this.host.step()) return { piece: UNKNOWN, glob: false };
    switch (p.type) {
      case 'Literal': {
        const v = String(p.value ?? p.text ?? '');
        return { piece: known(v), glob: false };
      }
      case 'SingleQuoted':
      case 'AnsiCQuoted': {
        const v = String(p.value ?? '');
        // A quoted ~ is a folder named "~", not home.
        return { piece: known(first && v.startsWith('~') ? `./${v}` : v), glob: false };
      }
      case 'DoubleQuoted': {
        let acc: Piece = known('');
        ((p.parts as Node[]) ?? []).forEach((c, k) => {
          let r = this.part(c, true, subst, false).piece;
          if (first && k === 0 && c.type === 'Literal') r = { ...r, cands: r.cands.map((v) => (v.startsWith('~') ? `./${v}` : v)) };
          acc = product(acc, r).piece;
        });
        return { piece: acc, glob: false };
      }
      case 'Glob':
      case 'ExtendedGlob':
      case 'BracketGlob':
      case 'StarGlob':
      case 'QuestionGlob':
        return { piece: known(String(p.value ?? p.text ?? '')), glob: true };
      case 'BraceExpansion':
        return { piece: known(String(p.value ?? p.text ?? '')), glob: false };
      case 'SimpleExpansion': {
        const name = String(p.text ?? '').replace(/^\$/, '');
        // "$@" / $*: the positionals, each a word of its own (not alternatives for one word).
        const v = (name === '@' || (name === '*' && !quoted)) && this.positional ? known(this.positional.join(ELEMENT)) : this.lookup(name);
        return { piece: v, glob: !quoted && v.cands.some((c) => /[*?[]/.test(c)) };
      }
      case 'ParameterExpansion': {
        const v = this.parameter(p, subst);
        return { piece: v, glob: !quoted && v.cands.some((c) => /[*?[]/.test(c)) };
      }
      case 'CommandExpansion':
        return { piece: subst(p), glob: false };
      default:
        return { piece: UNKNOWN, glob: false };
    }
  }

  private operand(w: unknown, subst: (n: Node) => Piece): Piece {
    const r = this.word(w as Node | undefined, subst);
    return { cands: r.values, unknown: r.unknown };
  }

  private parameter(p: Node, subst: (n: Node) => Piece): Piece {
    const name = String(p.parameter ?? '');
    let v: Piece;
    if (p.prefix === '!' && /^[A-Za-z_]\w*$/.test(name)) {
      // ${!x}: the variable x names (one known name), else unknown.
      const ref = this.lookup(name);
      if (ref.unknown || ref.cands.length !== 1 || !/^(?:[A-Za-z_]\w*|[0-9@*#])$/.test(ref.cands[0])) return UNKNOWN;
      v = this.lookup(ref.cands[0]);
    } else if (p.prefix !== undefined) return UNKNOWN; // ${#x}, ${!x[@]}, …: a length, names
    else {
      v = this.lookup(name);
      const index = String((p.index as Node | undefined)?.value ?? '');
      const elements = this.arrays.get(this.target(name));
      if (p.index !== undefined && elements) {
        // `"${a[@]}"`: every element, each a word; `${a[2]}`: that one.
        if (index === '@' || index === '*') v = known(elements.join(index === '@' ? ELEMENT : ' '));
        else if (/^\d+$/.test(index)) v = known(elements[Number(index)] ?? '');
      }
    }
    const op = p.operation as Node | undefined;
    if (!op) return v;
    const operator = String(op.operator ?? '');
    const spelled = (c: string) => (name === 'HOME' && c === '~' ? HOME_SPELLED : c.startsWith('~/') ? `${HOME_SPELLED}${c.slice(1)}` : c);
    switch (op.type) {
      case 'Default': {
        const alt = this.operand(op.operand, subst);
        const colon = operator.startsWith(':');
        if (operator.endsWith('+')) {
          // ${x:+alt}: alt when x is set (and non-empty with the colon), else empty.
          if (v.unknown) return { cands: [...alt.cands, ''], unknown: true };
          return v.cands.some((c) => c !== '' || !colon) ? alt : known('');
        }
        if (operator.endsWith('?')) return v;
        const result: Piece = v.unknown ? { cands: [...alt.cands], unknown: true } : { cands: v.cands.flatMap((c) => (c === '' && colon ? alt.cands : [c])), unknown: alt.unknown && v.cands.some((c) => c === '' && colon) };
        if (operator.endsWith('=')) this.set(name, result);
        return result;
      }
      case 'Remove': {
        if (v.unknown) return UNKNOWN;
        const pat = this.operand(op.operand, subst);
        if (pat.unknown) return UNKNOWN;
        v = { cands: v.cands.flatMap((c) => pat.cands.map((pt) => trim(spelled(c), operator, pt))), unknown: false };
        return v;
      }
      case 'Replace': {
        if (v.unknown) return UNKNOWN;
        const pat = this.operand(op.pattern, subst);
        const rep = op.replacement ? this.operand(op.replacement, subst) : known('');
        if (pat.unknown || rep.unknown || pat.cands.length !== 1 || rep.cands.length !== 1) return UNKNOWN;
        const all = operator === '//';
        const re = new RegExp(patternSource(pat.cands[0], false), all ? 'g' : '');
        return known(...v.cands.map((c) => spelled(c).replace(re, () => rep.cands[0])));
      }
      case 'Slice': {
        if (v.unknown) return UNKNOWN;
        const off = Number((op.offset as Node | undefined)?.value ?? NaN);
        const len = op.length !== undefined ? Number((op.length as Node | undefined)?.value ?? NaN) : undefined;
        if (!Number.isInteger(off) || (len !== undefined && !Number.isInteger(len))) return UNKNOWN;
        return known(...v.cands.map((c) => spelled(c).substr(off, len)));
      }
      default:
        return UNKNOWN;
    }
  }

  /**
   * The output of a command substitution whose script is one simple command (or `echo … | base64 -d`),
   * given the argvs of its commands with their words already evaluated; undefined when not knowable.
   */
  static substOutput(cmds: Array<{ argv: string[]; known: boolean; stdin?: string }>): string | undefined {
    if (cmds.length === 0 || cmds.some((c) => !c.known)) return undefined;
    let out: string | undefined;
    for (let k = 0; k < cmds.length; k++) {
      const { argv } = cmds[k];
      const name = argv[0].slice(argv[0].lastIndexOf('/') + 1);
      const args = argv.slice(1);
      const stdin = k === 0 ? cmds[k].stdin : out;
      if (k > 0 && !/^(?:base64|base32|basenc|cat|head|tail|tr|sed)$/.test(name)) return undefined;
      switch (name) {
        case 'echo': {
          const e = echoOutput(args);
          if (e === undefined) return undefined;
          out = e.text;
          break;
        }
        case 'printf': {
          // Bash's escapes and conversions (`\162\155`, `\x72`, `%b`); one it does not model: unknown.
          out = bashPrintf(args);
          if (out === undefined) return undefined;
          break;
        }
        case 'pwd':
          out = '.';
          break;
        case 'dirname':
          out = args.filter((a) => !a.startsWith('-')).map(dirnameOf).join('\n');
          break;
        case 'basename':
          out = basenameOf(args.filter((a) => !a.startsWith('-'))[0] ?? '');
          break;
        case 'realpath':
        case 'readlink':
          out = args.filter((a) => !a.startsWith('-'))[0] ?? '.';
          break;
        case 'git':
          if (args.includes('rev-parse') && args.includes('--show-toplevel')) out = '.';
          else if (args.includes('rev-parse') && args.includes('--git-dir')) out = '.git';
          else if (args.includes('rev-parse') && args.includes('--show-cdup')) out = '.';
          else return undefined;
          break;
        case 'mktemp':
          out = '/tmp/tmp.mishXXXX';
          break;
        case 'whoami':
          out = 'user';
          break;
        case 'base64':
        case 'base32':
        case 'basenc': {
          if (!args.some((a) => a === '-d' || a === '--decode' || /^-[a-z]*d[a-z]*$/.test(a))) return undefined;
          const src = stdin ?? undefined;
          if (src === undefined || name !== 'base64') return undefined;
          out = decodeBase64(src);
          if (out === undefined) return undefined;
          break;
        }
        case 'cat':
          if (args.length || stdin === undefined) return undefined;
          out = stdin;
          break;
        default:
          return undefined;
      }
    }
    return out?.replace(/\n+$/, '');
  }
}
