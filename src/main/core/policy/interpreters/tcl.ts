/**
 * Tcl (tclsh, wish, jimsh) and Expect scripts: the programs they run. Tcl's syntax is twelve
 * rules (words, `{…}` without substitution, `"…"` and bare words with `$var` / `[cmd]` / `\`
 * substitution, `;` and newlines between commands, `#` comments), so a small reader follows it
 * exactly; no maintained Tcl parser is on the npm registry. What it reports:
 *  - `exec PROG ARGS… [| PROG2 …]` and Expect's `spawn PROG ARGS…`: argvs (a pipeline: one each);
 *  - Expect's `system LINE` and the text `send` types into a spawned program: shell lines;
 *  - `open "|PROG ARGS"`: an argv;
 *  - script in braces or brackets (`proc`/`if`/`foreach` bodies, `[exec …]`, `eval {…}`) is read too;
 *  - a command named by a substitution (`$cmd …`, `[set x] …`) or code built at run time
 *    (`eval $s`, `uplevel $s`, `subst`, `source`, `load`, `interp`): `unknown` (ask).
 * A word whose value comes from a substitution is UNKNOWN_WORD in the argv (an unknown target).
 */
import { UNKNOWN_WORD, type CodeAnalysis } from './calls.js';

interface TclWord {
  text: string;
  /** No `$` / `[` substitution: the text is exact. */
  literal: boolean;
  braced: boolean;
}

/** Nesting of braces / brackets followed before the script is called unknown (a real one-liner has a few). */
const MAX_TCL_DEPTH = 16;

const SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v' };

