/**
 * Wrappers and stored command strings, as the policy reads them: programs that run their
 * arguments as a command (sudo, nice, timeout, strace, chroot, … — the option tables are shared
 * with the router, router/wrappers.ts), a command word's program name, and the shell strings a
 * command stores to be run later (alias bodies, trap actions, GIT_SSH_COMMAND, git -c
 * core.pager, ssh -o ProxyCommand, vim -c '!…').
 */
import { WRAPPER_OPTIONS, skipWrapperOptions, type WrapperOptions } from '../router/wrappers.js';
import type { Words } from './resolved.js';

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'rbash', 'fish', 'tcsh', 'csh', 'pdksh', 'posh']);

export type PrefixSpec = WrapperOptions;


/** Wrappers that run their arguments as a command, with the options they take. */
export const PREFIX: Record<string, PrefixSpec> = {
  ...WRAPPER_OPTIONS,
  pkexec: { longValue: ['--user'] },
  chrt: { positional: 1, query: ['-p', '--pid', '-m', '--max'] },
  setsid: {},
  strace: { shortValue: 'abeEIoOpPsSuXU', longValue: ['--output', '--trace', '--signal', '--attach', '--user', '--string-limit', '--env'], query: ['-p', '--attach'] },
  ltrace: { shortValue: 'aAeElnopsSuXwx', longValue: ['--output'], query: ['-p'] },
  chroot: { longValue: ['--userspec', '--groups', '--skip-chdir'], positional: 1 },
  unshare: { shortValue: 'S', longValue: ['--setuid', '--setgid', '--wd', '--root'] },
  nsenter: { shortValue: 'tSGwr', longValue: ['--target', '--setuid', '--setgid', '--wd', '--root'] },
  'systemd-run': { shortValue: 'pEM', longValue: ['--unit', '--property', '--setenv', '--uid', '--gid', '--nice', '--slice', '--machine', '--description', '--working-directory', '--on-calendar', '--on-active', '--timer-property', '--service-type'] },
  firejail: {},
  torsocks: { shortValue: 'uPaip' },
  proxychains: { shortValue: 'f' },
  proxychains4: { shortValue: 'f' },
  'xvfb-run': { shortValue: 'snfe', longValue: ['--server-args', '--server-num', '--auth-file', '--error-file'] },
  catchsegv: {},
  valgrind: {},
  caffeinate: { shortValue: 'tw' },
  eatmydata: {},
  nocache: {},
  unbuffer: {},
  rlwrap: {},
  faketime: { shortValue: 'm', positional: 1 },
  cgexec: { shortValue: 'g' },
  'dbus-run-session': {},
  chpst: { shortValue: 'uUebnlmdosv' },
  busybox: {},
  toybox: {},
  numactl: { shortValue: 'ipPmNCwSfLMIo', longValue: ['--interleave', '--preferred', '--preferred-many', '--membind', '--cpunodebind', '--physcpubind', '--weighted-interleave', '--shm', '--file', '--length', '--shmmode', '--shmid', '--offset'], query: ['-s', '--show', '-H', '--hardware'] },
  trickle: { shortValue: 'udwtlsn' },
  'aws-vault': {},
  // systemd's sudo, the Rust sudo, session launchers and file watchers: the wrapped command runs.
  run0: { shortValue: 'uDg', longValue: ['--user', '--group', '--chdir', '--setenv', '--unit', '--property', '--nice', '--slice', '--machine', '--description', '--background'] },
  'sudo-rs': WRAPPER_OPTIONS.sudo,
  'ssh-agent': { shortValue: 'aEPt', query: ['-k', '-l', '-D', '-d'] },
  'dbus-launch': { longValue: ['--config-file'] },
  entr: {},
  npx: { shortValue: 'p', longValue: ['--package', '--call', '-c'] },
  bunx: { longValue: ['--package'] },
  pnpx: {},
  'with-contenv': {},
  daemonize: { shortValue: 'aceEopPuv' },
  // Resource and scheduling limits (util-linux prlimit's limits take an optional value glued to the flag: `--nofile=100`, `-n100`).
  prlimit: { shortValue: 'po', longValue: ['--pid', '--output'], query: ['-p', '--pid'] },
  cpulimit: { shortValue: 'lpePc', longValue: ['--limit', '--pid', '--exe', '--path', '--cpu'], query: ['-p', '--pid', '-e', '--exe', '-P', '--path'] },
  'systemd-inhibit': { longValue: ['--what', '--who', '--why', '--mode'], query: ['--list'] },
};

