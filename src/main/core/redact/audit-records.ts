/**
 * auditd's raw records (`ausearch --raw`, /var/log/audit/audit.log). An EXECVE record lists a command's arguments as
 * `a0="mysql" a1="-u" …`, but an argument with a blank, a quote or a control character is written as its bytes in hex
 * (`a3=2D2D70617373776F72643D…`, `--password=…`: adv29 F07); a PROCTITLE record's `proctitle=` is the whole argv in hex,
 * NUL between the arguments. No rule reads a password there: the arguments are decoded and put back together as a
 * shell would show the command line (each argument quoted when it needs it, `--name='value'` for an option with its
 * value), the line is scanned, and what is found is mapped back to the hex digits (or quoted characters) that spell it.
 * Hand-written: the record format is fixed (linux/audit.h's `audit_log_n_untrustedstring`), and no npm package reads it.
 */
import type { SecretFinding } from './finding.js';

/** One raw EXECVE or PROCTITLE record line. */
const RECORD = /^type=(?<type>EXECVE|PROCTITLE) msg=audit\([\d.:]+\):(?<fields>[^\n]*)$/gm;
/** An argument of an EXECVE record: quoted (printable, no quote inside), or hex (upper case, whole bytes). */
const ARG = /[ \t]a(?<n>\d{1,4})(?:\[\d{1,4}\])?=(?:"(?<quoted>[^"\n]*)"|(?<hex>(?:[0-9A-F]{2})+))(?=[ \t]|\r?$)/g;
/** PROCTITLE's argv in hex (the kernel's bytes, NUL between arguments). */
const PROCTITLE = /[ \t]proctitle=(?<hex>(?:[0-9A-F]{2}){2,})(?=[ \t]|\r?$)/;
/** A hex field at all: a record with none has nothing hidden from the other rules. */
const HEX_FIELD = /=(?:[0-9A-F]{2}){4}/;
/** An option with its value in one argument (`--password=x y`): quoted as `--password='x y'`, the value alone in the quotes. */
const OPTION_WITH_VALUE = /^(--?[A-Za-z][\w.-]*=)(.*)$/s;
/** An argument a shell prints without quotes. */
const PLAIN_ARG = /^[\w@%+=:,./-]+$/;

/** One argument's bytes and, for each, where it shows in the text (its first hex digit, or its character). */
interface Arg {
  bytes: number[];
  at: number[];
  /** How many characters of the text show one byte: 2 for hex, 1 for a quoted argument. */
  width: number;
}

/** The secrets in `text`'s raw audit records, each as the range of the hex digits or characters that spell it (the scanner calls it when its pass saw `msg=audit(`). */
export function auditRecordFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  RECORD.lastIndex = 0;
  for (const m of text.matchAll(RECORD)) {
    const fields = m.groups!.fields;
    if (!HEX_FIELD.test(fields)) continue;
    const fieldsAt = m.index + m[0].length - fields.length;
    const args = m.groups!.type === 'EXECVE' ? execveArgs(fields, fieldsAt) : proctitleArgs(fields, fieldsAt);
    if (args.length > 0) scanCommandLine(args, out, scan);
  }
}

function execveArgs(fields: string, fieldsAt: number): Arg[] {
  const args: Arg[] = [];
  ARG.lastIndex = 0;
  for (const a of fields.matchAll(ARG)) {
    const g = a.groups!;
    if (g.hex !== undefined) {
      const at = fieldsAt + a.index + a[0].length - g.hex.length;
      args.push(hexArg(g.hex, at));
    } else {
      const at = fieldsAt + a.index + a[0].length - g.quoted!.length - 1;
      args.push({ bytes: [...g.quoted!].map((c) => c.charCodeAt(0)), at: [...g.quoted!].map((_, i) => at + i), width: 1 });
    }
  }
  return args;
}

function proctitleArgs(fields: string, fieldsAt: number): Arg[] {
  const p = PROCTITLE.exec(fields);
  if (!p) return [];
  const hex = p.groups!.hex;
  const whole = hexArg(hex, fieldsAt + p.index + p[0].length - hex.length);
  const args: Arg[] = [];
  let cur: Arg = { bytes: [], at: [], width: 2 };
  whole.bytes.forEach((b, i) => {
    if (b === 0) {
      args.push(cur);
      cur = { bytes: [], at: [], width: 2 };
    } else {
      cur.bytes.push(b);
      cur.at.push(whole.at[i]);
    }
  });
  args.push(cur);
  return args;
}

function hexArg(hex: string, at: number): Arg {
  const bytes: number[] = [];
  const where: number[] = [];
  for (let i = 0; i < hex.length; i += 2) {
    bytes.push(Number.parseInt(hex.slice(i, i + 2), 16));
    where.push(at + i);
  }
  return { bytes, at: where, width: 2 };
}

/**
 * The arguments as one shell line (`mysql -u root '--password=x y'` → `--password='x y'`), scanned; a finding's characters
 * that came from an argument's bytes are masked where those bytes show (added quotes and blanks map to nothing).
 */
function scanCommandLine(args: Arg[], out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  let line = '';
  const from: number[] = [];
  const fromWidth: number[] = [];
  const fromArg: number[] = [];
  let argNow = -1;
  const put = (s: string, at = -1, width = 0) => {
    line += s;
    for (let i = 0; i < s.length; i++) {
      from.push(at);
      fromWidth.push(width);
      fromArg.push(argNow);
    }
  };
  args.forEach((arg, n) => {
    argNow = -1;
    if (n > 0) put(' ');
    const s = Buffer.from(arg.bytes).toString('latin1');
    const option = OPTION_WITH_VALUE.exec(s);
    const nameLength = option && !PLAIN_ARG.test(option[2]) ? option[1].length : 0;
    for (let i = 0; i < nameLength; i++) put(s[i], arg.at[i], arg.width);
    argNow = n;
    const rest = s.slice(nameLength);
    const quote = PLAIN_ARG.test(rest) ? '' : rest.includes("'") ? '"' : "'";
    put(quote);
    for (let i = nameLength; i < s.length; i++) {
      // Inside double quotes a shell escapes `"`, `\`, `$` and a backquote; the escape maps to nothing.
      if (quote === '"' && '"\\$`'.includes(s[i])) put('\\');
      put(s[i], arg.at[i], arg.width);
    }
    put(quote);
  });
  for (const f of scan(line)) {
    let start = -1;
    let end = -1;
    let last = -1;
    for (let i = f.start; i < f.end; i++) {
      if (from[i] < 0) continue;
      if (start < 0) start = from[i];
      end = from[i] + fromWidth[i];
      last = fromArg[i];
    }
    // A value found inside an argument runs to the argument's end: the rules end a value at a blank or a quote, and an
    // argument the kernel wrote in hex has one (`-pgu'j f…` is one password; `curl -u 'admin:p4ss w0rd'` one credential).
    if (last >= 0 && args[last].width === 2) end = args[last].at[args[last].at.length - 1] + 2;
    if (start >= 0 && end > start) out.push({ start, end, kind: f.kind });
  }
}
