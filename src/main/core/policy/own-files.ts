/**
 * mish's own files — its configuration and policy, grammars, state, spool, audit log and
 * operator sockets — are the operator's to change, never the agent's: an agent that could
 * write `~/.config/mish/policy.toml` (or delete the audit log) could switch the policy off for
 * every later line. Any write, delete, move, truncation or link onto one of them (or a delete
 * or move of a folder that holds one) is `forbid`, whatever the policy files say: a policy file
 * that allows everything must not also allow rewriting itself. Interpreter code, editors,
 * archivers — any program not known to only read — naming one is `ask`.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findBuiltinGrammarDir } from '../grammar/builtin-dir.js';
import { runtimeDir } from '../../platform/platform.js';
import { projectHookFiles, userHookFiles } from '../hook-config-files.js';
import { globToRegex, hasGlob, normalizePath } from './paths.js';
import { positionalArgs, type ResolvedCommand } from './resolve.js';
import { hasFlag, writeTargets, type CommandView } from './rules.js';

/** Rule id of the decision on a line that changes mish's own files. */
export const OWN_FILES_RULE = 'mish-own-files';
/** Rule id of the decision on a line that changes an agent host's hook configuration (where mish's hook lives) or runs `mish init` on it. */
export const HOOK_CONFIG_RULE = 'mish-hook-config';

/**
 * The environment variables mishOwnPaths and hookConfigPaths read (runtimeDir: XDG_RUNTIME_DIR, TMPDIR; the hosts' config
 * folders): decide() hands them only these, so it need not copy the whole environment for every line (~55 µs a copy).
 */
