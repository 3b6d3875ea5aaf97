/**
 * Where policy comes from (seed 003's precedence, lowest first): the built-in rules
 * (grammars/_meta/policy.toml) < the user's ($XDG_CONFIG_HOME/mish/policy.toml or
 * ~/.config/mish/policy.toml) < the project's (.mish/policy.toml here or in a parent folder)
 * < the environment ($MISH_POLICY = a file, $MISH_POLICY_DEFAULT = the decision for commands
 * no rule names) < the command line (--policy FILE, --policy-default DECISION).
 *
 * A missing user or project file is normal; a file named explicitly that cannot be read, or any
 * malformed file, is an error the policy carries: its decisions are then held at `ask` or
 * stricter until it is fixed (decide.ts), never looser.
 */
import { existsSync } from 'node:fs';
import { readRegularFile } from '../fs/regular-file.js';
import os from 'node:os';
import path from 'node:path';
import type { Policy, PolicyLayer, LayerName } from './decide.js';
import { compilePolicyText, VERDICTS, type PolicyError, type Verdict } from './rules.js';
import { packRules } from './packs/index.js';

export const POLICY_FILE = 'policy.toml';
/** A policy file is a few KB (the built-in one 22 KB); past this it is refused as an error (held at ask), not read. */
const MAX_POLICY_FILE_BYTES = 1024 * 1024;

export interface PolicySources {
  /** grammars/ folder holding _meta/policy.toml. */
  grammarsDir: string;
  /** Project lookup starts here; default process.cwd(). */
  cwd?: string;
  /** Default process.env. */
  env?: Record<string, string | undefined>;
  /** --policy FILE. */
  cliFile?: string;
  /** --policy-default DECISION. */
  cliDefault?: string;
  /** Skip user and project files (tests, the bench). */
  builtinOnly?: boolean;
}

export function userPolicyFile(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'mish', POLICY_FILE);
}

/** The nearest `.mish/policy.toml` at or above `cwd`. */
export function projectPolicyFile(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    const f = path.join(dir, '.mish', POLICY_FILE);
    if (existsSync(f)) return f;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function readLayer(name: LayerName, file: string, required: boolean, errors: PolicyError[]): PolicyLayer | undefined {
  // Never a blocking read: a project's .mish/policy.toml committed as a link to /dev/zero, or a
  // FIFO put there, would hang the hook past its host's timeout (the host then runs the command).
  const r = readRegularFile(file, MAX_POLICY_FILE_BYTES);
  if (!r.ok) {
    if (!required && r.code === 'ENOENT') return undefined;
    errors.push({ file, message: `cannot read: ${r.message}` });
    return undefined;
  }
  const c = compilePolicyText(r.text, file);
  errors.push(...c.errors);
  return { name, file, rules: c.rules, default: c.default };
}

function parseDefault(value: string | undefined, where: string, errors: PolicyError[]): Verdict | undefined {
  if (value === undefined || value === '') return undefined;
  if ((VERDICTS as readonly string[]).includes(value)) return value as Verdict;
  errors.push({ file: where, message: `unknown decision '${value}' (one of ${VERDICTS.join(', ')})` });
  return 'ask';
}

/** Built-in rules only, from text (tests, compileMeta). */
export function builtinPolicy(text: string, file = 'policy.toml'): Policy {
  const c = compilePolicyText(text, file);
  const packs = packRules();
  return { layers: [{ name: 'builtin', file, rules: [...c.rules, ...packs.rules], default: c.default }], errors: [...c.errors, ...packs.errors] };
}

/** The layered policy. Never throws: problems are in `errors`. */
export function loadPolicy(src: PolicySources): Policy {
  const env = src.env ?? process.env;
  const errors: PolicyError[] = [];
  const layers: PolicyLayer[] = [];
  const builtin = readLayer('builtin', path.join(src.grammarsDir, '_meta', POLICY_FILE), true, errors);
  // The domain packs (packs/*.ts) belong to the built-in layer.
  const packs = packRules();
  errors.push(...packs.errors);
  if (builtin) layers.push({ ...builtin, rules: [...builtin.rules, ...packs.rules] });
  if (!src.builtinOnly) {
    const userFile = userPolicyFile(env);
    const user = readLayer('user', userFile, false, errors);
    if (user) layers.push(user);
    const projectFile = projectPolicyFile(src.cwd ?? process.cwd());
    if (projectFile && path.resolve(projectFile) !== path.resolve(userFile)) {
      const project = readLayer('project', projectFile, false, errors);
      if (project) layers.push(project);
    }
  }
  if (env.MISH_POLICY) {
    // A relative $MISH_POLICY would be read from wherever mish runs — the project the agent writes
    // in — so the agent could write the policy the next command runs under: refused (held at ask).
    if (!path.isAbsolute(env.MISH_POLICY)) errors.push({ file: '$MISH_POLICY', message: `must be an absolute path, not '${env.MISH_POLICY}' (a relative one is read from the folder mish runs in, which the agent can write)` });
    else {
      const l = readLayer('env', env.MISH_POLICY, true, errors);
      if (l) layers.push(l);
    }
  }
  const envDefault = parseDefault(env.MISH_POLICY_DEFAULT, '$MISH_POLICY_DEFAULT', errors);
  if (envDefault) layers.push({ name: 'env', file: '$MISH_POLICY_DEFAULT', rules: [], default: envDefault });
  if (src.cliFile) {
    const l = readLayer('cli', path.resolve(src.cwd ?? process.cwd(), src.cliFile), true, errors);
    if (l) layers.push(l);
  }
  const cliDefault = parseDefault(src.cliDefault, '--policy-default', errors);
  if (cliDefault) layers.push({ name: 'cli', file: '--policy-default', rules: [], default: cliDefault });
  return { layers, errors };
}