/** Splits a script into commands of words; `[…]` scripts and braced bodies found are returned as `inner`. */
function parseScript(code: string): { commands: TclWord[][]; inner: string[] } {
  const commands: TclWord[][] = [];
  const inner: string[] = [];
  let i = 0;
  const n = code.length;
  let cmd: TclWord[] = [];
  const endCommand = () => {
    if (cmd.length) commands.push(cmd);
    cmd = [];
  };
  while (i < n) {
    const ch = code[i];
    if (ch === '\\' && code[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
      continue;
    }
    if (ch === '\n' || ch === ';') {
      endCommand();
      i++;
      continue;
    }
    if (ch === '#' && cmd.length === 0) {
      while (i < n && code[i] !== '\n') i += code[i] === '\\' ? 2 : 1;
      continue;
    }
    if (ch === '{') {
      // `{*}` expands a list into words: what it expands is not known here.
      let depth = 0;
      let j = i;
      for (; j < n; j++) {
        if (code[j] === '\\') {
          j++;
          continue;
        }
        if (code[j] === '{') depth++;
        else if (code[j] === '}' && --depth === 0) break;
      }
      const body = code.slice(i + 1, j);
      i = j + 1;
      if (body === '*' && i < n && !/\s/.test(code[i])) {
        const w = readWord(code, i, inner);
        i = w.end;
        cmd.push({ text: w.word.text, literal: false, braced: false });
        continue;
      }
      inner.push(body);
      cmd.push({ text: body, literal: true, braced: true });
      continue;
    }
    const w = readWord(code, i, inner);
    i = w.end;
    cmd.push(w.word);
  }
  endCommand();
  return { commands, inner };
}

/** A quoted or bare word from `at`: its text with escapes decoded, `[…]` scripts collected. */
function readWord(code: string, at: number, inner: string[]): { word: TclWord; end: number } {
  const quoted = code[at] === '"';
  let i = quoted ? at + 1 : at;
  let text = '';
  let literal = true;
  while (i < code.length) {
    const ch = code[i];
    if (quoted ? ch === '"' : /[\s;]/.test(ch)) break;
    if (ch === '\\') {
      const nx = code[i + 1] ?? '';
      if (/[0-7]/.test(nx)) {
        const m = /^[0-7]{1,3}/.exec(code.slice(i + 1))!;
        text += String.fromCharCode(parseInt(m[0], 8));
        i += 1 + m[0].length;
      } else if (nx === 'x' || nx === 'u' || nx === 'U') {
        const m = new RegExp(`^[0-9a-fA-F]{1,${nx === 'x' ? 2 : nx === 'u' ? 4 : 8}}`).exec(code.slice(i + 2));
        if (m) {
          text += String.fromCodePoint(Math.min(parseInt(m[0], 16), 0x10ffff));
          i += 2 + m[0].length;
        } else {
          text += nx;
          i += 2;
        }
      } else {
        text += SIMPLE[nx] ?? nx;
        i += 2;
      }
      continue;
    }
    if (ch === '[') {
      let depth = 0;
      let j = i;
      for (; j < code.length; j++) {
        if (code[j] === '\\') {
          j++;
          continue;
        }
        if (code[j] === '[') depth++;
        else if (code[j] === ']' && --depth === 0) break;
      }
      inner.push(code.slice(i + 1, j));
      text += code.slice(i, j + 1);
      literal = false;
      i = j + 1;
      continue;
    }
    if (ch === '$' && /[\w:{(]/.test(code[i + 1] ?? '')) literal = false;
    text += ch;
    i++;
  }
  return { word: { text, literal, braced: false }, end: quoted ? i + 1 : i };
}

/** Expect's spawn options that take a value. */
const SPAWN_VALUED = new Set(['-open', '-leaveopen', '-ignore']);
/** Commands that run a script given as their arguments (read when it is literal, else unknown). */
const SCRIPT_RUNNERS = new Set(['eval', 'uplevel', 'namespace', 'after', 'interp', 'apply', 'time', 'catch', 'try', 'subst']);

export function analyzeTcl(code: string): CodeAnalysis {
  const shell: string[] = [];
  const argv: string[][] = [];
  const notes: string[] = [];
  let unknown = false;
  let spawned = false;
  const word = (w: TclWord) => (w.literal ? w.text : UNKNOWN_WORD);
  const read = (src: string, depth: number): void => {
    if (depth > MAX_TCL_DEPTH) {
      unknown = true;
      notes.push('the Tcl code nests too deeply to read');
      return;
    }
    const { commands, inner } = parseScript(src);
    for (const c of commands) {
      const head = c[0];
      if (!head.literal) {
        unknown = true;
        notes.push(`a Tcl command named by a substitution: ${head.text}`);
        continue;
      }
      const name = head.text.replace(/^::/, '');
      const args = c.slice(1);
      if (name === 'exec') {
        let k = 0;
        while (k < args.length && args[k].literal && args[k].text.startsWith('-')) if (args[k++].text === '--') break;
        let cur: string[] = [];
        for (; k < args.length; k++) {
          const t = args[k].text;
          if (args[k].literal && /^\|&?$/.test(t)) {
            if (cur.length) argv.push(cur);
            cur = [];
          } else if (args[k].literal && /^(?:>|>>|2>|2>>|>&|>>&)$/.test(t)) {
            // Output to a file: judged as the equivalent `tee FILE` (the path rules see the write).
            if (args[k + 1]) argv.push(['tee', word(args[k + 1])]);
            k++;
          } else if (args[k].literal && /^(?:<|<<|<@|>@|2>@|2>@1)$/.test(t)) k++; // input, or a channel: no file written
          else if (args[k].literal && /^(?:>|>>|2>|2>>|>&|>>&)[^>&@]/.test(t)) argv.push(['tee', t.replace(/^[2>&]+/, '')]);
          else if (args[k].literal && (/^(?:<|<<|<@|>@|2>@)\S/.test(t) || t === '&')) continue;
          else cur.push(word(args[k]));
        }
        if (cur.length) argv.push(cur);
      } else if (name === 'spawn') {
        let k = 0;
        while (k < args.length && args[k].literal && args[k].text.startsWith('-')) k += SPAWN_VALUED.has(args[k].text) ? 2 : 1;
        if (k < args.length) {
          argv.push(args.slice(k).map(word));
          spawned = true;
        }
      } else if (name === 'system') shell.push(args.map(word).join(' '));
      else if (name === 'send' && spawned) {
        // What is typed into a spawned shell / su / ssh is run there.
        const text = args.filter((a) => !(a.literal && a.text.startsWith('-'))).map(word).join(' ');
        for (const line of text.split(/[\r\n]+/)) if (line.trim()) shell.push(line);
      } else if (name === 'open' && args[0] && args[0].text.startsWith('|')) {
        argv.push(args[0].literal ? args[0].text.slice(1).trim().split(/\s+/) : [UNKNOWN_WORD]);
      } else if (SCRIPT_RUNNERS.has(name) || name === 'source' || name === 'load') {
        // Braced literal script is read below (as every braced word is); built at run time it is unknown.
        if (name === 'source' || name === 'load' || args.some((a) => !a.literal)) {
          unknown = true;
          notes.push(`Tcl ${name} of code not known statically`);
        } else if (name !== 'namespace' && name !== 'interp') for (const a of args) if (!a.braced) inner.push(a.text);
      }
    }
    for (const s of inner) read(s, depth + 1);
  };
  read(code, 0);
  return { shell, argv, unknown, reverseShell: false, facts: [], notes };
}
