/**
 * The built-in rule packs, one file per domain (issue 19): each pack's rules join the built-in
 * layer after grammars/_meta/policy.toml, with ids `PACK/RULE`, so a decision names the pack,
 * the rule and its reason. Compiled once per process.
 */
import { compilePolicyText, type CompiledRule, type PolicyError } from '../rules.js';
import type { Pack } from './types.js';
import { deletingPack } from './deleting.js';
import { codeRunnersPack } from './code-runners.js';
import { persistencePack } from './persistence.js';
import { exfiltrationPack } from './exfiltration.js';
import { databasesPack } from './databases.js';
import { cloudPack } from './cloud.js';
import { publishingPack } from './publishing.js';
import { systemPack } from './system.js';
import { disksPack } from './disks.js';
import { permissionsPack } from './permissions.js';
import { protectedPathsPack } from './protected-paths.js';
import { mishPack } from './mish.js';
import { packagesPack } from './packages.js';

export type { Pack } from './types.js';

export const PACKS: readonly Pack[] = [deletingPack, codeRunnersPack, persistencePack, exfiltrationPack, databasesPack, cloudPack, publishingPack, systemPack, disksPack, permissionsPack, protectedPathsPack, mishPack, packagesPack];

let compiled: { rules: CompiledRule[]; errors: PolicyError[] } | undefined;

/** Every pack's rules, ids prefixed with the pack's; a malformed pack is an error the policy carries (held at ask). */
export function packRules(): { rules: CompiledRule[]; errors: PolicyError[] } {
  if (compiled) return compiled;
  const rules: CompiledRule[] = [];
  const errors: PolicyError[] = [];
  for (const p of PACKS) {
    const c = compilePolicyText(p.rules, `built-in pack ${p.id}`);
    for (const r of c.rules) rules.push({ ...r, id: `${p.id}/${r.id}` });
    errors.push(...c.errors);
  }
  compiled = { rules, errors };
  return compiled;
}
