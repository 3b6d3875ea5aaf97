/**
 * An interpreter's command line (`python3 -c CODE`, `perl -ne CODE`, `node -e`, awk programs,
 * code on stdin): where its code comes from, and the shell lines / argvs the code runs
 * (interpreters.ts reads the code).
 */
import { analyzeCode, UNKNOWN_WORD, type Language } from './interpreters.js';
import { literalWords, type Base, type Ctx, type ResolvedCommand, type Walker, type Words } from './resolved.js';
import { substituted, unknownFeed } from './feeds.js';

export function interpreterCommand(r: Walker, w: Words, base: Base, ctx: Ctx, lang: Language): ResolvedCommand[] {
  const a = w.argv;
  const self = r.make(w, base, ctx);
  const codes: string[] = [];
  let module = false;
  let script = false;
  let dynamic = false;
  const name = self.name;
  const codeFlags: Record<Language, string[]> = {
    python: ['-c'],
    perl: ['-e', '-E'],
    ruby: ['-e'],
    node: ['-e', '--eval', '-p', '--print'],
    php: ['-r'],
    lua: ['-e'],
    awk: [],
    r: ['-e'],
    applescript: ['-e'],
    // expect -c CMD; tclsh / wish take a script file or stdin.
    tcl: ['-c'],
    // guile -c, racket -e, csi -e, gosh -e; julia -e / -E.
    scheme: ['-c', '-e', '--eval'],
    julia: ['-e', '-E', '--eval', '--print'],
  };
  if (lang === 'awk') {
    let j = 1;
    for (; j < a.length; j++) {
      const x = a[j];
      if (x === '--') {
        j++;
        break;
      }
      if (x === '-f' || x === '--file') {
        script = true;
        j++;
        continue;
      }
      if (x === '-F' || x === '-v' || x === '--assign' || x === '--field-separator') {
        j++;
        continue;
      }
      if (x.startsWith('-') && x.length > 1) continue;
      break;
    }
    if (!script && j < a.length) {
      codes.push(a[j]);
      if (!w.literal[j]) dynamic = true;
    }
  } else if (name === 'deno') {
    const k = a.indexOf('eval');
    if (k > 0 && a[k + 1] !== undefined) codes.push(a[k + 1]);
    else script = true;
  } else {
    const flags = codeFlags[lang];
    for (let j = 1; j < a.length; j++) {
      const x = a[j];
      if (x === '--') break;
      const glued = flags.find((f) => f.length === 2 && x.startsWith(f) && x.length > 2 && lang !== 'perl');
      // perl/python clusters ending in the code flag: `-pe`, `-lne`, `-Sc`.
      const clusterEnd = /^-[A-Za-z0-9.]*[A-Za-z]$/.test(x) && !x.startsWith('--') && flags.some((f) => f.length === 2 && x.endsWith(f[1]) && x.length > 2 && (lang === 'perl' || lang === 'python' || lang === 'ruby'));
      if (flags.includes(x) || clusterEnd) {
        if (a[j + 1] !== undefined) {
          codes.push(a[j + 1]);
          if (!w.literal[j + 1]) dynamic = true;
        }
        j++;
        continue;
      }
      if (glued) {
        codes.push(x.slice(2));
        continue;
      }
      if (lang === 'python' && (x === '-m' || (x.startsWith('-') && !x.startsWith('--') && x.endsWith('m')))) {
        module = true;
        break;
      }
      if (lang === 'python' && (x === '-W' || x === '-X')) {
        j++;
        continue;
      }
      if (x === '-') break;
      if (x.startsWith('-')) continue;
      if (codes.length === 0) {
        script = true;
        // `python3 <(curl …)`: the program is another command's output.
        if (substituted(w.raw[j])) self.facts.add(/\b(?:curl|wget|fetch)\b/.test(w.raw[j]) ? 'download-to-shell' : 'interpreter-stdin-unknown');
      }
      break;
    }
  }
  const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${name} code`], outerText: base.text, pipeIn: undefined };
  const out: ResolvedCommand[] = [self];
  if (codes.length === 0 && !module && !script && lang !== 'awk' && name !== 'deno') {
    // The program comes from stdin.
    self.readsProgramFromStdin = true;
    const text = base.stdinText ?? ctx.pipeIn?.text;
    if (text !== undefined) codes.push(text);
    else if (base.stdinOpaque === 'substitution') self.facts.add('interpreter-stdin-unknown');
    else if (ctx.pipeIn) {
      const f = unknownFeed(ctx.pipeIn);
      if (f !== 'none') self.facts.add(f === 'shell-stdin-unknown' ? 'interpreter-stdin-unknown' : f);
    }
  }
  if (dynamic) self.facts.add('interpreter-code-unknown');
  for (const code of codes) {
    const found = analyzeCode(lang, code);
    if (found.reverseShell) self.facts.add('reverse-shell');
    if (found.unknown) self.facts.add('interpreter-code-unknown');
    for (const fact of found.facts) self.facts.add(fact);
    for (const line of found.shell) out.push(...r.parseAndWalk(line, deeper));
    // A value the reader could not know is not literal: at a destructive position it is an unknown target (ask).
    for (const argv of found.argv) out.push(...r.expand({ ...literalWords(argv), literal: argv.map((a) => !a.includes(UNKNOWN_WORD)) }, { text: base.text, redirects: [] }, deeper));
  }
  return out;
}
