/**
 * What bash's `printf` and `echo` builtins print, for the values a line builds from them
 * (`$(printf '\162\155')`, `printf -v c '\x72\x6d'`, `echo -e '\x72\x6d' | sh`). Decoded as bash
 * does: backslash escapes in the format (`\NNN`, `\xHH`, `\uHHHH`, `\UHHHHHHHH`, `\a`…`\v`),
 * `%b` arguments (echo -e escapes, `\0NNN` too), conversions with flags, width and precision,
 * and the format reused while arguments remain. Anything it does not model (`%(…)T`, `%f`, a
 * non-numeric `%d` argument, `%q` of a word that needs quoting) is `undefined`: the caller then
 * treats the value as unknown, which is asked about where it matters — never a guessed string.
 *
 * Hand-written: no npm package reproduces bash's printf (the sprintf ports follow C or
 * JavaScript semantics: no `%b`, no `\NNN` in the format, no format reuse).
 */

/** Longest output produced (characters): past it the value is unknown (values.ts caps values alike). */
export const MAX_PRINTF_CHARS = 4096;

const SIMPLE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'", '?': '?' };

/**
 * Decodes backslash escapes. `echo` mode (echo -e, printf %b): `\0NNN` is octal and `\c` stops all
 * output; format mode: `\NNN`. Both decode `\NNN` here too: decoding what bash would print
 * literally only ever adds a look-alike candidate, never hides one.
 */
function unescape(s: string, mode: 'format' | 'echo'): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch !== '\\' || i + 1 >= s.length) {
      out += ch;
      continue;
    }
    const n = s[i + 1];
    if (SIMPLE_ESCAPES[n] !== undefined) {
      out += SIMPLE_ESCAPES[n];
      i++;
    } else if (n === 'c' && mode === 'echo') return { text: out, stop: true };
    else if (/[0-7]/.test(n)) {
      // `\0NNN` (echo) takes up to three digits after the 0; `\NNN` up to three in all.
      const m = (mode === 'echo' && n === '0' ? /^0([0-7]{0,3})/ : /^([0-7]{1,3})/).exec(s.slice(i + 1))!;
      out += String.fromCharCode(parseInt(m[1] || '0', 8) & 0xff);
      i += m[0].length;
    } else if (n === 'x' && /[0-9a-fA-F]/.test(s[i + 2] ?? '')) {
      const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 2))!;
      out += String.fromCharCode(parseInt(m[0], 16));
      i += 1 + m[0].length;
    } else if ((n === 'u' || n === 'U') && /[0-9a-fA-F]/.test(s[i + 2] ?? '')) {
      const m = new RegExp(`^[0-9a-fA-F]{1,${n === 'u' ? 4 : 8}}`).exec(s.slice(i + 2))!;
      const cp = parseInt(m[0], 16);
      out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
      i += 1 + m[0].length;
    } else out += ch; // an unknown escape prints as written
  }
  return { text: out, stop: false };
}