/** The program a command word names: `/usr/bin/rm` → rm, zsh's `=rm` → rm, `python3.12` → python3. */
export function commandName(word: string): string {
  const name = word.startsWith('=') ? word.slice(1) : word;
  const at = name.lastIndexOf('/');
  const base = at >= 0 ? name.slice(at + 1) : name;
  // `npx rimraf@5`, `bunx del-cli@latest`: a package runner's name carries the version asked for.
  const unversioned = base.replace(/^([^@]+)@[\w.^~*-]*$/, '$1');
  return /^python\d(?:\.\d+)?$/.test(unversioned) ? unversioned.replace(/\.\d+$/, '') : unversioned;
}

/** Variables whose value a program runs as a shell command (or loads as code). */
export const COMMAND_VARIABLES = /^(?:GIT_SSH_COMMAND|GIT_SSH|GIT_EXTERNAL_DIFF|GIT_PROXY_COMMAND|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_PAGER|GIT_ASKPASS|SSH_ASKPASS|EDITOR|VISUAL|PAGER|MANPAGER|LESSOPEN|LESSCLOSE|BASH_ENV|ENV|PROMPT_COMMAND|SUDO_ASKPASS|BROWSER)=/;
/**
 * The shell text a NAME=value word stores to be run later: a command variable's value (LESSOPEN's
 * leading `|` / `||` pipe marker dropped), or the body of an exported bash function
 * (`BASH_FUNC_ls%%=() { rm -rf ~; }` defines ls in the bash that env starts); undefined otherwise.
 */
export function storedCommand(assignment: string, value = assignment.slice(assignment.indexOf('=') + 1)): string | undefined {
  if (/^BASH_FUNC_[^=]*%%=/.test(assignment)) return value.replace(/^\s*\(\s*\)\s*/, '');
  if (!COMMAND_VARIABLES.test(assignment)) return undefined;
  return /^LESS(?:OPEN|CLOSE)=/.test(assignment) ? value.replace(/^\s*\|\|?/, '') : value;
}

/** A git setting's command: a `!` alias is a shell line, any other alias is git's own arguments (`alias.p=push -f` runs `git push -f`). */
function gitAlias(key: string, value: string): string {
  return /^alias\./i.test(key) && !value.startsWith('!') ? `git ${value}` : value.replace(/^!/, '');
}

