/**
 * Interpreter one-liners (`python3 -c`, `node -e`, `ruby -e`, `perl -e`, `php -r`, awk programs,
 * code fed on stdin or in a heredoc): which reader reads which language. JavaScript is parsed
 * with acorn, Python and Ruby with tree-sitter's grammars (interpreters/tree-sitter-host.ts), and
 * the calls they make are judged in the policy's terms (interpreters/calls.ts): shell lines and
 * argvs they run, files they delete / move / write, network use with the environment or a
 * credential file, code they run that cannot be read. Perl and the rarer languages are scanned
 * (interpreters/perl.ts: no maintained parser is on the registry). Code that does not parse is
 * never allowed (fact interpreter-code-unparsed → ask).
 */
import { analyzeJavaScript } from './interpreters/javascript.js';
import { MAX_CODE_CHARS, scanCode } from './interpreters/perl.js';
import { analyzePython } from './interpreters/python.js';
import { analyzeRuby } from './interpreters/ruby.js';
import { analyzeTcl } from './interpreters/tcl.js';
import { Findings, type CodeAnalysis } from './interpreters/calls.js';

export type { CodeAnalysis } from './interpreters/calls.js';
export { UNKNOWN_WORD } from './interpreters/calls.js';
export { MAX_CODE_CHARS } from './interpreters/perl.js';

export type Language = 'python' | 'perl' | 'ruby' | 'node' | 'php' | 'lua' | 'awk' | 'r' | 'applescript' | 'tcl' | 'scheme' | 'julia';

/** Interpreters whose code is read for shell escapes (os.system, child_process, system(), backticks). */
export const INTERPRETERS: Record<string, Language> = {
  python: 'python', python2: 'python', python3: 'python', pypy: 'python', pypy3: 'python',
  perl: 'perl', ruby: 'ruby', node: 'node', nodejs: 'node', bun: 'node', deno: 'node', php: 'php', lua: 'lua', luajit: 'lua',
  awk: 'awk', gawk: 'awk', mawk: 'awk', nawk: 'awk', R: 'r', Rscript: 'r', osascript: 'applescript',
  guile: 'scheme', racket: 'scheme', csi: 'scheme', gosh: 'scheme', chez: 'scheme', scheme: 'scheme', julia: 'julia',
  tclsh: 'tcl', 'tclsh8.6': 'tcl', 'tclsh8.7': 'tcl', 'tclsh9.0': 'tcl', wish: 'tcl', 'wish8.6': 'tcl', jimsh: 'tcl', expect: 'tcl',
};

/** What the code does, in the policy's terms. Synchronous; never throws; bounded by MAX_CODE_CHARS. */
export function analyzeCode(lang: Language, code: string): CodeAnalysis {
  if (code.length > MAX_CODE_CHARS) {
    const f = new Findings();
    f.dynamic(`the code is longer than ${MAX_CODE_CHARS} characters: too long to read in the time a decision has`);
    return f.done();
  }
  try {
    if (lang === 'node') return analyzeJavaScript(code);
    if (lang === 'python') return analyzePython(code);
    if (lang === 'ruby') return analyzeRuby(code);
    if (lang === 'tcl') return analyzeTcl(code);
    return scanCode(lang, code);
  } catch (e) {
    const f = new Findings();
    f.unparsed(`the ${lang} reader failed (${(e as Error).message})`);
    return f.done();
  }
}
