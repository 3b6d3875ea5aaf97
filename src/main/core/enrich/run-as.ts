/**
 * Who a command ran as, for the Permission denied hint: `setpriv --reuid=65534 cat x` is
 * denied as nobody, not as the user mish runs as, and a hint naming mish's own user would send
 * the agent the wrong way. Read from the user-switching wrappers in front of each simple command
 * (sudo, doas, runuser, setpriv); names and numbers are resolved with getent (NSS, as the
 * wrappers themselves do).
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';

export interface Identity {
  /** User name, or the uid as written when it has no passwd entry. */
  name: string;
  uid?: number;
  gid?: number;
  /** The wrapper that switched to it; undefined for mish's own user. */
  via?: string;
}

/** The words of one simple command (as the router parses them) and where its effective argv starts. */
export interface CommandWords {
  words: ReadonlyArray<{ value: string }>;
  argvStart: number;
}

/** A getent lookup waits at most this long (a slow NSS must not hold the hint up). */
const GETENT_TIMEOUT_MS = 2000;

function getent(db: 'passwd' | 'group', key: string): string[] | undefined {
  const r = spawnSync('getent', [db, key], { encoding: 'utf8', timeout: GETENT_TIMEOUT_MS });
  if (r.status !== 0 || !r.stdout) return undefined;
  return r.stdout.split('\n')[0].split(':');
}

/** A user given by name or number (`nobody`, `65534`, sudo's `#65534`). */
function user(spec: string): { name: string; uid?: number; gid?: number } {
  const key = spec.replace(/^#/, '');
  const e = getent('passwd', key);
  if (e) return { name: e[0], uid: Number(e[2]), gid: Number(e[3]) };
  return /^\d+$/.test(key) ? { name: key, uid: Number(key) } : { name: key };
}

function group(spec: string): number | undefined {
  const key = spec.replace(/^#/, '');
  if (/^\d+$/.test(key)) return Number(key);
  const e = getent('group', key);
  return e ? Number(e[2]) : undefined;
}

/** Option values of a wrapper's own words: `-u x`, `-ux`, `--user=x`, `--user x`. */
function optionValue(args: readonly string[], short: string | undefined, long: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') break;
    for (const l of long) {
      if (a === l && i + 1 < args.length) found = args[i + 1];
      else if (a.startsWith(`${l}=`)) found = a.slice(l.length + 1);
    }
    if (short && a === `-${short}` && i + 1 < args.length) found = args[i + 1];
    else if (short && a.startsWith(`-${short}`) && !a.startsWith('--') && a.length > 2) found = a.slice(2);
  }
  return found;
}

/** Wrappers that run their command as another user. */
const SWITCHERS = new Set(['sudo', 'doas', 'runuser', 'setpriv']);

/** Who one command ran as when a wrapper switched user; undefined when none did. */
export function switchedIdentity(cmd: CommandWords): Identity | undefined {
  const words = cmd.words.slice(0, cmd.argvStart).map((w) => w.value);
  // Wrapper boundaries: every word whose basename is a known switcher starts one; the last switch wins.
  let result: Identity | undefined;
  for (let i = 0; i < words.length; i++) {
    const via = words[i].split('/').pop() ?? '';
    if (!SWITCHERS.has(via)) continue;
    let end = i + 1;
    while (end < words.length && !SWITCHERS.has(words[end].split('/').pop() ?? '')) end++;
    const args = words.slice(i + 1, end);
    if (via === 'setpriv') {
      const uidSpec = optionValue(args, undefined, ['--reuid', '--ruid', '--euid']);
      const gidSpec = optionValue(args, undefined, ['--regid', '--rgid', '--egid']);
      if (!uidSpec && !gidSpec) continue;
      const me = os.userInfo();
      const u = uidSpec ? user(uidSpec) : { name: me.username, uid: me.uid, gid: me.gid };
      result = { ...u, gid: gidSpec ? group(gidSpec) : (result?.gid ?? me.gid), via };
    } else {
      const uidSpec = optionValue(args, 'u', via === 'doas' ? [] : ['--user']) ?? 'root';
      const gidSpec = via === 'doas' ? undefined : optionValue(args, 'g', ['--group']);
      const u = user(uidSpec);
      result = { ...u, gid: gidSpec ? group(gidSpec) : u.gid, via };
    }
    i = end - 1;
  }
  return result;
}

/** `nobody (uid 65534, gid 65534)`; unknown numbers are left out rather than guessed. */
export function describeIdentity(id: Identity): string {
  const nums = [id.uid !== undefined ? `uid ${id.uid}` : '', id.gid !== undefined ? `gid ${id.gid}` : ''].filter(Boolean).join(', ');
  return nums ? `${id.name} (${nums})` : id.name;
}

/**
 * The "who" part of a Permission denied hint for a whole line: `you are root (uid 0, gid 0)`
 * when nothing switched user, `it ran as nobody (uid 65534, gid 65534) through setpriv` when
 * every command did, both when some did.
 */
export function whoRan(commands: readonly CommandWords[], me: Identity): string {
  const seen = new Map<string, Identity>();
  let self = commands.length === 0;
  for (const c of commands) {
    const id = switchedIdentity(c);
    if (!id) self = true;
    else seen.set(`${id.name}/${id.uid}/${id.gid}/${id.via}`, id);
  }
  const switched = [...seen.values()].map((id) => `${describeIdentity(id)} through ${id.via}`);
  if (switched.length === 0) return `you are ${describeIdentity(me)}`;
  const as = switched.join(' and as ');
  return self ? `it ran as ${as}, and as you: ${describeIdentity(me)}` : `it ran as ${as}`;
}
