/**
 * Shell parsing for the router: a command line → the simple commands it runs, each with its
 * argv (wrappers seen through), redirections, place in its pipeline and context.
 *
 * Why unbash: a maintained, typed, zero-dependency bash parser with source positions (the
 * README benchmarks it at ~75 MB/s), so parse + categorise stays well under a millisecond.
 * It is tolerant (recovers and reports errors); we add one check it lacks: top-level text it
 * silently dropped (`ls (`) is reported as an unexpected token, so a line that bash would
 * reject never runs.
 */
import { parse as parseBash } from 'unbash';
import type { Command, CompoundList, ParsedScript, PipelineNode, Redirection, Statement, Word, WordPart, AndOr } from 'unbash';
import { findUnrunnableCharacter, unrunnableReason, visibleControls } from './unrunnable-characters.js';
import { unwrap } from './wrappers.js';

export interface RedirectInfo {
  /** `>`, `>>`, `<`, `2>&1` is `>&` with fd 2, `<<` heredoc, `<<<` herestring. */
  op: string;
  fd?: number;
  /** Target word as written (file name, fd number); heredoc/herestring: the text fed to stdin. */
  target?: string;
}

/** Redirection targets that are devices, not files: writing there creates or changes no file. */
const DEVICE_TARGET = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** Standard output (`>`, `>>`, `>|`, `&>`, `&>>`) written to a file — not to a device like /dev/null. */
export function writesStdoutToFile(r: RedirectInfo): boolean {
  return (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>' || r.op === '&>>') && (r.fd === undefined || r.fd === 1) && !DEVICE_TARGET.test(r.target ?? '');
}

export interface WordInfo {
  /** As written in the source (quotes kept). */
  text: string;
  /** Quotes removed; for dynamic words (expansions) the source text. */
  value: string;
  /** No expansions, substitutions or globs: the value is exactly what the program gets. */
  literal: boolean;
  pos: number;
  end: number;
}

/** Where a simple command sits. */
export type CommandContext = 'top' | 'substitution' | 'function';

export interface SimpleCommand {
  /** Source text of the simple command (with its own redirections). */
  text: string;
  pos: number;
  end: number;
  /** All words, command name first (assignments and redirections excluded). */
  words: WordInfo[];
  /** Effective argv after process wrappers (`sudo -u x env A=1 make -j4` → `make -j4`). */
  argv: string[];
  /** Index into `words` where `argv` starts. */
  argvStart: number;
  /** Wrapper names, outermost first. */
  wrappers: string[];
  /** Prefix assignments (`FOO=1 make`), as written. */
  assignments: string[];
  redirects: RedirectInfo[];
  /** Which pipeline (counted over the whole line) and where in it. */
  pipeline: { index: number; position: number; length: number };
  context: CommandContext;
  /** Standard input comes from a pipe, a file, a heredoc or a herestring. */
  stdinRedirected: boolean;
  /** Standard output goes to a pipe or a file (the terminal never sees it). */
  stdoutRedirected: boolean;
}

export interface FunctionDef {
  name: string;
  /** Command names the body runs (for the fork-bomb check: a function that calls itself in the background or a pipe). */
  calls: string[];
  /** The body pipes into or backgrounds a call of itself. */
  selfSpawning: boolean;
}

export interface ParsedLine {
  source: string;
  commands: SimpleCommand[];
  functions: FunctionDef[];
  /** Each `for` loop's variable and its literal words (`for f in a.key b.key`: `f` → [`a.key`, `b.key`]); a word that is not literal is left out. */
  loops: { variable: string; words: string[] }[];
  /** More than one simple command, or any pipeline, list, subshell or control structure. */
  compound: boolean;
  /** A statement ends with `&`. */
  background: boolean;
}

export interface ParseFailure {
  /** `control-character`: the line holds a byte the shell or terminal would transform (see unrunnable-characters.ts). */
  kind?: 'syntax' | 'control-character';
  message: string;
  /** Zero-based offset into the source. */
  pos: number;
  /** One-based line and column. */
  line: number;
  column: number;
  /** The offending source line and a caret under the position. */
  excerpt: string;
}

export type ParseOutcome = { ok: true; line: ParsedLine } | { ok: false; error: ParseFailure };

/** Parse a command line. Never throws: a syntax error is a value naming its position. */
export function parseCommandLine(source: string): ParseOutcome {
  if (source.trim() === '') return { ok: false, error: failure(source, 'empty command line', 0) };
  const control = findUnrunnableCharacter(source);
  if (control) return { ok: false, error: { ...failure(source, unrunnableReason(control), control.index, false), kind: 'control-character' } };
  let script: ParsedScript;
  try {
    script = parseBash(source);
  } catch (e) {
    return { ok: false, error: failure(source, `cannot parse: ${(e as Error).message}`, 0) };
  }
  const walker = new Walker(source);
  walker.script(script, 'top');
  if (walker.error) return { ok: false, error: walker.error };
  const dropped = droppedText(source, script);
  if (dropped !== undefined) return { ok: false, error: failure(source, `unexpected token '${source[dropped]}'`, dropped) };
  const top = walker.commands.filter((c) => c.context === 'top');
  return {
    ok: true,
    line: {
      source,
      commands: walker.commands,
      functions: walker.functions,
      loops: walker.loops,
      compound: walker.structured || top.length !== 1 || top[0].pipeline.length > 1 || script.commands.length > 1,
      background: script.commands.some((s) => s.background),
    },
  };
}

function failure(source: string, message: string, at: number, skipBlanks = true): ParseFailure {
  // Point at the offending token, not the blank before it (`a | | b`: the second `|`).
  let pos = at;
  while (skipBlanks && pos < source.length && (source[pos] === ' ' || source[pos] === '\t')) pos++;
  if (pos === source.length) pos = at;
  const before = source.slice(0, pos);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = source.indexOf('\n', pos) < 0 ? source.length : source.indexOf('\n', pos);
  const column = pos - lineStart + 1;
  const excerpt = `${visibleControls(source.slice(lineStart, lineEnd))}\n${' '.repeat(column - 1)}^`;
  return { message, pos, line, column, excerpt };
}

/**
 * First offset of top-level text the parser did not account for: between and after
 * statements only blanks, `;`, `&`, newlines, comments and heredoc bodies may stand.
 */
function droppedText(source: string, script: ParsedScript): number | undefined {
  const covered: Array<[number, number]> = script.commands.map((s) => [s.pos, s.end]);
  // Heredoc bodies follow the line of their command, outside the statement's range.
  const heredocs = /<<-?\s*(['"]?)([A-Za-z_0-9]+)\1/g;
  let m: RegExpExecArray | null;
  while ((m = heredocs.exec(source))) {
    const bodyStart = source.indexOf('\n', m.index);
    if (bodyStart < 0) continue;
    const close = new RegExp(`^\\t*${m[2]}$`, 'm');
    const rest = source.slice(bodyStart + 1);
    const c = close.exec(rest);
    covered.push([bodyStart, c ? bodyStart + 1 + c.index + c[0].length : source.length]);
  }
  covered.sort((a, b) => a[0] - b[0]);
  let at = 0;
  const gapOk = (from: number, to: number): number | undefined => {
    let i = from;
    while (i < to) {
      const ch = source[i];
      if (ch === '#') {
        const nl = source.indexOf('\n', i);
        i = nl < 0 || nl > to ? to : nl;
        continue;
      }
      if (!/[\s;&]/.test(ch)) return i;
      i++;
    }
    return undefined;
  };
  for (const [s, e] of covered) {
    if (s > at) {
      const bad = gapOk(at, s);
      if (bad !== undefined) return bad;
    }
    at = Math.max(at, e);
  }
  return gapOk(at, source.length);
}

/** Quote-removed value of a word, or undefined when it has expansions (not known before running). */
function literalValue(word: Word): string | undefined {
  if (!word.parts) return word.value;
  for (const p of word.parts) if (!isLiteralPart(p)) return undefined;
  return word.value;
}

/** A loop's word as written: a literal, or a path's glob (`for f in tokens.d/*`: a reader of the files it names knows them by it). */
function loopWordValue(word: Word): string | undefined {
  return word.parts?.every((p) => isLiteralPart(p) || p.type === 'Glob') ? word.value : literalValue(word);
}

function isLiteralPart(p: WordPart): boolean {
  switch (p.type) {
    case 'Literal':
    case 'SingleQuoted':
    case 'AnsiCQuoted':
      return true;
    case 'DoubleQuoted':
      return p.parts.every((c) => c.type === 'Literal');
    default:
      return false;
  }
}

class Walker {
  readonly commands: SimpleCommand[] = [];
  readonly functions: FunctionDef[] = [];
  readonly loops: { variable: string; words: string[] }[] = [];
  error: ParseFailure | undefined;
  /** Seen a subshell, group, loop, conditional, list or pipeline. */
  structured = false;
  private pipelines = 0;

  constructor(private readonly source: string) {}

  script(script: ParsedScript, context: CommandContext): void {
    if (script.errors?.length && !this.error) {
      const e = script.errors[0];
      // Nested scripts (substitutions) may index a decoded copy of the source; clamp.
      this.error = failure(this.source, e.message, Math.min(e.pos, this.source.length));
    }
    for (const st of script.commands) this.statement(st, context);
  }

  private statement(st: Statement, context: CommandContext): void {
    if (st.background) this.structured = true;
    this.andOr(st.command, context);
  }

  private andOr(node: PipelineNode | AndOr, context: CommandContext): void {
    if (node.type === 'AndOr') {
      this.structured = true;
      for (const c of node.commands) this.pipeline(c, context);
    } else this.pipeline(node, context);
  }

  private pipeline(node: PipelineNode, context: CommandContext): void {
    const index = this.pipelines++;
    if (node.type === 'Pipeline') {
      if (node.commands.length > 1) this.structured = true;
      node.commands.forEach((c, position) => this.command(c, context, { index, position, length: node.commands.length }));
    } else this.command(node, context, { index, position: 0, length: 1 });
  }

  private list(list: CompoundList, context: CommandContext): void {
    this.structured = true;
    for (const st of list.commands) this.statement(st, context);
  }

  private command(node: PipelineNode, context: CommandContext, pipeline: SimpleCommand['pipeline']): void {
    switch (node.type) {
      case 'Command':
        this.simple(node, context, pipeline);
        return;
      case 'Pipeline':
        this.pipeline(node, context);
        return;
      case 'Subshell':
      case 'BraceGroup':
        this.list(node.body, context);
        return;
      case 'If':
        this.list(node.clause, context);
        this.list(node.then, context);
        for (const e of node.elif) {
          this.list(e.clause, context);
          this.list(e.then, context);
        }
        if (node.else) this.list(node.else, context);
        return;
      case 'For':
      case 'Select':
        for (const w of node.wordlist ?? []) this.substitutions(w);
        this.loops.push({ variable: node.name.text, words: (node.wordlist ?? []).flatMap((w) => loopWordValue(w) ?? []) });
        this.list(node.body, context);
        return;
      case 'ArithmeticFor':
        this.list(node.body, context);
        return;
      case 'While':
        this.list(node.clause, context);
        this.list(node.body, context);
        return;
      case 'Case':
        this.substitutions(node.word);
        for (const item of node.items) this.list(item.body, context);
        return;
      case 'Redirected':
        this.command(node.command, context, pipeline);
        return;
      case 'Function': {
        this.structured = true;
        const before = this.commands.length;
        const body = node.body;
        if (body.type === 'CompoundList') this.list(body, 'function');
        else this.command(body, 'function', pipeline);
        const inner = this.commands.slice(before);
        const name = node.name.value;
        this.functions.push({
          name,
          calls: inner.map((c) => c.argv[0] ?? ''),
          selfSpawning: inner.some((c) => c.argv[0] === name && (c.pipeline.length > 1 || this.source.slice(c.end, node.end).trimStart().startsWith('&'))),
        });
        return;
      }
      case 'Coproc':
        this.structured = true;
        if (node.body.type === 'CompoundList') this.list(node.body, context);
        else this.command(node.body, context, pipeline);
        return;
      default:
        // [[ … ]] and (( … )): tests and arithmetic, no program runs.
        this.structured = true;
        return;
    }
  }

  private simple(node: Command, context: CommandContext, pipeline: SimpleCommand['pipeline']): void {
    const words: WordInfo[] = [];
    const assignments: string[] = [];
    const redirects: RedirectInfo[] = [];
    for (const p of node.prefix) {
      if (p.type === 'Assignment') {
        assignments.push(p.text);
        if (p.value.type === 'Word') this.substitutions(p.value);
      } else redirects.push(this.redirect(p));
    }
    if (node.name) words.push(this.word(node.name));
    for (const s of node.suffix) {
      if (s.type === 'Word') words.push(this.word(s));
      else if (s.type === 'Assignment') {
        // `local x=1`, `export A=b`: an argument of the builtin.
        words.push({ text: s.text, value: s.text, literal: false, pos: s.pos, end: s.end });
        if (s.value.type === 'Word') this.substitutions(s.value);
      } else redirects.push(this.redirect(s));
    }
    const values = words.map((w) => w.value);
    const un = unwrap(values);
    const stdinRedirected = pipeline.position > 0 || redirects.some((r) => r.op === '<' || r.op === '<<' || r.op === '<<-' || r.op === '<<<' || r.op === '<>');
    const stdoutRedirected =
      pipeline.position < pipeline.length - 1 || redirects.some((r) => (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>' || r.op === '&>>') && (r.fd === undefined || r.fd === 1));
    this.commands.push({
      text: this.source.slice(node.pos, node.end),
      pos: node.pos,
      end: node.end,
      words,
      argv: un.argv,
      argvStart: un.start,
      wrappers: un.wrappers,
      assignments,
      redirects,
      pipeline,
      context,
      stdinRedirected,
      stdoutRedirected,
    });
  }

  private word(w: Word): WordInfo {
    this.substitutions(w);
    const lit = literalValue(w);
    return { text: w.text, value: lit ?? w.value, literal: lit !== undefined, pos: w.pos, end: w.end };
  }

  private redirect(r: Redirection): RedirectInfo {
    const fd = r.descriptor?.type === 'FileDescriptor' ? r.descriptor.value : undefined;
    if (r.type === 'HereDoc') return { op: r.operator, fd, target: r.body.text };
    if (r.target) this.substitutions(r.target);
    return { op: r.operator, fd, target: r.target?.value };
  }

  /** Commands inside `$(…)`, backticks and `<(…)` run too: they count for danger checks. */
  private substitutions(w: Word): void {
    if (!w.parts) return;
    const visit = (parts: readonly WordPart[]): void => {
      for (const p of parts) {
        if ((p.type === 'CommandExpansion' || p.type === 'ProcessSubstitution') && p.script) {
          this.structured = true;
          this.script(p.script, 'substitution');
        } else if (p.type === 'DoubleQuoted' || p.type === 'LocaleString') visit(p.parts);
      }
    };
    visit(w.parts);
  }
}
