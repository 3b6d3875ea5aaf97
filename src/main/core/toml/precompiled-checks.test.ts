/**
 * The built-in policy texts (grammars/_meta/policy.toml and the rule packs) and the categories
 * file come checked by the build (dist/precompiled-toml.json `policies`, `categories`): with the
 * lookups installed they compile exactly as when parsed and checked with zod at run time, and an
 * edited text misses.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { usePrecompiledToml } from './parse-toml.js';
import { readPrecompiledTables } from './precompiled-toml.js';
import { checkPolicyData, compilePolicyText, PARSED_WITH_DEFAULTS, useCheckedPolicies, withPolicyDefaults } from '../policy/rules.js';
import { PACKS } from '../policy/packs/index.js';
import { checkCategoriesData, compileMeta, loadRouterMeta, useCheckedCategories, withCategoriesDefaults } from '../router/meta.js';
import { parse } from 'smol-toml';

const root = path.resolve(__dirname, '../../../..');
const tables = readPrecompiledTables(path.join(root, 'dist', 'precompiled-toml.json'))!;
const policyFile = path.join(root, 'grammars', '_meta', 'policy.toml');
const categoriesFile = path.join(root, 'grammars', '_meta', 'categories.toml');

afterEach(() => {
  usePrecompiledToml(undefined);
  useCheckedPolicies(undefined);
  useCheckedCategories(undefined);
});

describe('checked policy and categories tables (dist/precompiled-toml.json)', () => {
  it('hold every built-in policy text; each compiles exactly as when parsed and checked at run time', () => {
    const texts = [readFileSync(policyFile, 'utf8'), ...PACKS.map((p) => p.rules)];
    for (const text of texts) {
      const hit = tables.policy(text);
      expect(hit).toBeDefined();
      const data = parse(text) as Record<string, unknown>;
      expect(hit === PARSED_WITH_DEFAULTS ? withPolicyDefaults(data) : hit).toEqual(checkPolicyData(JSON.parse(JSON.stringify(data))));
      const asChecked = compilePolicyText(text, 'f');
      usePrecompiledToml(tables.toml);
      useCheckedPolicies(tables.policy);
      expect(compilePolicyText(text, 'f')).toEqual(asChecked);
      useCheckedPolicies(undefined);
      usePrecompiledToml(undefined);
    }
  });

  it('hold the categories file; it compiles exactly as when parsed and checked at run time', () => {
    const text = readFileSync(categoriesFile, 'utf8');
    const hit = tables.categories(text);
    expect(hit).toBeDefined();
    const data = parse(text) as Record<string, unknown>;
    expect(hit === PARSED_WITH_DEFAULTS ? withCategoriesDefaults(data) : hit).toEqual(checkCategoriesData(JSON.parse(JSON.stringify(data))));
    const asChecked = compileMeta(text, '');
    const loaded = loadRouterMeta(path.join(root, 'grammars'), { builtinOnly: true, env: {} });
    usePrecompiledToml(tables.toml);
    useCheckedPolicies(tables.policy);
    useCheckedCategories(tables.categories);
    expect(compileMeta(text, '')).toEqual(asChecked);
    expect(loadRouterMeta(path.join(root, 'grammars'), { builtinOnly: true, env: {} })).toEqual(loaded);
  });

  it('miss on any other text: an edited or malformed file is parsed and checked as written', () => {
    const text = readFileSync(policyFile, 'utf8');
    expect(tables.policy(`${text}\n# edited\n`)).toBeUndefined();
    expect(tables.categories(`${readFileSync(categoriesFile, 'utf8')}\n# edited\n`)).toBeUndefined();
    useCheckedPolicies(tables.policy);
    useCheckedCategories(tables.categories);
    const bad = '[[rule]]\nid = "x"\nreason = "y"\nargs_any = "("\n';
    expect(compilePolicyText(bad, 'f').errors).toHaveLength(1);
    expect(compilePolicyText('[[rule]]\nid = "x"\n', 'f').errors[0].message).toMatch(/reason/);
    expect(compileMeta('[commands]\ncp = "narate"\n', '').ok).toBe(false);
  });
});
