/**
 * Perl one-liners (`perl -e` / `-ne` / `-pe`), and php -r, lua -e, awk programs, Rscript -e and
 * osascript -e, read by a linear scanner rather than a parser: no maintained Perl grammar is on
 * the npm registry (neither a tree-sitter-perl package with a .wasm build nor a JS parser; Perl
 * itself cannot be parsed statically in general), and the others are rarer one-liners. The
 * scanner finds the command strings passed to system / exec / backticks / qx / popen and the like,
 * argv lists, and unlink / remove_tree / rmtree calls; code that can run something it could not
 * read is `unknown` (ask); a socket joined to a process is a reverse shell. Every scan is linear
 * in the code's length (an earlier regex backtracked exponentially on an unclosed list).
 */
import type { CodeAnalysis } from './calls.js';

export type ScannedLanguage = 'perl' | 'php' | 'lua' | 'awk' | 'r' | 'applescript' | 'python' | 'ruby' | 'node' | 'scheme' | 'julia';

/** A quoted string literal of these languages (single, double, or backtick-free). */
const STR = String.raw`(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`;

/** Calls that hand a string to a shell. */
const SHELL_CALL = new RegExp(
  String.raw`(?:\bos\.system|\bos\.popen|\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|\bcommands\.getoutput|\bpty\.spawn|\bsystem|\bexec(?:Sync)?|\bspawn(?:Sync)?|\bexecFile(?:Sync)?|\bshell_exec|\bpassthru|\bpopen|\bproc_open|\bIO\.popen|\bOpen3\.\w+|\bio\.popen|\bos\.execute|\bPopen|\bcheck_output|\bcheck_call|\bgetoutput|\bdo shell script)\s*(?:\(\s*)?(?:\[\s*)?` +
    STR,
  'g',
);