/** A numeric argument as bash reads it (`42`, `0x2a`, `052`, `'c` = the character's code); undefined when it is not one. */
function numberArg(a: string | undefined): number | undefined {
  if (a === undefined || a === '') return 0;
  if (/^['"]/.test(a)) return a.length > 1 ? a.codePointAt(1) : 0;
  const t = a.trim();
  if (/^[-+]?0[xX][0-9a-fA-F]+$/.test(t)) return parseInt(t, 16);
  if (/^[-+]?0[0-7]+$/.test(t)) return parseInt(t, 8);
  if (/^[-+]?\d+$/.test(t)) return parseInt(t, 10);
  return undefined;
}

function pad(s: string, flags: string, width: number | undefined): string {
  if (width === undefined || s.length >= width) return s;
  if (flags.includes('-')) return s + ' '.repeat(width - s.length);
  if (flags.includes('0') && /^[-+]?[0-9a-fA-F]+$/.test(s)) {
    const sign = /^[-+]/.test(s) ? s[0] : '';
    return sign + '0'.repeat(width - s.length) + s.slice(sign.length);
  }
  return ' '.repeat(width - s.length) + s;
}

/** What `printf FORMAT ARGS…` prints; undefined when a part is not modelled. */
export function bashPrintf(args: readonly string[]): string | undefined {
  const a = args[0] === '--' ? args.slice(1) : args;
  if (a.length === 0) return undefined;
  const fmt = a[0];
  const vals = a.slice(1);
  let next = 0;
  let out = '';
  for (let round = 0; ; round++) {
    let consumed = false;
    for (let i = 0; i < fmt.length; i++) {
      const ch = fmt[i];
      if (ch === '\\') {
        // One escape at a time: `\c` in the format is printed as written by bash's printf.
        const m = /^\\(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|.)?/s.exec(fmt.slice(i))!;
        out += unescape(m[0], 'format').text;
        i += m[0].length - 1;
        continue;
      }
      if (ch !== '%') {
        out += ch;
        continue;
      }
      const spec = /^%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?([a-zA-Z%(])/.exec(fmt.slice(i));
      if (!spec) return undefined;
      i += spec[0].length - 1;
      const [, flags, w, p, conv] = spec;
      if (conv === '%') {
        out += '%';
        continue;
      }
      let width: number | undefined;
      let precision: number | undefined;
      if (w === '*') {
        width = numberArg(vals[next++]);
        consumed = true;
        if (width === undefined) return undefined;
      } else if (w !== undefined) width = Number(w);
      if (p === '*') {
        precision = numberArg(vals[next++]);
        consumed = true;
        if (precision === undefined) return undefined;
      } else if (p !== undefined) precision = Number(p || '0');
      // A width past the cap would build a string of that size first (%400000000s): unknown, asked about.
      if (width !== undefined && !(Math.abs(width) <= MAX_PRINTF_CHARS)) return undefined;
      const arg = vals[next];
      if (next < vals.length) consumed = true;
      next++;
      let s: string;
      switch (conv) {
        case 's':
          s = arg ?? '';
          if (precision !== undefined) s = s.slice(0, precision);
          break;
        case 'b': {
          const r = unescape(arg ?? '', 'echo');
          s = precision !== undefined ? r.text.slice(0, precision) : r.text;
          if (r.stop) return (out + pad(s, flags, width)).slice(0, MAX_PRINTF_CHARS);
          break;
        }
        case 'q':
          // Shell-quoted: the same text for a plain word; anything needing quotes is not modelled.
          if (!/^[\w@%+=:,./-]*$/.test(arg ?? '')) return undefined;
          s = arg === undefined || arg === '' ? "''" : arg;
          break;
        case 'c':
          s = (arg ?? '').slice(0, 1);
          break;
        case 'd':
        case 'i':
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
          const v = numberArg(arg);
          if (v === undefined || !Number.isSafeInteger(v)) return undefined;
          const abs = Math.abs(v);
          const body = conv === 'o' ? abs.toString(8) : conv === 'x' ? abs.toString(16) : conv === 'X' ? abs.toString(16).toUpperCase() : String(abs);
          s = (v < 0 ? '-' : flags.includes('+') ? '+' : '') + body;
          break;
        }
        default:
          return undefined; // %f, %e, %g, %a, %(…)T, …
      }
      out += pad(s, flags, width);
      if (out.length > MAX_PRINTF_CHARS) return undefined;
    }
    // The format is used again while arguments remain (and only if it consumes any).
    if (!consumed || next >= vals.length) break;
    if (round > MAX_PRINTF_CHARS) return undefined;
  }
  return out;
}

/**
 * What `echo ARGS…` prints (without the final newline); undefined when it depends on the shell:
 * with a backslash and neither -e nor -E, bash prints it as written and dash / sh decode it.
 */
export function echoOutput(args: readonly string[]): { text: string; newline: boolean } | undefined {
  let rest = args.slice();
  let esc: boolean | undefined;
  let newline = true;
  while (rest.length && /^-[neE]+$/.test(rest[0])) {
    for (const f of rest[0].slice(1)) {
      if (f === 'n') newline = false;
      else esc = f === 'e';
    }
    rest = rest.slice(1);
  }
  const s = rest.join(' ');
  if (!s.includes('\\') || esc === false) return { text: s, newline };
  if (esc === undefined) return undefined;
  const r = unescape(s, 'echo');
  return { text: r.text, newline: newline && !r.stop };
}
