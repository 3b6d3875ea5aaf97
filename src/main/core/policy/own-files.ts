/**
 * mish's own files — its configuration and policy, grammars, state, spool, audit log and
 * operator sockets — are the operator's to change, never the agent's: an agent that could
 * write `~/.config/mish/policy.toml` (or delete the audit log) could switch the policy off for
 * every later line. Any write, delete, move, truncation or link onto one of them (or a delete
 * or move of a folder that holds one) is `forbid`, whatever the policy files say: a policy file
 * that allows everything must not also allow rewriting itself. Interpreter code, editors,
 * archivers — any program not known to only read — naming one is `ask`.
 */
import os from 'node:os';
import path from 'node:path';
import { runtimeDir } from '../../platform/platform.js';
import { globToRegex, hasGlob, normalizePath } from './paths.js';
import { positionalArgs, type ResolvedCommand } from './resolve.js';
import { hasFlag, writeTargets, type CommandView } from './rules.js';

/** Rule id of the decision on a line that changes mish's own files. */
export const OWN_FILES_RULE = 'mish-own-files';

/**
 * The folders and files mish reads its policy and state from, for this environment: the
 * defaults and the environment's overrides both (the agent may set XDG_* for a nested mish).
 */
export function mishOwnPaths(env: Record<string, string | undefined> = process.env): string[] {
  const home = env.HOME || os.homedir();
  const out = new Set<string>([path.join(home, '.config', 'mish'), path.join(home, '.local', 'state', 'mish')]);
  const abs = (v: string | undefined) => (v && path.isAbsolute(v) ? v : undefined);
  for (const [v, sub] of [
    [env.XDG_CONFIG_HOME, 'mish'],
    [env.XDG_STATE_HOME, 'mish'],
  ] as const) {
    const a = abs(v);
    if (a) out.add(path.join(a, sub));
  }
  // The operator sockets' runtime directory where this platform keeps it ($XDG_RUNTIME_DIR/mish on Linux, $TMPDIR/mish-<uid> on macOS).
  const run = abs(runtimeDir(env));
  if (run) out.add(run);
  for (const v of [env.MISH_AUDIT_LOG, env.MISH_SPOOL_DIR, env.MISH_OPERATOR_DIR, env.MISH_POLICY]) {
    const a = abs(v);
    if (a) out.add(a);
  }
  // The same places spelled with the variables, as a line may write them (`rm -rf $XDG_RUNTIME_DIR/mish`).
  for (const v of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR']) out.add(`$${v}/mish`).add(`\${${v}}/mish`);
  for (const v of ['MISH_AUDIT_LOG', 'MISH_SPOOL_DIR', 'MISH_OPERATOR_DIR', 'MISH_POLICY']) out.add(`$${v}`).add(`\${${v}}`);
  return [...out].map((p) => p.replace(/\/+$/, ''));
}

/** Programs whose path arguments (all of them) are deleted, moved away or changed in place. */
const CHANGES_ARGS = new Set(['rm', 'unlink', 'rmdir', 'shred', 'srm', 'truncate', 'mv', 'chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'trash', 'trash-put', 'gio']);
/** Of those, the ones that take a whole folder with what is in it. */
const TAKES_FOLDERS = new Set(['rm', 'rmdir', 'shred', 'srm', 'mv', 'trash', 'trash-put', 'gio']);
/** Where a relative path names a project policy folder. */
const PROJECT_DIR = /(?:^|\/)\.mish(?:\/|$)/;

/** `p` and the own path `own`: inside it or the same (0), holds it (1), unrelated (-1). */
function relation(p: string, own: string): number {
  if (p === own || p.startsWith(`${own}/`)) return 0;
  if (own.startsWith(`${p}/`)) return 1;
  return -1;
}

/** Spellings a target could be compared as: normalised, home as `~` and spelled out. */
function forms(t: string, cwd: string | undefined, home: string | undefined): string[] {
  const n = normalizePath(t, cwd);
  const out = [n, normalizePath(t)];
  if (home) {
    const h = home.replace(/\/+$/, '');
    for (const f of [...out]) {
      if (f === '~' || f.startsWith('~/')) out.push(h + f.slice(1));
      if (f === h || f.startsWith(`${h}/`)) out.push(`~${f.slice(h.length)}`);
    }
  }
  return out;
}

/** Own paths in both spellings (`/home/me/.config/mish` and `~/.config/mish`). */
function ownForms(own: readonly string[], home: string | undefined): string[] {
  const h = home?.replace(/\/+$/, '');
  const out = new Set<string>();
  for (const o of own) {
    out.add(o);
    if (h && (o === h || o.startsWith(`${h}/`))) out.add(`~${o.slice(h.length)}`);
  }
  return [...out];
}

/** Why this command changes one of mish's own files, or undefined. */
export function ownFileChange(v: CommandView, own: readonly string[], cwd: string | undefined, home: string | undefined): string | undefined {
  const c: ResolvedCommand = v.cmd;
  const targets: Array<{ t: string; folder: boolean }> = writeTargets(v).map((t) => ({ t, folder: false }));
  if (CHANGES_ARGS.has(c.name)) {
    const folder = TAKES_FOLDERS.has(c.name) && (c.name !== 'rm' || hasFlag(v.args, '-r') || hasFlag(v.args, '-R') || hasFlag(v.args, '--recursive'));
    // `find DIR -name 'mish-*' -delete` (read as rm -r DIR/*): find deletes only the entries its
    // filters match, a folder only once emptied, so a folder that merely holds mish's files is
    // not deleted with them (`find /tmp -name 'mish-*' -delete` with HOME under /tmp). Unfiltered
    // (`find ~/.config -delete`) it is every entry, and -exec rm -rf {} takes whole folders.
    const filteredFind = c.via[c.via.length - 1] === 'find -delete';
    for (const p of positionalArgs(v.args)) targets.push({ t: p, folder: (folder && !(filteredFind && p.endsWith('/*'))) || c.name === 'mv' || c.name === 'rmdir' });
  }
  // cp/ln/install destinations are in writeTargets; rsync --remove-source-files deletes its sources.
  if (c.name === 'rsync' && v.args.some((a) => a.startsWith('--remove-source-files'))) for (const p of positionalArgs(v.args)) targets.push({ t: p, folder: false });
  const mine = ownForms(own, home);
  const where = c.cwd === null ? undefined : (c.cwd ?? cwd);
  for (const { t, folder } of targets) {
    const glob = hasGlob(t);
    for (const f of forms(t, where, home)) {
      if (PROJECT_DIR.test(f)) return `${f}: a project policy folder`;
      for (const o of mine) {
        const r = glob ? globRelation(f, o) : relation(f, o);
        if (r === 0) return `${f}: mish's own file (${o})`;
        // A folder that holds mish's files (`rm -rf ~/.config`), never home or a folder above it,
        // nor everything in one (`~/*`, `/home`, `~/..`): other rules judge those (ask, like `rm -rf ~`).
        if (r === 1 && folder && !homeOrAbove(f, home) && !(glob && everythingIn(f, home)) && !namedOtherwise(c.findNames, f, o)) return `${f}: holds mish's own files (${o})`;
      }
    }
  }
  return undefined;
}

/**
 * `/`, home, or the usual folder of homes above it (`/home`, `/Users`): the recursive-delete
 * rule asks about those (like `rm -rf ~`). Any other folder above home (HOME under /tmp in a
 * test) is not protected by another rule, so deleting it stays a change to mish's own files.
 */
function homeOrAbove(f: string, home: string | undefined): boolean {
  const p = f.replace(/\/+$/, '') || '/';
  if (p === '/' || p === '~') return true;
  const h = home?.replace(/\/+$/, '');
  return h !== undefined && (p === h || (h.startsWith(`${p}/`) && /^\/(?:home|Users|root|var\/root)$/.test(p)));
}

/** A glob naming every entry of home or a folder above it (`~/*`, `~/.*`, `/home/*`). */
function everythingIn(f: string, home: string | undefined): boolean {
  const at = f.lastIndexOf('/');
  if (at < 0) return false;
  return /^(?:\*|\.\*|\.\?\?\*|\.\[!\.\]\*|\.\[\^\.\]\*)$/.test(f.slice(at + 1)) && homeOrAbove(f.slice(0, at) || '/', home);
}

/**
 * find -name PATTERN … -exec rm -rf {}: a folder holding mish's files is deleted only if it is
 * itself named so (`find /tmp -name 'cache-*'` with HOME under /tmp never matches HOME).
 */
function namedOtherwise(names: readonly string[] | undefined, target: string, own: string): boolean {
  if (!names?.length) return false;
  const at = target.lastIndexOf('/');
  const base = at >= 0 ? target.slice(0, at) : '';
  const below = own.startsWith(`${base}/`) ? own.slice(base.length + 1).split('/') : own.split('/');
  return !names.some((n) => {
    const re = globToRegex(n);
    return below.some((part) => re.test(part));
  });
}

/** relation() for a glob target: could it name the own path or a folder holding it. */
function globRelation(glob: string, own: string): number {
  // A relative glob with no known cwd names something here, not an absolute own path.
  if (!glob.startsWith('/') && !glob.startsWith('~')) return -1;
  const re = globToRegex(glob);
  if (re.test(own)) return 0;
  const parts = own.split('/');
  // Folders above it, never `/` itself (parts[0] is '' for an absolute path) nor the home folder.
  for (let k = parts.length - 1; k > 1; k--) {
    const dir = parts.slice(0, k).join('/');
    if (dir !== '~' && re.test(dir)) return 1;
  }
  // `~/.config/mish/*`: something inside it.
  if (glob.startsWith(`${own}/`)) return 0;
  return -1;
}

/** Interpreter / editor code that names mish's own files: it may write them (we cannot tell). */
export function ownFileMention(c: ResolvedCommand, own: readonly string[], home: string | undefined): string | undefined {
  const text = c.argv.slice(1).join('\n');
  if (text.length === 0) return undefined;
  for (const o of ownForms(own, home)) if (text.includes(o)) return o;
  if (/\.config\/mish\b|\.local\/state\/mish\b|(?:^|[\s'"/=])\.mish(?:\/|$)/m.test(text)) return 'mish configuration';
  return undefined;
}