/** git's `ext::` remote as shell text: words split at unescaped spaces, `% ` a space, `%%` a percent sign (git-remote-ext(1)). */
function extCommand(spec: string): string {
  const words = spec.split(/(?<!%) /).filter((x) => x !== '');
  return words.map((x) => `'${x.replace(/%([ %])/g, '$1').replace(/'/g, `'\\''`)}'`).join(' ');
}

/** git -c settings whose value git runs as a command. */
export const GIT_COMMAND_SETTINGS = /^(?:core\.sshcommand|core\.pager|core\.editor|core\.fsmonitor|core\.askpass|sequence\.editor|diff\.external|gpg\.program|credential\.helper|pager\.[\w-]+|alias\.[\w-]+|filter\.[\w-]+\.(?:clean|smudge|process)|difftool\.[\w-]+\.cmd|mergetool\.[\w-]+\.cmd)=/i;

/**
 * Shell strings a command stores to be run later or elsewhere: alias bodies, trap actions,
 * command-running variables (`export GIT_SSH_COMMAND=…`), git -c settings, vim's `-c '!…'`.
 */
export function laterStrings(name: string, w: Words): string[] {
  const a = w.argv;
  const out: string[] = [];
  const assignValue = (x: string) => x.slice(x.indexOf('=') + 1);
  if (name === 'alias') for (const x of a.slice(1)) if (x.includes('=')) out.push(assignValue(x));
  // `compgen -C CMD` runs CMD at once; `complete -C CMD` when the name is completed.
  if (name === 'compgen' || name === 'complete') for (let k = 1; k < a.length - 1; k++) if (/^-[a-zA-Z]*C$/.test(a[k])) out.push(a[++k]);
  if (name === 'trap') {
    const action = a.slice(1).find((x) => !x.startsWith('-'));
    if (action !== undefined && a.length > 2) out.push(action);
  }
  if (name === 'export' || name === 'declare' || name === 'typeset' || name === 'local' || name === 'readonly') for (const x of a.slice(1)) if (COMMAND_VARIABLES.test(x)) out.push(assignValue(x));
  if (name === 'git') {
    // Commands git runs itself: submodule foreach, rebase --exec / -x, bisect run.
    const sub = a.findIndex((x, k) => k > 0 && ['submodule', 'rebase', 'bisect'].includes(x));
    if (sub > 0 && a[sub] === 'submodule') {
      const f = a.indexOf('foreach', sub);
      if (f > 0) {
        let k = f + 1;
        while (a[k]?.startsWith('-')) k++;
        if (k < a.length) out.push(a.slice(k).join(' '));
      }
    }
    if (sub > 0 && a[sub] === 'rebase') {
      for (let k = sub + 1; k < a.length; k++) {
        if ((a[k] === '--exec' || a[k] === '-x') && a[k + 1] !== undefined) out.push(a[++k]);
        else if (a[k].startsWith('--exec=')) out.push(a[k].slice(7));
      }
    }
    if (sub > 0 && a[sub] === 'bisect' && a[sub + 1] === 'run' && a.length > sub + 2) out.push(a.slice(sub + 2).join(' '));
    for (let k = 1; k < a.length; k++) {
      const setting = a[k] === '-c' ? a[k + 1] : a[k].startsWith('-c') && a[k].length > 2 ? a[k].slice(2) : undefined;
      if (setting && GIT_COMMAND_SETTINGS.test(setting)) out.push(gitAlias(setting.slice(0, setting.indexOf('=')), assignValue(setting)));
    }
    // An `ext::CMD ARGS` remote (`git ls-remote 'ext::sh -c rm% -rf% ~'`) runs CMD, once `protocol.ext.allow` lets it (the worst case: always).
    for (const x of a.slice(1)) if (/^ext::/.test(x)) out.push(extCommand(x.slice(5)));
    // `git config [--global] alias.p 'push --force'`: what the alias runs is judged where it is defined (later lines call it by name).
    const cfg = a.findIndex((x, k) => k > 0 && x === 'config');
    const key = cfg > 0 ? a.findIndex((x, k) => k > cfg && /^alias\.[\w-]+$/i.test(x)) : -1;
    if (key > 0 && a[key + 1] !== undefined) out.push(gitAlias(a[key], a[key + 1]));
    // A forced push set up to happen later (`git config remote.origin.push '+refs/heads/*:…'`, `remote.x.mirror true`),
    // or done with the plumbing (`git send-pack --force`): judged as the push it is.
    const remote = cfg > 0 ? a.findIndex((x, k) => k > cfg && /^remote\.[^.]+\.(?:push|mirror)$/i.test(x)) : -1;
    if (remote > 0 && /^\+|^:|^true$/i.test(a[remote + 1] ?? '')) out.push(/mirror$/i.test(a[remote]) ? 'git push --mirror' : `git push origin '${a[remote + 1]}'`);
    if (a.includes('send-pack') && a.some((x) => x === '--force' || x === '--mirror' || /^[+:]/.test(x))) out.push('git push --force');
  }
  // `npm pkg set scripts.test='rm -rf ~'`: the script is judged where it is defined (`npm test` runs it later).
  if (name === 'npm' && a[1] === 'pkg' && a[2] === 'set') for (const x of a.slice(3)) if (/^scripts\.[^=]+=/.test(x)) out.push(assignValue(x));
  // `gh api -X PATCH repos/o/r/git/refs/heads/main -F force=true`, `-X DELETE …/git/refs/…`: a forced push or a deleted branch through the API.
  if (name === 'gh' && a[1] === 'api' && a.some((x) => /\/git\/refs\//.test(x))) {
    if (a.some((x) => /^force=true$/i.test(x))) out.push('git push --force');
    if (a.some((x, k) => /^DELETE$/i.test(x) && /^(?:-X|--method)$/.test(a[k - 1] ?? '')) || a.includes('--method=DELETE') || a.includes('-XDELETE')) out.push('git push --delete');
  }
  if (name === 'ssh' || name === 'scp' || name === 'sftp' || name === 'rsync' || name === 'autossh' || name === 'sshfs') {
    // -o ProxyCommand=… / LocalCommand=… run locally; rsync -e / --rsh is the command it starts.
    for (let k = 1; k < a.length; k++) {
      const opt = a[k] === '-o' ? a[k + 1] : a[k].startsWith('-o') && a[k].length > 2 ? a[k].slice(2) : undefined;
      const m = opt !== undefined ? /^\s*(?:ProxyCommand|LocalCommand|KnownHostsCommand)\s*[= ]\s*(.*)$/i.exec(opt) : null;
      if (m && !/^none$/i.test(m[1])) out.push(m[1]);
      if (name === 'rsync' && (a[k] === '-e' || a[k] === '--rsh') && a[k + 1] !== undefined) out.push(a[k + 1]);
      if (name === 'rsync' && a[k].startsWith('--rsh=')) out.push(a[k].slice(6));
    }
  }
  if (name === 'man') {
    // man -P PAGER / --pager=PAGER / -H BROWSER: run as a shell command.
    for (let k = 1; k < a.length; k++) {
      if ((a[k] === '-P' || a[k] === '--pager' || a[k] === '-H' || a[k] === '--html') && a[k + 1] !== undefined) out.push(a[++k]);
      else if (/^(?:--pager=|--html=|-P.|-H.)/.test(a[k])) out.push(a[k].replace(/^(?:--pager=|--html=|-P|-H)/, ''));
    }
  }
  if (name === 'zip') {
    // zip -T -TT CMD / --unzip-command CMD: zip runs CMD with the archive's name through system().
    for (let k = 1; k < a.length; k++) {
      if ((a[k] === '-TT' || a[k] === '--unzip-command') && a[k + 1] !== undefined) out.push(a[++k]);
      else if (a[k].startsWith('--unzip-command=')) out.push(a[k].slice(16));
    }
  }
  if (/^(?:vim?|nvim|ex|view|gvim)$/.test(name)) {
    for (let k = 1; k < a.length; k++) {
      const cmd = a[k] === '-c' || a[k] === '--cmd' ? a[k + 1] : a[k].startsWith('+') ? a[k].slice(1) : undefined;
      const bang = cmd !== undefined ? /^\s*:?\s*(?:\d*,?\d*)?!(.*)$/.exec(cmd) : null;
      if (bang) out.push(bang[1]);
    }
  }
  return out;
}

/** A `sh -c` string with $0, $1, …, "$@" and $* replaced by the words that follow it. */
export function withPositionals(script: string, args: string[]): string {
  if (args.length === 0 || !/\$(?:\{?[0-9@*])/.test(script)) return script;
  const all = args.slice(1).join(' ');
  return script.replace(/\$\{?([0-9])\}?|\$([@*])|\$\{([@*])\}/g, (m, n?: string) => (n !== undefined ? (args[Number(n)] ?? '') : all));
}

/** Index of the wrapped command in argv (after the wrapper's options), or 'query'. NAME=value words before it are skipped. */
export function skipOptions(argv: readonly string[], spec: PrefixSpec, opts: { gluedOnly?: string } = {}): number | 'query' {
  return skipWrapperOptions(argv, 1, spec, { assignments: true, gluedOnly: opts.gluedOnly });
}

/** The directory a wrapper runs its command in (`sudo -D DIR`, `sudo --chdir=DIR`, `nsenter -w DIR`, `systemd-run --working-directory=DIR`). */
export function chdirOption(name: string, w: Words, end: number): { path: string; literal: boolean } | undefined {
  const flags: Record<string, { short?: string; long: string[] }> = { sudo: { short: 'D', long: ['--chdir'] }, nsenter: { short: 'w', long: ['--wd'] }, unshare: { long: ['--wd'] }, 'systemd-run': { long: ['--working-directory'] } };
  const f = flags[name];
  if (!f) return undefined;
  let found: { path: string; literal: boolean } | undefined;
  for (let k = 1; k < end; k++) {
    const x = w.argv[k];
    const long = f.long.find((l) => x === l || x.startsWith(`${l}=`));
    if (long) found = x.includes('=') ? { path: x.slice(x.indexOf('=') + 1), literal: w.literal[k] } : { path: w.argv[k + 1] ?? '', literal: w.literal[k + 1] ?? false };
    else if (f.short && new RegExp(`^-[A-Za-z]*${f.short}`).test(x)) {
      const at = x.indexOf(f.short);
      found = at < x.length - 1 ? { path: x.slice(at + 1), literal: w.literal[k] } : { path: w.argv[k + 1] ?? '', literal: w.literal[k + 1] ?? false };
    }
  }
  return found;
}

/** Whether a wrapper given no command starts a shell: sudo's -s / -i / --shell / --login, doas -s, pkexec and run0 alone. */
export function startsShell(name: string, options: string[]): boolean {
  if (name === 'pkexec' || name === 'run0') return true;
  if (name === 'doas') return options.some((x) => /^-[a-zA-Z]*s/.test(x));
  if (name === 'sudo' || name === 'sudo-rs') return options.some((x) => x === '--shell' || x === '--login' || /^-[a-zA-Z]*[si]/.test(x));
  return false;
}

/** Words bash reads as written (tilde at the start included); others are single-quoted. */
const PLAIN_WORD = /^[\w@%+=:,./~-]+$/;

/** The words after argv[0] as shell text (an alias's expansion is read again with them): known values quoted, unknown ones as written (read again, they are unknown again). */
export function argsText(w: Words): string {
  const out: string[] = [];
  for (let k = 1; k < w.argv.length; k++) {
    if (!w.literal[k]) {
      // An unknown word split into several argv words is written once.
      if (k > 1 && !w.literal[k - 1] && w.raw[k] === w.raw[k - 1]) continue;
      out.push(w.raw[k]);
    } else out.push(PLAIN_WORD.test(w.argv[k]) ? w.argv[k] : `'${w.argv[k].replace(/'/g, `'\\''`)}'`);
  }
  return out.join(' ');
}