/** Any call able to run a program, read or not. */
const EXEC_TOKEN = /(?<![.\w/])(?:system|exec)(?=\s*[({'"`$@\w])|\b(?:os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|subprocess|pty\.spawn|child_process|execSync|spawnSync|execFile|popen|proc_open|shell_exec|passthru|IO\.popen|Open3|os\.execute|io\.popen|Kernel\.\w+|eval|__import__|importlib|compile|Function|getattr|ctypes|do shell script)\b|`|\bqx\s*[({[/|!]|%x[({[]|\|\s*getline|print\s*\|/;

/**
 * The opening of an argv list call: `subprocess.run([`, `spawn('x', [`. The list itself is read
 * by readStringList (a linear scan): the regex it replaces, `\[(?:STR\s*,?\s*)+\]`, backtracked
 * exponentially on an unclosed list (`["a" "a" "a" …`: 16 items took 14 s).
 */
const ARGV_LIST_OPEN = new RegExp(String.raw`(?:\bsubprocess\.(?:run|call|check_call|check_output|Popen)|\bPopen|\bspawn(?:Sync)?|\bexecFile(?:Sync)?|\bos\.exec\w*|\bsystem|\bexec)\s*\(\s*(?:${STR}\s*,\s*)?\[`, 'g');

/** Longest interpreter code analysed (chars): past it the code is `unknown` (ask); real one-liners are far shorter, and it bounds every scan. */
export const MAX_CODE_CHARS = 8192;

/** String literals from `at` (just after `[`) up to the closing `]`, or undefined when something else is in the list or it never closes. */
function readStringList(code: string, at: number): { items: string[]; end: number } | undefined {
  const items: string[] = [];
  const ws = /\s/;
  let i = at;
  for (;;) {
    while (i < code.length && (ws.test(code[i]) || code[i] === ',')) i++;
    if (i >= code.length) return undefined;
    const q = code[i];
    if (q === ']') return items.length ? { items, end: i + 1 } : undefined;
    if (q !== '"' && q !== "'") return undefined;
    let j = i + 1;
    let body = '';
    for (; j < code.length && code[j] !== q; j++) {
      if (code[j] === '\\' && j + 1 < code.length) {
        body += code[j] + code[j + 1];
        j++;
      } else body += code[j];
    }
    if (j >= code.length) return undefined;
    items.push(unescape(body));
    i = j + 1;
  }
}

/** Deletions, as rm argvs. */
const DELETE_CALL = new RegExp(
  String.raw`\b(shutil\.rmtree|rmtree|remove_tree|rm_rf|rm_r|FileUtils\.rm_rf|FileUtils\.rm_r|FileUtils\.remove_dir|fs\.rmSync|fs\.rmdirSync|fs\.rm|fs\.promises\.rm|rimraf(?:\.sync)?|rmSync|os\.remove|os\.unlink|os\.rmdir|unlink|File\.delete|FileUtils\.rm|Path\(\s*${STR}\s*\)\.unlink)\s*(?:\(\s*)?` + STR,
  'g',
);

const SOCKET = /\b(?:socket\.socket|socket\.create_connection|IO::Socket|TCPSocket|Socket\.new|fsockopen|net\.connect|net\.Socket|new\s+net\.|socket\(|\/dev\/tcp\/)/;
const PROCESS = /\b(?:subprocess|pty\.spawn|os\.dup2|child_process|exec|system|spawn|popen|proc_open|\/bin\/(?:ba)?sh|cmd\.exe)\b/;

function unescape(s: string): string {
  return s.replace(/\\(["'\\])/g, '$1').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
}

/** Home spellings inside code, folded to `~` so the path rules see them. */
function homeFold(p: string): string {
  return p.replace(/^(?:os\.path\.expanduser\(\s*)?~/, '~');
}

export function scanCode(lang: ScannedLanguage, code: string): CodeAnalysis {
  const shell: string[] = [];
  const argv: string[][] = [];
  let found = 0;
  let m: RegExpExecArray | null;
  // Too long to read in the time a decision has: it could run anything.
  if (code.length > MAX_CODE_CHARS) return { shell, argv, unknown: true, reverseShell: false, facts: [], notes: ['the code is too long to read'] };

  ARGV_LIST_OPEN.lastIndex = 0;
  const listSpans: Array<[number, number]> = [];
  while ((m = ARGV_LIST_OPEN.exec(code))) {
    const list = readStringList(code, m.index + m[0].length);
    if (list) {
      argv.push(list.items);
      found++;
      listSpans.push([m.index, list.end]);
      ARGV_LIST_OPEN.lastIndex = list.end;
    }
  }
  SHELL_CALL.lastIndex = 0;
  let listUnknown = false;
  while ((m = SHELL_CALL.exec(code))) {
    const at = m.index;
    if (listSpans.some(([s, e]) => at >= s && at < e)) continue;
    const s = unescape(m[1] ?? m[2] ?? '');
    // `system "rm", "-rf", $x` (perl/ruby list form): an argv; any item that is not a literal is unknown.
    const after = code.slice(m.index + m[0].length);
    if (/^\s*,/.test(after)) {
      const stop = after.search(/[;)\n]/);
      const items = (stop < 0 ? after : after.slice(0, stop)).split(',').slice(1).map((x) => x.trim());
      const lits = items.map((x) => /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')$/.exec(x));
      if (lits.every(Boolean)) argv.push([s, ...lits.map((l) => unescape(l![1] ?? l![2] ?? ''))]);
      else listUnknown = true;
      found++;
      continue;
    }
    // 'rm -rf ' + x, "rm %s" % x, "…".format(x): only part of the command is a literal.
    if (!/^\s*(?:[),;\]]|$)/.test(after)) listUnknown = true;
    shell.push(s);
    found++;
  }
  // Backticks and qx// (perl, ruby), %x() (ruby): shell strings.
  if (lang === 'julia') {
    // run(`…`), read(`…`, String): a command literal, split into words like a shell line.
    for (const re = /`([^`]*)`/g; (m = re.exec(code)); ) {
      shell.push(m[1]);
      found++;
    }
  }
  if (lang === 'perl' || lang === 'ruby') {
    for (const re of [/`([^`]*)`/g, /\bqx\s*\(([^)]*)\)/g, /\bqx\s*\{([^}]*)\}/g, /\bqx\s*\/([^/]*)\//g, /%x\(([^)]*)\)/g, /%x\{([^}]*)\}/g]) {
      while ((m = re.exec(code))) {
        shell.push(m[1]);
        found++;
      }
    }
  }
  if (lang === 'awk') {
    // print "cmd" | "sh": the printed text is the shell's input.
    const toShell = /print[f]?\s*(?:\(\s*)?"([^"]*)"[^|]*\|\s*"(?:\/bin\/)?(?:ba|z|da)?sh"/g;
    while ((m = toShell.exec(code))) {
      shell.push(m[1]);
      found++;
    }
    // print … | "cmd", "cmd" | getline
    for (const re of [/\|\s*"([^"]*)"/g, /"([^"]*)"\s*\|\s*getline/g]) {
      while ((m = re.exec(code))) {
        shell.push(m[1]);
        found++;
      }
    }
  }
  // Files opened for writing (perl / php): open(F, ">>", PATH), open(F, ">PATH"), file_put_contents(PATH, …) → tee argvs.
  let unknownWrite = false;
  if (lang === 'perl' || lang === 'php') {
    for (const w of scanWrites(code)) {
      if (w.path === undefined) unknownWrite = true;
      else argv.push(w.append ? ['tee', '-a', w.path] : ['tee', w.path]);
    }
  }
  DELETE_CALL.lastIndex = 0;
  while ((m = DELETE_CALL.exec(code))) {
    const fn = m[1];
    const target = homeFold(unescape(m[m.length - 2] ?? m[m.length - 1] ?? ''));
    // R's unlink(x, recursive = TRUE) is `rm -rf` (the adversary pass: `R -e 'unlink("~", recursive=TRUE)'` was allowed).
    const close = code.indexOf(')', DELETE_CALL.lastIndex);
    const rArgs = fn === 'unlink' ? code.slice(DELETE_CALL.lastIndex, close < 0 ? code.length : close) : '';
    const recursive = /rmtree|remove_tree|rm_rf|rm_r|rmSync|fs\.rm\b|promises\.rm|rimraf|remove_dir/.test(fn) || /\brecursive\s*=\s*T(?:RUE)?\b/.test(rArgs);
    argv.push(recursive ? ['rm', '-rf', target] : ['rm', target]);
  }
  // A delete whose target is not a literal (rmtree(os.path.expanduser('~')), rmSync(os.homedir())) cannot be judged.
  const deletes = (code.match(/\b(?:rmtree|remove_tree|rm_rf|rm_r|rmSync|rmdirSync|unlinkSync|rimraf|rmdir|unlink|remove|rm)\s*\(/g) ?? []).length;
  const deletesRead = argv.filter((x) => x[0] === 'rm').length;
  if (deletes > deletesRead && /\b(?:shutil|os\.|fs\.|FileUtils|File::Path|rimraf|rmSync|rmtree|remove_tree|unlink|rmdir)/.test(code)) listUnknown = true;
  const calls = countExecCalls(code, lang);
  const reverseShell = SOCKET.test(code) && PROCESS.test(code);
  // Scheme / Julia calls that run a program from a list or a pipe (system*, open-pipe, process): not read, so unknown.
  if ((lang === 'scheme' || lang === 'julia') && /(?<![\w-])(?:system\*|open-pipe\*?|open-(?:input|output)-pipe|process\*?|subprocess\*?|shell-command|run-process|pipeline|spawn|Cmd)(?![\w-])/.test(code)) listUnknown = true;
  const unknown = listUnknown || calls > found || (found === 0 && EXEC_TOKEN.test(code) && hasExecReach(code, lang));
  return { shell, argv, unknown, reverseShell, facts: unknownWrite ? ['unknown-target'] : [], notes: unknownWrite ? ['the code writes a file whose name is not known before it runs'] : [] };
}

/** `open(F, ">>", "…")`, `open(my $f, '>…')`, `file_put_contents("…", …)`: linear regexes, one per form (no nested quantifiers). */
const OPEN_3ARG = /\bopen\s*\(?\s*(?:my\s+)?[$\w:]+\s*,\s*(['"])(\+?>>?|\+<)\1\s*,\s*([^,;)]*)/g;
const OPEN_2ARG = /\bopen\s*\(?\s*(?:my\s+)?[$\w:]+\s*,\s*(['"])\s*(\+?>>?)\s*([^'"]+)\1(?!\s*,)/g;
const HOME_FORMS = /\$ENV\{\s*['"]?HOME['"]?\s*\}|getenv\(\s*['"]HOME['"]\s*\)|\$_SERVER\[\s*['"]HOME['"]\s*\]/g;
const PUT_CONTENTS = /\bfile_put_contents\s*\(\s*([^,;)]*)\s*,([^;]*)/g;

function scanWrites(text: string): Array<{ path?: string; append: boolean }> {
  const out: Array<{ path?: string; append: boolean }> = [];
  // Home spelled as a call (getenv("HOME")) holds parentheses the argument patterns stop at.
  const code = text.replace(HOME_FORMS, '~');
  let m: RegExpExecArray | null;
  for (const re of [OPEN_3ARG, OPEN_2ARG]) {
    re.lastIndex = 0;
    while ((m = re.exec(code))) out.push({ path: re === OPEN_2ARG ? perlPath(`"${m[3]}"`) : perlPath(m[3]), append: m[2].includes('>>') });
  }
  PUT_CONTENTS.lastIndex = 0;
  while ((m = PUT_CONTENTS.exec(code))) out.push({ path: perlPath(m[1]), append: /FILE_APPEND/.test(m[2]) });
  return out;
}

/** A path written as a literal, with $ENV{HOME} / getenv("HOME") / $_SERVER['HOME'] folded to `~`; undefined when any other part is not literal. */
function perlPath(expr: string): string | undefined {
  const e = expr.trim().replace(HOME_FORMS, '~');
  // "…" / '…' / ~ joined by `.`, read left to right (a sticky scan: linear).
  const part = /\s*(?:"([^"]*)"|'([^']*)'|(~))\s*(\.|$)/y;
  let out = '';
  let at = 0;
  while (at < e.length) {
    part.lastIndex = at;
    const m = part.exec(e);
    if (!m) return undefined;
    if (m[1] !== undefined && /[$@]/.test(m[1])) return undefined;
    out += m[1] ?? m[2] ?? '~';
    at = part.lastIndex;
    if (m[4] === '') break;
  }
  return out;
}
/** Calls able to run a program (each should have been read as a string or a list). */
function countExecCalls(code: string, lang: ScannedLanguage): number {
  const re =
    lang === 'awk'
      ? /\bsystem\s*\(/g
      : // A bare system( / exec( / popen( / spawn( or one of a known module; `platform.system()`, `re.exec(` are not.
        /(?:\b(?:os\.system|os\.popen|os\.exec\w*|os\.spawn\w*|subprocess\.\w+|pty\.spawn|execSync|spawnSync|execFile(?:Sync)?|proc_open|shell_exec|passthru|IO\.popen|os\.execute|io\.popen|check_output|check_call|Popen|getoutput)|(?<![.\w])(?:spawn|system|exec|popen))\s*\(/g;
  let n = 0;
  while (re.exec(code)) n++;
  return n;
}

/** Exec-like words that really can run something here (`exec` in `re.exec(` or `.exec()` of a regex is not). */
function hasExecReach(code: string, lang: ScannedLanguage): boolean {
  if (lang === 'awk') return /\bsystem\s*\(|\|\s*getline|print[^;]*\|\s*"/.test(code);
  if (lang === 'node') return /child_process|\beval\s*\(|new\s+Function|\bimport\s*\(|process\.binding|require\s*\(\s*[^'"]/.test(code);
  if (lang === 'python') return /\b(?:os\.(?:system|popen|exec\w*|spawn\w*)|subprocess|pty|eval|exec|__import__|importlib|compile|ctypes|getattr)\b/.test(code);
  return true;
}