export const OWN_PATH_VARIABLES = ['HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'XDG_RUNTIME_DIR', 'TMPDIR', 'MISH_AUDIT_LOG', 'MISH_SPOOL_DIR', 'MISH_OPERATOR_DIR', 'MISH_POLICY', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'COPILOT_HOME'] as const;

/**
 * The folders and files mish reads its policy and state from, for this environment: the
 * defaults and the environment's overrides both (the agent may set XDG_* for a nested mish).
 */
export function mishOwnPaths(env: Record<string, string | undefined> = process.env): string[] {
  const home = env.HOME || os.homedir();
  // The cache holds the hook's compiled policy (hooks/policy-cache.ts): an entry rewritten to allow everything is obeyed.
  const out = new Set<string>([path.join(home, '.config', 'mish'), path.join(home, '.local', 'state', 'mish'), path.join(home, '.cache', 'mish')]);
  const abs = (v: string | undefined) => (v && path.isAbsolute(v) ? v : undefined);
  for (const [v, sub] of [
    [env.XDG_CONFIG_HOME, 'mish'],
    [env.XDG_STATE_HOME, 'mish'],
    [env.XDG_CACHE_HOME, 'mish'],
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
  for (const v of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'XDG_RUNTIME_DIR']) out.add(`$${v}/mish`).add(`\${${v}}/mish`);
  for (const v of ['MISH_AUDIT_LOG', 'MISH_SPOOL_DIR', 'MISH_OPERATOR_DIR', 'MISH_POLICY']) out.add(`$${v}`).add(`\${${v}}`);
  for (const p of mishInstallPaths()) out.add(p);
  return [...out].map((p) => p.replace(/\/+$/, ''));
}

/**
 * What the running mish is made of, in its package root: an agent that empties dist/hook.cjs or
 * makes bin/run-cached.cjs exit 0 has every later hook call say nothing, and the hosts then run
 * anything. The sources (src/, test/, docs/ of a checkout) are not in it: a developer of mish
 * with hooks on edits those; a build (`node scripts/build-cli.mjs`) writes dist/ from its own code,
 * which the policy does not see.
 */
const INSTALL_ENTRIES = ['bin', 'dist', 'node_modules', 'package.json', 'grammars'];

let installPaths: string[] | undefined;
/** mish's installation (INSTALL_ENTRIES in the package root this code runs from, as found and with links resolved), looked up once per process. */
export function mishInstallPaths(): string[] {
  if (installPaths) return installPaths;
  const out = new Set<string>();
  const grammars = findBuiltinGrammarDir();
  const root = grammars && path.dirname(grammars);
  let isMish = false;
  try {
    isMish = !!root && existsSync(path.join(root, 'package.json')) && (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name?: unknown }).name === 'mish';
  } catch {
    // an unreadable package.json: not known to be mish's root
  }
  if (root && isMish) {
    let real = root;
    try {
      real = realpathSync(root);
    } catch {
      // kept as found
    }
    for (const r of new Set([root, real])) for (const e of INSTALL_ENTRIES) out.add(path.join(r, e));
  }
  return (installPaths = [...out]);
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
  const over = mountPoint(v);
  if (over) targets.push({ t: over, folder: true });
  // cp/ln/install destinations are in writeTargets; rsync --remove-source-files deletes its sources.
  if (c.name === 'rsync' && v.args.some((a) => a.startsWith('--remove-source-files'))) for (const p of positionalArgs(v.args)) targets.push({ t: p, folder: false });
  const mine = ownForms(own, home);
  const install = new Set(mishInstallPaths());
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
        // A top folder holding mish's installation (`rm -rf /work`, `/opt`) is judged like the hook folders' (by the rules for those).
        if (r === 1 && folder && !homeOrAbove(f, home) && !(glob && everythingIn(f, home)) && !namedOtherwise(c.findNames, f, o) && !(install.has(o) && /^\/[^/]*$/.test(f.replace(/\/\*$/, '')))) return `${f}: holds mish's own files (${o})`;
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
  // Case-blind: with `shopt -s nocaseglob` (set anywhere earlier) `~/.config/MIS[H]` names ~/.config/mish.
  const re = caseBlind(globToRegex(glob));
  if (re.test(own)) return 0;
  const parts = own.split('/');
  // Folders above it, never `/` itself (parts[0] is '' for an absolute path) nor the home folder.
  for (let k = parts.length - 1; k > 1; k--) {
    const dir = parts.slice(0, k).join('/');
    if (dir !== '~' && re.test(dir)) return 1;
  }
  // `~/.config/mish/*`: something inside it.
  if (glob.startsWith(`${own}/`)) return 0;
  // A glob in a folder name (`~/.config/m*sh/policy.toml`): its first folders stand for the own
  // folder, and the rest names a file mish keeps there (or is itself a glob).
  const segs = glob.split('/');
  if (segs.length > parts.length && caseBlind(globToRegex(segs.slice(0, parts.length).join('/'))).test(own)) {
    const rest = segs.slice(parts.length).join('/');
    if (hasGlob(rest) || OWN_NAMES.test(rest)) return 0;
  }
  return -1;
}

const caseBlind = (re: RegExp): RegExp => new RegExp(re.source, 'i');

/** Names of what mish keeps in its folders (a glob's tail naming one of them is aimed at mish). */
const OWN_NAMES = /^(?:policy\.toml|audit\.jsonl|grammars|spool|run|servers|config\.toml)(?:\/|$)|\.(?:toml|jsonl)$/;

/** `text` names `p` (followed by its end, a `/`, or a character no file name goes on with here). */
function mentions(text: string, p: string): boolean {
  for (let at = text.indexOf(p); at >= 0; at = text.indexOf(p, at + 1)) if (!/[\w.-]/.test(text[at + p.length] ?? '')) return true;
  return false;
}

/** Interpreter / editor code that names mish's own files: it may write them (we cannot tell). */
export function ownFileMention(c: ResolvedCommand, own: readonly string[], home: string | undefined): string | undefined {
  const text = c.argv.slice(1).join('\n');
  if (text.length === 0) return undefined;
  const install = new Set(mishInstallPaths());
  for (const o of ownForms(own, home)) {
    // The path itself or below it: `~/.cache/mish-bench` is another folder than `~/.cache/mish`.
    if (!mentions(text, o)) continue;
    // Running mish (`node <root>/bin/mish.js …`, `cat <root>/dist/x`): an argument that is only a path into the installation is what the program runs or reads; code around it (`-e 'fs.writeFileSync("<root>/dist/hook.cjs", …)'`) may write it.
    if (install.has(o) && c.argv.slice(1).every((a) => !a.includes(o) || /^[^\s'"`;(){}$|&<>]+$/.test(a))) continue;
    return o;
  }
  if (/\.config\/mish\b|\.local\/state\/mish\b|(?:^|[\s'"/=])\.mish(?:\/|$)/m.test(text)) return 'mish configuration';
  return undefined;
}

// ---------------------------------------------------------------- the agents' hook configuration

/**
 * The agent hosts' user-scope hook configuration files for this environment (hook-config-files.ts:
 * ~/.claude/settings.json, $CODEX_HOME/hooks.json, ~/.copilot/hooks/mish.json, …). Project files
 * (`.claude/settings.json`, `.codex/hooks.json`, …) are recognised by their tail wherever the
 * project is, so they need no entry here. `launchers`: the files the installed hook runs
 * (bin/mish-hook.sh, bin/mish-hook.cjs, as the hook knows them): removing or rewriting them
 * switches the hook off as surely (a hook program that is gone exits 127, which the hosts ignore).
 */
export function hookConfigPaths(env: Record<string, string | undefined> = process.env, launchers: readonly string[] = []): string[] {
  return [...userHookFiles(env), ...launchers].map((p) => p.replace(/\/+$/, ''));
}

/** `.claude/settings.json`, `.codex/hooks.json`, … (relative to any project root). */
const PROJECT_HOOK_FILES = projectHookFiles();
/** The folders holding them (`.claude`, `.github/hooks`, `.github`): deleting one deletes the file. */
const PROJECT_HOOK_FOLDERS = [...new Set(PROJECT_HOOK_FILES.flatMap((f) => f.split('/').slice(0, -1).map((_, k, a) => a.slice(0, k + 1).join('/'))))];
/** Programs that delete or move away the paths they name (a move's destination is a write). */
const REMOVES = new Set(['rm', 'unlink', 'rmdir', 'shred', 'srm', 'truncate', 'trash', 'trash-put', 'gio', 'mv']);
/** Commands whose `>` redirect only empties the file (`: > f`, `true > f`, `> f`). */
const EMPTIES = new Set(['', ':', 'true', 'false']);
/** Programs that change a file's mode, owner or attributes: the host may stop reading it. */
const CHANGES_MODE = new Set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl']);

export interface HookConfigChange {
  decision: 'forbid' | 'ask';
  reason: string;
}

/** Is `f` (a normalised form) one of the hook configuration files? Which, if so. */
function hookFileAt(f: string, mine: readonly string[]): string | undefined {
  if (mine.includes(f)) return f;
  return PROJECT_HOOK_FILES.find((rel) => f === rel || f.endsWith(`/${rel}`)) && f;
}

/**
 * Is `f` a folder that holds one (never `/`, home or above: other rules judge those)? `project`:
 * it only looks like a project's (`.claude`, `.github`) — whether it holds mish's hook is unknown.
 */
function hookFolderAt(f: string, mine: readonly string[], home: string | undefined): { held: string; project: boolean } | undefined {
  if (homeOrAbove(f, home)) return undefined;
  // A top folder (`/etc`, `/opt`) is judged by the rules for those (rm -rf /etc asks), not as a hook folder.
  const held = /^\/[^/]+$/.test(f) ? undefined : mine.find((o) => o.startsWith(`${f}/`));
  if (held) return { held, project: false };
  const rel = PROJECT_HOOK_FOLDERS.find((d) => f === d || f.endsWith(`/${d}`));
  const file = rel && PROJECT_HOOK_FILES.find((x) => x.startsWith(`${rel}/`));
  return file ? { held: `${f}/${file.slice(rel.length + 1)}`, project: true } : undefined;
}

/** Paths a glob could stand for: the user files, and the project files under the glob's fixed folder. */
function globCandidates(glob: string, mine: readonly string[]): string[] {
  const fixed = glob.slice(0, glob.search(/[*?[]/)).replace(/\/[^/]*$/, '');
  // The shell's `*` skips dot-files: only a glob written with the dot (`.[!.]*`, `.c*`) can name `.claude`.
  const dotted = glob.slice(fixed.length + 1).startsWith('.');
  const out = [...mine];
  for (const rel of PROJECT_HOOK_FILES) {
    const segs = rel.split('/');
    for (let i = 0; i < segs.length; i++) if ((i === 0 && dotted) || fixed.endsWith(`/${segs.slice(0, i).join('/')}`)) out.push(`${i === 0 ? fixed : fixed.slice(0, fixed.length - segs.slice(0, i).join('/').length - 1)}/${rel}`);
  }
  return out;
}

/** The package mish is installed as (npm's name in package.json). */
const MISH_PACKAGE = 'mish';

/** `npm uninstall -g mish`, `npm rm -g mish`, `pnpm remove -g mish`, `yarn global remove mish`, `bun remove -g mish`: mish itself removed. */
function mishPackageRemoval(c: ResolvedCommand): string | undefined {
  if (!/^(?:npm|pnpm|yarn|bun)$/.test(c.name)) return undefined;
  const a = c.argv.slice(1);
  const sub = a.findIndex((x) => !x.startsWith('-') && x !== 'global');
  const global = a.some((x) => x === '-g' || x === '--global' || x === '--location=global' || x === 'global');
  if (sub < 0 || !global || !/^(?:uninstall|un|unlink|remove|rm|r)$/.test(a[sub])) return undefined;
  const pkg = a.slice(sub + 1).find((x) => x.replace(/@[^@/]*$/, '') === MISH_PACKAGE || x === MISH_PACKAGE);
  return pkg === undefined ? undefined : `${c.name} ${a[sub]} -g ${pkg} uninstalls mish`;
}

/**
 * Does this command change an agent host's hook configuration, the file holding mish's hook?
 * Deleting, emptying or moving one away (or a folder holding one) only switches supervision off:
 * `forbid`, the operator does it in their own terminal (`mish init <agent> --uninstall`).
 * Writing one (`>`, tee, cp/mv onto it, sed -i, sponge, chmod) may be the user's own edit
 * (permissions, env, MCP servers) or may drop the hook — the policy cannot see the content — so
 * a human decides (`ask`). Reading stays allowed.
 */
export function hookConfigChange(v: CommandView, hookFiles: readonly string[], cwd: string | undefined, home: string | undefined, own: readonly string[] = []): HookConfigChange | undefined {
  const c: ResolvedCommand = v.cmd;
  const removed: Array<{ t: string; folder: boolean }> = [];
  const written: Array<{ t: string; folder: boolean }> = [];
  const pos = positionalArgs(v.args);
  const fromNull = pos[0] === '/dev/null' || v.args.includes('if=/dev/null');
  const recursive = hasFlag(v.args, '-r') || hasFlag(v.args, '-R') || hasFlag(v.args, '-a') || hasFlag(v.args, '--recursive') || c.name === 'rsync';
  if (REMOVES.has(c.name)) {
    const sources = c.name === 'mv' && pos.length >= 2 ? pos.slice(0, -1) : pos;
    const folder = c.name !== 'truncate' && c.name !== 'unlink' && (c.name !== 'rm' || recursive);
    // `find DIR -name 'x*' -delete` (read as rm -r DIR/*) deletes only what its filters match (as ownFileChange reads it).
    const filteredFind = c.via[c.via.length - 1] === 'find -delete';
    for (const p of sources) if (!(c.name === 'truncate' && /^[-+]?\d/.test(p))) removed.push({ t: p, folder: folder && !(filteredFind && p.endsWith('/*')) });
  }
  // A mount over the file or a folder holding it hides it from the host as surely as deleting it.
  const over = mountPoint(v);
  if (over) removed.push({ t: over, folder: true });
  if (CHANGES_MODE.has(c.name)) for (const p of pos.slice(1)) written.push({ t: p, folder: recursive });
  if (c.name === 'sponge') for (const p of pos) written.push({ t: p, folder: false });
  // Unpacking into a folder holding one may overwrite it (`tar -xf x.tar -C ~/.claude`, `unzip -o x.zip -d ~/.codex`).
  const extracts = (c.name === 'tar' || c.name === 'bsdtar') && v.args.some((a, i) => a === '--extract' || a === '--get' || /^-[a-zA-Z]*x[a-zA-Z]*$/.test(a) || (i === 0 && /^[a-zA-Z]*x[a-zA-Z]*$/.test(a)));
  const into = extracts ? optionValue(v.args, ['-C', '--directory']) : c.name === 'unzip' && !hasFlag(v.args, '-l') ? optionValue(v.args, ['-d']) : undefined;
  if (into) written.push({ t: into, folder: true });
  for (const t of writeTargets(v)) {
    if (c.name === 'truncate') continue;
    const redirect = c.redirects.some((r) => r.target === t && r.op !== '>>' && r.op !== '&>>');
    const empties = (redirect && (EMPTIES.has(c.name) || (c.name === 'exec' && pos.length === 0) || (c.name === 'cat' && pos.length === 1 && pos[0] === '/dev/null'))) || ((c.name === 'cp' || c.name === 'dd' || c.name === 'ln') && fromNull);
    (empties ? removed : written).push({ t, folder: false });
    // cp/mv/install/ln into a folder: the file arrives as the folder's entry of that name.
    if (['cp', 'mv', 'install', 'ln'].includes(c.name) && pos.length >= 2 && t === pos[pos.length - 1]) for (const src of pos.slice(0, -1)) written.push({ t: `${t.replace(/\/+$/, '')}/${path.basename(src)}`, folder: false });
    // `cp -t DIR FILE…`, `install --target-directory=DIR FILE…`: every operand arrives in DIR.
    const into = ['cp', 'mv', 'install', 'ln'].includes(c.name) ? optionValue(v.args, ['--target-directory', '-t']) : undefined;
    if (into !== undefined && t === into) for (const src of pos.filter((p) => p !== into)) written.push({ t: `${t.replace(/\/+$/, '')}/${path.basename(src)}`, folder: false });
    // A recursive copy into a folder holding one may overwrite it (its contents are unknown here).
    if (recursive && ['cp', 'rsync'].includes(c.name)) written.push({ t, folder: true });
  }
  const home_ = intoHome(v, c.cwd === null ? undefined : (c.cwd ?? cwd), home, ownForms([...hookFiles, ...own], home));
  if (home_) return { decision: 'ask', reason: `${home_}: files it writes there are not known here and may replace mish's own or an agent's hook configuration (where mish's hook is installed); a human must decide` };
  // `ln -s ~/.cursor c`: later writes through the link (`> c/hooks.json`) are not followed, so making it asks.
  const linked = c.name === 'ln' && (hasFlag(v.args, '-s') || hasFlag(v.args, '--symbolic')) ? (pos.length >= 2 ? pos.slice(0, -1) : pos) : [];
  if (removed.length === 0 && written.length === 0 && linked.length === 0) return undefined;
  const mine = ownForms(hookFiles, home);
  const where = c.cwd === null ? undefined : (c.cwd ?? cwd);
  /** The hook file the list touches, and whether only as a project-looking folder. */
  const find = (list: typeof removed): { file: string; project: boolean } | undefined => {
    let maybe: { file: string; project: boolean } | undefined;
    for (const { t, folder } of list) {
      for (const f of forms(t, where, home)) {
        if (hasGlob(t)) {
          for (const cand of globCandidates(f, mine)) {
            const r = globRelation(f, cand);
            // A project file under a glob (`rm -rf .[!.]*`) is a guess that it exists: ask, never forbid.
            const guessed = !mine.includes(cand);
            if (r === 0 || (r === 1 && folder && !(everythingIn(f, home) || homeOrAbove(f, home)) && !/^\/[^/]*(?:\/[^/]*)?$/.test(f))) {
              if (!guessed) return { file: cand, project: false };
              maybe ??= { file: cand, project: true };
            }
          }
          continue;
        }
        const file = hookFileAt(f, mine);
        if (file) return { file, project: false };
        const held = folder ? hookFolderAt(f, mine, home) : undefined;
        if (held && !held.project) return { file: held.held, project: false };
        maybe ??= held && { file: held.held, project: true };
      }
    }
    return maybe;
  };
  for (const t of linked) {
    for (const f of forms(t, c.cwd === null ? undefined : (c.cwd ?? cwd), home)) {
      const held = hookFileAt(f, mine) ?? hookFolderAt(f, mine, home)?.held;
      if (held) return { decision: 'ask', reason: `makes a link to ${held}, ${what(held)}: what is later written through the link is not followed; a human must decide` };
    }
  }
  const gone = find(removed);
  if (gone && !gone.project) return { decision: 'forbid', reason: `deletes, empties or moves away ${gone.file}, ${what(gone.file)}: that switches mish's supervision of the agent off; only the operator does that, in their own terminal (mish init <agent> --uninstall)` };
  if (gone) return { decision: 'ask', reason: `deletes or moves a folder that may hold ${gone.file}, an agent's hook configuration (where mish's hook is installed); a human must decide` };
  const changed = find(written);
  if (changed) return { decision: 'ask', reason: `changes ${changed.file}, ${what(changed.file)}: a change can remove mish's hook or turn the agent's hooks off, and mish cannot see what is written; a human must decide` };
  // The line moved to a directory mish cannot follow (`cd -`, CDPATH, a HOME set on the line, `cd "$X"`):
  // a relative path there named like mish's own or a hook file may be one.
  if (c.cwd === null) {
    const named = [...removed, ...written].find(({ t }) => !t.startsWith('/') && !t.startsWith('~') && GUARDED_NAMES.test(t.replace(/\/+$/, '')));
    if (named) return { decision: 'ask', reason: `changes ${named.t} in a directory mish cannot follow here, named like mish's own or an agent's hook file (where mish's hook is installed); a human must decide` };
  }
  return undefined;
}

/** Base names of mish's own files and the hosts' hook files (the relative-path backstop above). */
const GUARDED_NAMES = /(?:^|\/)(?:policy\.toml|audit\.jsonl|settings\.json|settings\.local\.json|hooks\.json|mish\.json|config\.toml|mish-hook\.(?:sh|cjs)|\.mish|\.claude|\.codex|\.gemini|\.cursor|\.copilot|mish)$/;

/** What a guarded file is, for the reason: the launcher an agent's hook runs (bin/mish-hook.sh, bin/mish-hook.cjs), or a hook configuration. */
function what(file: string): string {
  return /(?:^|\/)mish-hook\.(?:sh|cjs)$/.test(file) ? "the program mish's hook runs (a hook that cannot run, or that says nothing, leaves the agent unsupervised)" : "an agent's hook configuration (where mish's hook is installed)";
}

/** Editors, interpreters, unknown programs naming a hook configuration file: they may change it. */
export function hookConfigMention(c: ResolvedCommand, hookFiles: readonly string[], home: string | undefined): string | undefined {
  // git reads and records files (add, diff, commit, log, show, status, blame); its other subcommands may rewrite them.
  if (c.name === 'git' && /^(?:add|diff|commit|log|show|status|blame|ls-files|grep)$/.test(positionalArgs(c.argv.slice(1))[0] ?? '')) return undefined;
  const text = c.argv.slice(1).join('\n');
  if (text.length === 0) return undefined;
  // Named whole: `settings.json.bak`, `settings.json~` are other files.
  const named = (name: string, before: RegExp) => {
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) if ((at === 0 || before.test(text[at - 1])) && !/[\w.~-]/.test(text[at + name.length] ?? '')) return true;
    return false;
  };
  for (const o of ownForms(hookFiles, home)) if (named(o, /[^\w.-]/)) return o;
  for (const rel of PROJECT_HOOK_FILES) if (named(rel, /[\s'"/=]/)) return rel;
  return undefined;
}

/** The mish program in an argv: `mish`, `node …/bin/mish.js`, `npx mish`, `pnpm dlx mish`, … — the index of its first argument. */
function mishArgsAt(argv: readonly string[], name: string): number | undefined {
  const isMishScript = (a: string | undefined) => a !== undefined && /(?:^|\/)(?:mish|mish\.m?js|mish-cli\.m?js|cli\.m?js)$/.test(a) && /mish/.test(a);
  if (name === 'mish') return 1;
  if (/^(?:node|nodejs|bun|deno)$/.test(name)) {
    const k = argv.findIndex((a, i) => i > 0 && !a.startsWith('-'));
    return k > 0 && isMishScript(argv[k]) ? k + 1 : undefined;
  }
  if (/^(?:npx|bunx|pnpx|pnpm|yarn|npm)$/.test(name)) {
    const k = argv.findIndex((a, i) => i > 0 && /^(?:@[\w.-]+\/)?mish(?:@[\w.^~<>=*-]+)?$/.test(a));
    return k > 0 ? k + 1 : undefined;
  }
  return undefined;
}

/**
 * `mish init <agent>` run by the agent: installing writes the hook command (from the agent's own
 * PATH and environment), `--uninstall` removes it — either way the agent would be rewriting what
 * supervises it. Listing (`mish init`), `--dry-run` and `--help` change nothing.
 */
export function mishInitChange(c: ResolvedCommand): HookConfigChange | undefined {
  const removed = mishPackageRemoval(c);
  if (removed) return { decision: 'forbid', reason: `${removed}: the agent's hook runs mish, and a hook that cannot start lets every command through unchecked; only the operator removes mish` };
  const at = mishArgsAt(c.argv, c.name);
  if (at === undefined) return undefined;
  const rest = c.argv.slice(at);
  const k = rest.findIndex((a) => !a.startsWith('-'));
  if (k < 0 || rest[k] !== 'init') return undefined;
  const args = rest.slice(k + 1);
  if (args.some((a) => a === '--dry-run' || a === '-h' || a === '--help')) return undefined;
  const agent = args.find((a) => !a.startsWith('-'));
  if (agent === undefined) return undefined;
  const what = args.includes('--uninstall') ? `removes mish's hook from ${agent}` : `rewrites mish's hook for ${agent}`;
  return { decision: 'forbid', reason: `${what}: installing or removing the hook that supervises the agent is an operator action; run it in your own terminal` };
}

/**
 * The host's own file-editing tool (Claude Code's Edit/Write) about to change `file`: mish's own
 * files are `forbid` (as `>` onto them is), an agent's hook configuration is `ask` (as a write to
 * it from the shell is); anything else is not the policy's business here (undefined).
 */
export function fileEditChange(file: string, own: readonly string[], hookFiles: readonly string[], cwd: string | undefined, home: string | undefined): { decision: 'forbid' | 'ask'; rule: string; reason: string } | undefined {
  const mineOwn = ownForms(own, home);
  const mineHook = ownForms(hookFiles, home);
  for (const f of forms(file, cwd, home)) {
    if (PROJECT_DIR.test(f) || mineOwn.some((o) => relation(f, o) === 0)) return { decision: 'forbid', rule: OWN_FILES_RULE, reason: `changes mish's own configuration, policy or audit files (${f}); only the operator edits them` };
  }
  for (const f of forms(file, cwd, home)) {
    const hit = hookFileAt(f, mineHook);
    if (hit) return { decision: 'ask', rule: HOOK_CONFIG_RULE, reason: `changes ${hit}, ${what(hit)}: a change can remove mish's hook or turn the agent's hooks off; a human must decide` };
  }
  return undefined;
}

/** git subcommands that write files of the work tree (its content comes from the repository, not seen here). */
const TREE_WRITERS = /^(?:checkout|restore|reset|stash|switch|merge|pull|cherry-pick|am|clean|rebase|revert|read-tree|checkout-index|worktree)$/;

/** Folders in home that hold mish's own or a host's hook files: copying one into home replaces what is there. */
const HOME_DOT_FOLDERS = /(?:^|\/)\.(?:config|local|claude|codex|gemini|cursor|copilot|mish)\/?$/;

/**
 * A copy, unpack, patch or checkout whose files land in home itself, from a tree whose contents
 * are not known here (`cp -r d/. ~`, `tar -xf x.tar -C ~`, `patch -d ~`, `git -C ~ checkout -f -- .claude`).
 * Copying one named folder into home (`cp -r notes ~`) makes ~/notes and stays allowed.
 */
function intoHome(v: CommandView, where: string | undefined, home: string | undefined, guarded: readonly string[] = []): string | undefined {
  const c = v.cmd;
  const homeItself = (t: string | undefined) => t !== undefined && forms(t, where, home).some((f) => f.replace(/\/+$/, '') === '~' || (home !== undefined && f.replace(/\/+$/, '') === home.replace(/\/+$/, '')));
  // A tree whose files are not known (a patch, a checkout) written into a folder holding mish's own
  // or a hook file, or inside one (`cd ~/.claude && patch -p1 < x.diff`, `--work-tree ~/.config`).
  const inGuarded = (t: string) => forms(t, where, home).some((f) => !homeOrAbove(f, home) && !/^\/[^/]*$/.test(f) && guarded.some((o) => relation(f.replace(/\/+$/, ''), o) === 0 || (relation(f.replace(/\/+$/, ''), o) === 1 && HOME_DOT_FOLDERS.test(f))));
  const isHome = (t: string | undefined) => t !== undefined && (homeItself(t) || inGuarded(t));
  const pos = positionalArgs(v.args);
  const here = where ?? '.';
  if ((c.name === 'cp' || c.name === 'rsync') && pos.length >= 2 && isHome(pos[pos.length - 1])) {
    const recursive = c.name === 'rsync' || hasFlag(v.args, '-r') || hasFlag(v.args, '-R') || hasFlag(v.args, '-a') || hasFlag(v.args, '--recursive') || hasFlag(v.args, '--archive');
    // `d/.`, `d/*`, `.` (and rsync's `d/`) copy a folder's contents; `.config` replaces home's own.
    const src = pos.slice(0, -1).find((s) => /(?:^|\/)\.$|\/\*$|^\*$/.test(s) || (c.name === 'rsync' && s.endsWith('/')) || HOME_DOT_FOLDERS.test(s));
    if (recursive && src) return `copies the contents of ${src} into home`;
  }
  const extracts = (c.name === 'tar' || c.name === 'bsdtar') && v.args.some((a, i) => a === '--extract' || a === '--get' || /^-[a-zA-Z]*x[a-zA-Z]*$/.test(a) || (i === 0 && /^[a-zA-Z]*x[a-zA-Z]*$/.test(a)));
  if (extracts && isHome(optionValue(v.args, ['-C', '--directory']) ?? here)) return 'unpacks an archive into home';
  if (c.name === 'unzip' && !hasFlag(v.args, '-l') && isHome(optionValue(v.args, ['-d']) ?? here)) return 'unpacks an archive into home';
  if (c.name === 'patch' && isHome(optionValue(v.args, ['-d', '--directory']) ?? here)) return 'applies a patch in home';
  if (c.name === 'git') {
    const sub = positionalArgs(v.args.filter((a, i) => !(v.args[i - 1] === '-C' || v.args[i - 1] === '-c' || v.args[i - 1] === '--git-dir' || v.args[i - 1] === '--work-tree')))[0];
    const dir = optionValue(v.args, ['--work-tree']) ?? v.args.find((a) => /^core\.worktree=/i.test(a))?.replace(/^[^=]*=/, '') ?? optionValue(v.args, ['-C']) ?? here;
    // A work tree whose value is not known here (`--work-tree "$X"`, GIT_WORK_TREE=$(…)): a checkout there may land anywhere.
    const k = dir === here ? -1 : c.argv.findIndex((a) => a === dir || a.endsWith(`=${dir}`));
    if (k > 0 && c.literal[k] === false && TREE_WRITERS.test(sub ?? '') && !/^(?:switch|merge|pull|rebase|revert|cherry-pick|am)$/.test(sub ?? '')) return `runs git ${sub} in a work tree not known here (${dir})`;
    if (sub === 'apply' && (isHome(optionValue(v.args, ['--directory'])) || isHome(dir))) return 'applies a patch in home';
    if (TREE_WRITERS.test(sub ?? '') && isHome(dir)) return `runs git ${sub} with ${homeItself(dir) ? 'home' : `${dir}, a folder holding mish's own or a hook file,`} as the work tree`;
    // `git config core.worktree ~`: every later git command on that repository writes there.
    const cfg = v.args.findIndex((a) => /^core\.worktree$/i.test(a));
    if (sub === 'config' && cfg >= 0 && isHome(v.args[cfg + 1])) return `sets the repository's work tree to ${v.args[cfg + 1]}`;
  }
  return undefined;
}

/** Where `mount` puts something (`mount --bind e ~/.claude`, `mount -t tmpfs none DIR`, `--target DIR`): it hides what was there. */
function mountPoint(v: CommandView): string | undefined {
  if (v.cmd.name !== 'mount') return undefined;
  const target = optionValue(v.args, ['--target']);
  if (target) return target;
  // Options taking a value, so their values are not read as the source or the mount point.
  const operands: string[] = [];
  for (let i = 0; i < v.args.length; i++) {
    const a = v.args[i];
    if (/^(?:-[otLUNBT]|--options|--types|--source|--label|--uuid|--namespace|--test-opts|--fstab)$/.test(a)) i++;
    else if (!a.startsWith('-')) operands.push(a);
  }
  return operands.length >= 2 || (operands.length === 1 && /^(?:--bind|--rbind|--move|-B|-R|-M)$/.test(v.args[0] ?? '')) ? operands[operands.length - 1] : undefined;
}

/** The value of the first of these options (`-C DIR`, `-CDIR`, `--directory=DIR`). */
function optionValue(args: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    for (const n of names) {
      if (args[i] === n) return args[i + 1];
      if (n.startsWith('--') && args[i].startsWith(`${n}=`)) return args[i].slice(n.length + 1);
      if (!n.startsWith('--') && args[i].startsWith(n) && args[i].length > n.length) return args[i].slice(n.length);
    }
  }
  return undefined;
}
