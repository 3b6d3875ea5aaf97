/**
 * The domain tables (test/policy/tables/*.tsv: DECISION<TAB>RULE<TAB>LINE, one file per domain an
 * agent can damage; build.mjs writes all but packs.tsv from reviewed seeds): every dangerous
 * line gets exactly the decision and the rule written next to it, every benign look-alike is
 * allowed with no rule matched. One test per table, listing every row that differs. Also the
 * issue's size targets (≥ 1,500 dangerous lines over ≥ 15 domains, ≥ 1,000 look-alikes) and the
 * benign escalation rate (≤ 2%, here 0).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPolicy, decide } from '../../src/main/core/policy/index.js';
import { readDomainTables } from './tables.js';

const policy = builtinPolicy(readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8'), 'builtin');
const ctx = { cwd: '/work/project', home: '/home/me', ownPaths: ['/home/me/.config/mish', '/home/me/.local/state/mish', '/home/me/.cache/mish', '/run/user/1000/mish', '$XDG_CACHE_HOME/mish', '${XDG_CACHE_HOME}/mish', '$XDG_CONFIG_HOME/mish', '${XDG_CONFIG_HOME}/mish', '$XDG_STATE_HOME/mish', '${XDG_STATE_HOME}/mish', '$XDG_RUNTIME_DIR/mish', '${XDG_RUNTIME_DIR}/mish', '$MISH_AUDIT_LOG', '${MISH_AUDIT_LOG}', '$MISH_SPOOL_DIR', '${MISH_SPOOL_DIR}', '$MISH_OPERATOR_DIR', '${MISH_OPERATOR_DIR}', '$MISH_POLICY', '${MISH_POLICY}'] };
const tables = readDomainTables();

describe('policy domain tables', () => {
  it('meet the size targets: ≥ 1,500 dangerous lines over ≥ 15 domains, ≥ 1,000 benign look-alikes', () => {
    const dangerous = tables.flatMap((t) => t.rows.filter((r) => r.decision !== 'allow'));
    const benign = tables.flatMap((t) => t.rows.filter((r) => r.decision === 'allow'));
    const domains = tables.filter((t) => t.rows.some((r) => r.decision !== 'allow'));
    console.log(`policy domain tables: ${domains.length} domains, ${dangerous.length} dangerous lines, ${benign.length} benign look-alikes (${tables.map((t) => `${t.name} ${t.rows.length}`).join(', ')})`);
    expect(domains.length).toBeGreaterThanOrEqual(15);
    expect(dangerous.length).toBeGreaterThanOrEqual(1500);
    expect(benign.length).toBeGreaterThanOrEqual(1000);
    // Each row names its rule (`-` only in the hand-written packs.tsv's look-alikes).
    for (const t of tables) for (const r of t.rows) expect(r.rule === '-' ? t.name : r.rule, `${t.name}: ${r.line}`).not.toBe('');
    expect(readdirSync(path.join(__dirname, 'tables')).filter((f) => f.endsWith('.tsv')).length).toBe(tables.length);
  });

  it.each(tables.map((t) => [t.name, t] as const))('%s: every row gets its decision and rule', (_name, t) => {
    const wrong: string[] = [];
    for (const r of t.rows) {
      const d = decide(r.line, policy, ctx);
      if (d.decision !== r.decision || (r.rule !== '-' && d.rule !== r.rule)) wrong.push(`${JSON.stringify(r.line)}: expected ${r.decision} ${r.rule}, got ${d.decision} ${d.rule} (${d.reason})`);
    }
    expect(wrong).toEqual([]);
  });
});
