/**
 * Path arguments as the policy engine compares them: brace expansion as bash does it, home
 * spellings folded to `~` (`$HOME`, `${HOME}`, `/root` stays itself), lexical normalisation
 * (`/tmp/../etc` → `/etc`, `~/..` → `/home`), and globs tested against the paths they could
 * match (`/e*` could be `/etc`).
 */

/**
 * Longest brace expansion produced for one word (`{1..100000}` must not cost a decision); a
 * word that expands to more is reported `truncated` and the resolver asks about the line.
 */
export const MAX_BRACE_WORDS = 1024;
/** Characters the expansion may scan for one word (nested groups rescan the word): bounds its cost on 100 KB words. */
const MAX_BRACE_WORK = 4_000_000;

/** Bash brace expansion of one word (`/{bin,lib}` → `/bin /lib`, `x{1..3}`); unbalanced braces stay as written. Capped: see expandBracesChecked. */
export function expandBraces(word: string): string[] {
  return expandBracesChecked(word).words;
}

/** Brace expansion, and whether words were left out (past MAX_BRACE_WORDS or the work bound): then the caller must fail closed. */
export function expandBracesChecked(word: string): { words: string[]; truncated: boolean } {
  const out: string[] = [];
  let truncated = false;
  let work = 0;
  const full = (): boolean => {
    if (out.length >= MAX_BRACE_WORDS || work > MAX_BRACE_WORK) truncated = true;
    return truncated;
  };
  const rec = (w: string): void => {
    work += w.length;
    if (full()) return;
    const open = findBraceOpen(w);
    if (open < 0) {
      out.push(w);
      return;
    }
    const close = matchingClose(w, open);
    if (close < 0) {
      out.push(w);
      return;
    }
    const body = w.slice(open + 1, close);
    const pre = w.slice(0, open);
    const post = w.slice(close + 1);
    const alts = splitTopCommas(body);
    if (alts.length > 1) {
      for (const a of alts) {
        if (full()) return;
        rec(pre + a + post);
      }
      return;
    }
    const seq = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
    if (seq) {
      const numeric = /\d/.test(seq[1]);
      const a = numeric ? Number(seq[1]) : seq[1].charCodeAt(0);
      const b = numeric ? Number(seq[2]) : seq[2].charCodeAt(0);
      const step = Math.max(1, Math.abs(Number(seq[3] ?? 1)));
      const dir = a <= b ? 1 : -1;
      for (let v = a; dir > 0 ? v <= b : v >= b; v += dir * step) {
        if (full()) return;
        rec(pre + (numeric ? String(v) : String.fromCharCode(v)) + post);
      }
      return;
    }
    // `{x}` alone is not an expansion: keep the braces, expand what follows.
    const rest: string[] = [];
    const saved = out.length;
    rec(post);
    rest.push(...out.splice(saved));
    for (const r of rest) out.push(pre + '{' + body + '}' + r);
  };
  rec(word);
  return { words: out, truncated };
}

function findBraceOpen(w: string): number {
  for (let i = 0; i < w.length; i++) {
    if (w[i] === '\\') {
      i++;
      continue;
    }
    if (w[i] === '{' && w[i - 1] !== '$') return i;
  }
  return -1;
}

