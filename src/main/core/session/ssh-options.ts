/**
 * Validation of what an agent may pass to the system ssh client for a remote session
 * (sh_session create {ssh, ssh_args}). The destination and options run on THIS machine before
 * any remote shell exists, where no command check sees them, so options that run a local
 * command or load local code are refused (issue 9: `-oProxyCommand=…` ran a local command;
 * a destination starting with `-` was read as an option). The command that reaches the remote
 * shell afterwards is mish's own integration; every line the agent sends then is checked as usual.
 */
import { readFileSync } from 'node:fs';
import { findUnrunnableCharacter } from '../router/unrunnable-characters.js';

/** ssh's one-letter options that take no value (OpenSSH ssh(1) synopsis), minus the refused ones below. */
const NO_VALUE_FLAGS = new Set('46AaCgKkMnqTtvXxYy'.split(''));
/** ssh's one-letter options that take a value. */
const VALUE_FLAGS = new Set('BbcDeFiJLlmoPpQRSw'.split(''));

/**
 * One-letter options refused, with why: each either runs or loads something locally, writes a
 * local file, or makes ssh something other than the session's shell.
 */
const REFUSED_FLAGS: Record<string, string> = {
  f: 'sends ssh to the background, outside the session that owns it',
  N: 'runs no remote command, so there would be no shell',
  G: 'prints the configuration and exits instead of connecting',
  V: 'prints the version and exits',
  O: 'sends a control command to a multiplexing master',
  W: 'forwards stdio instead of starting a shell',
  s: 'requests a subsystem instead of a shell',
  E: 'appends debug logs to a local file of the caller\'s choosing',
  I: 'loads a PKCS#11 shared library into ssh (local code)',
};

/**
 * `-o` options (case-insensitive, ssh_config(5)) refused: they run a local command, load local
 * code, pull in other config files (which could do either), or replace the remote shell.
 */
const REFUSED_CONFIG_OPTIONS: Record<string, string> = {
  proxycommand: 'runs a local command',
  localcommand: 'runs a local command',
  permitlocalcommand: 'enables LocalCommand (a local command)',
  knownhostscommand: 'runs a local command',
  match: 'Match exec runs a local command',
  include: 'reads further config files, which may run local commands',
  pkcs11provider: 'loads a shared library into ssh (local code)',
  securitykeyprovider: 'loads a shared library into ssh (local code)',
  remotecommand: 'replaces the session\'s shell with another remote command',
  sessiontype: 'replaces the session\'s shell',
  stdioforward: 'forwards stdio instead of starting a shell',
  controlmaster: 'makes this ssh a background multiplexing master that outlives the session',
  forkafterauthentication: 'sends ssh to the background',
};

/** Lines of an `-F` config file that refuse it (same directives as REFUSED_CONFIG_OPTIONS). */
const REFUSED_CONFIG_LINE = new RegExp(`^\\s*(${Object.keys(REFUSED_CONFIG_OPTIONS).join('|')})\\b`, 'im');

/** `user@host`, `host`, `user@[v6::addr]`: no leading dash, no blank, no shell metacharacters. */
const DESTINATION = /^(?:[A-Za-z0-9._%+~][A-Za-z0-9._%+~-]*@)?(?:[A-Za-z0-9_][A-Za-z0-9._-]*|\[[0-9A-Fa-f:.%A-Za-z]+\])$/;

export type SshCheck = { ok: true } | { ok: false; message: string };

const refuse = (message: string): SshCheck => ({ ok: false, message });

/** Is this destination a plain host or user@host that ssh cannot read as an option? */
export function checkSshDestination(dest: string): SshCheck {
  if (findUnrunnableCharacter(dest)) return refuse(`ssh destination ${JSON.stringify(dest)} holds a control character`);
  if (dest.startsWith('-')) return refuse(`ssh destination ${JSON.stringify(dest)} starts with "-": ssh would read it as an option`);
  if (!DESTINATION.test(dest)) return refuse(`ssh destination ${JSON.stringify(dest)} is not a host or user@host (letters, digits, . _ - %, or [IPv6])`);
  return { ok: true };
}

/** Are these ssh options free of anything that runs or loads something locally? */
export function checkSshArgs(args: readonly string[], readFile: (p: string) => string = (p) => readFileSync(p, 'utf8')): SshCheck {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (findUnrunnableCharacter(a)) return refuse(`ssh option ${JSON.stringify(a)} holds a control character`);
    if (a === '--') return refuse('"--" in ssh_args: mish puts the destination after the options itself');
    if (!a.startsWith('-') || a === '-') return refuse(`ssh_args holds ${JSON.stringify(a)}, which is not an option: the destination goes in ssh, and the remote command is the session's shell`);
    // A cluster: no-value flags, possibly ending in one value flag with its value attached or next.
    for (let j = 1; j < a.length; j++) {
      const f = a[j];
      if (REFUSED_FLAGS[f]) return refuse(`ssh option -${f} is not allowed: it ${REFUSED_FLAGS[f]}`);
      if (NO_VALUE_FLAGS.has(f)) continue;
      if (!VALUE_FLAGS.has(f)) return refuse(`unknown ssh option -${f}`);
      let value = a.slice(j + 1);
      if (value === '') {
        if (i + 1 >= args.length) return refuse(`ssh option -${f} needs a value`);
        value = args[++i];
      }
      const bad = checkValue(f, value, readFile);
      if (!bad.ok) return bad;
      break;
    }
  }
  return { ok: true };
}

function checkValue(flag: string, value: string, readFile: (p: string) => string): SshCheck {
  if (findUnrunnableCharacter(value)) return refuse(`the value of ssh option -${flag} holds a control character`);
  if (flag === 'o') {
    const key = /^\s*([A-Za-z0-9]+)/.exec(value)?.[1]?.toLowerCase();
    if (!key) return refuse(`ssh option -o ${JSON.stringify(value)} names no option`);
    const why = REFUSED_CONFIG_OPTIONS[key];
    if (why) return refuse(`ssh option -o ${key} is not allowed: it ${why}`);
    if (key === 'proxyjump') return checkJump(value.replace(/^\s*proxyjump\s*=?\s*/i, ''));
  }
  if (flag === 'J') return checkJump(value);
  if (flag === 'F') {
    if (value === 'none' || value === '/dev/null') return { ok: true };
    let text: string;
    try {
      text = readFile(value);
    } catch (e) {
      return refuse(`ssh option -F ${value}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const m = REFUSED_CONFIG_LINE.exec(text);
    if (m) return refuse(`ssh option -F ${value}: the file sets ${m[1]}, which ${REFUSED_CONFIG_OPTIONS[m[1].toLowerCase()]}`);
  }
  return { ok: true };
}

/** ProxyJump hosts are destinations too (ssh runs ssh to each): `a,user@b:2222`, or `none`. */
function checkJump(value: string): SshCheck {
  if (value.trim().toLowerCase() === 'none') return { ok: true };
  for (const hop of value.split(',')) {
    const host = hop.trim().replace(/^ssh:\/\//, '').replace(/:\d+$/, '');
    const r = checkSshDestination(host);
    if (!r.ok) return refuse(`jump host: ${r.message}`);
  }
  return { ok: true };
}