function matchingClose(w: string, open: number): number {
  let depth = 0;
  for (let i = open; i < w.length; i++) {
    if (w[i] === '\\') {
      i++;
      continue;
    }
    if (w[i] === '{') depth++;
    else if (w[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitTopCommas(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** Spellings of the home directory at the start of a word. */
const HOME_PREFIX = /^(?:~|\$HOME|\$\{HOME\}|\$\{HOME:?[-?=+][^}]*\}|\$\{HOME:\?\}|\$\{HOME\?\})(?=\/|$)/;
/** Stand-in for the home directory during lexical normalisation: its parent is /home. */
const HOME_STANDIN = '/home/\u0000user';

/**
 * A path argument normalised for comparison: home as `~`, `.`/`..` resolved lexically, repeated
 * and trailing slashes removed. A relative path is resolved against `cwd` when it is known;
 * otherwise it stays relative (`./x` → `x`, `.` and `..` kept).
 */
/** `/proc/self/cwd`, `/proc/thread-self/cwd`, `/proc/$$/cwd`, `/proc/$BASHPID/cwd` (the shell's or the command's own). */
const PROC_CWD = /^\/proc\/(?:self|thread-self|\$\$|\$\{\$\}|\$BASHPID|\$\{BASHPID\})\/cwd(?=\/|$)/;
/** The same processes' `/proc/…/root`: the file system's root. */
const PROC_ROOT = /^\/proc\/(?:self|thread-self|\$\$|\$\{\$\}|\$BASHPID|\$\{BASHPID\}|\d+)\/root(?=\/|$)/;

export function normalizePath(p: string, cwd?: string): string {
  // The working directory spelled as a variable or a substitution is `.`.
  let s = p.replace(/^(?:\$PWD|\$\{PWD\}|\$\(\s*pwd\s*\)|`\s*pwd\s*`)(?=\/|$)/, '.');
  // The shell's own working directory and root through /proc (`cd ~/.gemini && rm /proc/self/cwd/settings.json`):
  // the command's cwd is the line's (a process started by the shell inherits it), its root is `/`.
  s = s.replace(PROC_CWD, '.').replace(PROC_ROOT, '/');
  const isAbs = (x: string) => x.startsWith('/') || HOME_PREFIX.test(x) || x.startsWith('~');
  if (!isAbs(s) && cwd && isAbs(cwd)) s = `${cwd}/${s}`;
  s = s.replace(HOME_PREFIX, HOME_STANDIN);
  if (s.startsWith('~root') && (s.length === 5 || s[5] === '/')) s = '/root' + s.slice(5);
  else if (s.startsWith('~') && !s.startsWith(HOME_STANDIN)) {
    // ~user: another user's home.
    s = '/home/' + s.slice(1);
  }
  const abs = s.startsWith('/');
  const parts: string[] = [];
  for (const seg of s.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length && parts[parts.length - 1] !== '..') parts.pop();
      else if (!abs) parts.push('..');
      continue;
    }
    parts.push(seg);
  }
  let out = (abs ? '/' : '') + parts.join('/');
  if (out === '') out = abs ? '/' : '.';
  // A relative folder named `~…` (`rm -rf './~'`, `'~'` quoted) is not home.
  if (!abs && parts[0]?.startsWith('~') && !s.startsWith('~')) out = `./${out}`;
  if (out === HOME_STANDIN) return '~';
  if (out.startsWith(HOME_STANDIN + '/')) return '~' + out.slice(HOME_STANDIN.length);
  return out;
}

/** Unquoted glob characters turned into a regex over one path (a `*` never crosses a `/`). */
export function globToRegex(glob: string): RegExp {
  return new RegExp(`^${globSource(glob)}$`);
}

/** The index of the `)` closing the extglob group opened at `open` (nested groups counted), or -1. */
function groupEnd(glob: string, open: number): number {
  let depth = 0;
  for (let k = open; k < glob.length; k++) {
    if (glob[k] === '(') depth++;
    else if (glob[k] === ')' && --depth === 0) return k;
  }
  return -1;
}

/** Splits an extglob group's body at its top-level `|`. */
function alternatives(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let k = 0; k < body.length; k++) {
    if (body[k] === '(') depth++;
    else if (body[k] === ')') depth--;
    else if (body[k] === '|' && depth === 0) {
      out.push(body.slice(from, k));
      from = k + 1;
    }
  }
  out.push(body.slice(from));
  return out;
}

function globSource(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    // extglob (`shopt -s extglob`): @(a|b) one of, ?(…) at most one of them; *(…), +(…) (repeats) and !(…) (anything
    // else) are read as any name: wider than bash, never narrower, and no nested quantifier to backtrack on.
    const end = '@?*+!'.includes(c) && glob[i + 1] === '(' ? groupEnd(glob, i + 1) : -1;
    if (end > 0) {
      re += c === '@' || c === '?' ? `(?:${alternatives(glob.slice(i + 2, end)).map(globSource).join('|')})${c === '?' ? '?' : ''}` : '[^/]*';
      i = end;
    } else if (c === '*' || c === '?') {
      // A run of * and ? is one quantifier (`**?*` → `[^/]{1,}`): adjacent stars would backtrack exponentially.
      let min = 0;
      let star = false;
      for (; i < glob.length && (glob[i] === '*' || glob[i] === '?'); i++) {
        if (glob[i] === '*') star = true;
        else min++;
      }
      i--;
      re += star ? `[^/]{${min},}` : `[^/]{${min}}`;
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        let cls = glob.slice(i + 1, close);
        if (cls.startsWith('!')) cls = '^' + cls.slice(1);
        re += `[${cls.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return re;
}

/** A glob: `*`, `?`, `[…]`, or bash's extglob `@(a|b)`, `+(…)`, `!(…)` (`*(…)`, `?(…)` have the star or mark). */
export const hasGlob = (s: string): boolean => /[*?[]|[@+!]\(/.test(s);

/**
 * Paths a glob in a dangerous position is tested against: what `/e*`, `~/.g*`, `/v*\/l*` could
 * name on a real machine. A glob that could match one of these counts as naming it.
 */
export const PROBE_PATHS: readonly string[] = [
  '/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/media', '/mnt', '/opt', '/proc', '/root', '/run', '/sbin', '/srv', '/sys', '/usr', '/var',
  '/usr/bin', '/usr/lib', '/usr/local', '/usr/sbin', '/usr/share', '/usr/include', '/var/lib', '/var/log', '/var/spool', '/var/www', '/var/backups', '/var/mail', '/var/lib/docker', '/var/lib/postgresql', '/var/lib/mysql',
  '/etc/passwd', '/etc/shadow', '/etc/sudoers', '/etc/sudoers.d', '/etc/group', '/etc/hosts', '/etc/ssh', '/etc/crontab', '/etc/cron.d', '/etc/systemd', '/etc/systemd/system', '/etc/fstab', '/etc/profile', '/etc/bash.bashrc', '/etc/environment', '/boot/grub', '/boot/efi', '/boot/vmlinuz',
  '/home/user',
  '~', '~/.ssh', '~/.ssh/authorized_keys', '~/.ssh/id_rsa', '~/.ssh/id_ed25519', '~/.gnupg', '~/.aws', '~/.aws/credentials', '~/.kube', '~/.kube/config', '~/.config', '~/.local', '~/.docker', '~/.netrc', '~/.npmrc', '~/.pypirc', '~/.git-credentials', '~/.password-store',
  '~/.bashrc', '~/.bash_profile', '~/.profile', '~/.zshrc', '~/.zshenv', '~/.zprofile', '~/.bash_logout', '~/.config/fish', '~/.config/systemd', '~/.cache', '~/Documents', '~/Desktop', '~/projects', '~/src', '~/work', '~/Downloads',
];

/**
 * The forms a target is compared in: as written after brace expansion and normalisation; a
 * glob is replaced by every probe path it could match (or kept when it matches none).
 */
export function targetForms(word: string, isGlob: boolean, cwd?: string, asWritten = true): string[] {
  const out: string[] = [];
  for (const w of expandBraces(word)) {
    const n = normalizePath(w, cwd);
    out.push(n);
    const rel = normalizePath(w);
    if (rel !== n && (asWritten || rel.startsWith('/') || rel.startsWith('~'))) out.push(rel);
    if (isGlob && hasGlob(w) && (rel.startsWith('/') || rel.startsWith('~'))) {
      // Compare the glob's normalised spelling (`$HOME/.g*` → `~/.g*`) with each probe.
      const re = globToRegex(rel);
      for (const p of PROBE_PATHS) if (re.test(p)) out.push(p);
      if (n !== rel) {
        const reAbs = globToRegex(n);
        for (const p of PROBE_PATHS) if (reAbs.test(p)) out.push(p);
      }
    }
  }
  return out;
}
