/**
 * The pre-parsed TOML tables the build writes (dist/precompiled-toml.json, by
 * scripts/build-cli.mjs) give exactly what smol-toml gives for every built-in file and the
 * policy's rule packs, and the built-in grammar files checked, and nothing for any other text: an
 * edited grammar or policy is parsed and checked as written.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { parseToml, usePrecompiledToml } from './parse-toml.js';
import { readPrecompiledTables, readPrecompiledToml } from './precompiled-toml.js';
import { checkGrammarData, compileGrammarSource, useCheckedGrammars } from '../grammar/compile.js';
import { PACKS } from '../policy/packs/index.js';

const root = path.resolve(__dirname, '../../../..');
const tables = path.join(root, 'dist', 'precompiled-toml.json');

function tomlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tomlFiles(path.join(dir, e.name)) : e.name.endsWith('.toml') ? [path.join(dir, e.name)] : [],
  );
}

afterEach(() => {
  usePrecompiledToml(undefined);
  useCheckedGrammars(undefined);
});

describe('precompiled TOML tables (dist/precompiled-toml.json)', () => {
  // dist/ is rebuilt by the vitest global setup when older than the sources or grammars.
  const lookup = readPrecompiledToml(tables);

  it('hold every built-in TOML file: a grammar file checked (the next tests), any other parsed, equal to what smol-toml parses', () => {
    expect(lookup).toBeDefined();
    const checked = readPrecompiledTables(tables)!.grammar;
    const files = tomlFiles(path.join(root, 'grammars'));
    expect(files.length).toBeGreaterThan(20);
    let parsed = 0;
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      // A grammar file's parsed TOML is not shipped: compileGrammarSource compiles it from its checked data.
      if (checked(text) !== undefined) continue;
      expect(lookup!(text), f).toEqual(JSON.parse(JSON.stringify(parse(text))));
      parsed++;
    }
    // The policy and the categories are read as TOML, not as grammars.
    expect(parsed).toBeGreaterThanOrEqual(2);
  });

  it("hold every policy pack's rules (TOML held in the code), equal to what smol-toml parses", () => {
    expect(PACKS.length).toBeGreaterThan(5);
    for (const p of PACKS) expect(lookup!(p.rules), p.id).toEqual(JSON.parse(JSON.stringify(parse(p.rules))));
  });

  it('hold every built-in grammar file checked: it compiles exactly as when parsed and checked at run time', () => {
    const checked = readPrecompiledTables(tables)!.grammar;
    const files = tomlFiles(path.join(root, 'grammars')).filter((f) => !f.includes(`${path.sep}_meta${path.sep}`));
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(checked(text), f).toEqual(checkGrammarData(parse(text)));
      const asParsed = compileGrammarSource(text, f);
      useCheckedGrammars(checked);
      expect(compileGrammarSource(text, f), f).toEqual(asParsed);
      useCheckedGrammars(undefined);
    }
    // A text that fails the schema is not held: its errors are reported as usual.
    expect(checked('[grammar]\nunknown_key = 1\n')).toBeUndefined();
  });

  it('miss on any other text, so an edited file is parsed as written', () => {
    const text = readFileSync(path.join(root, 'grammars', '_meta', 'policy.toml'), 'utf8');
    expect(lookup!(`${text}\n# edited\n`)).toBeUndefined();
    usePrecompiledToml(lookup);
    expect(parseToml('x = 1\n')).toEqual({ x: 1 });
  });

  it('each hit is a fresh object (a caller may change what it gets)', () => {
    const text = readFileSync(path.join(root, 'grammars', '_meta', 'categories.toml'), 'utf8');
    const a = lookup!(text) as Record<string, unknown>;
    a.changed = true;
    expect(lookup!(text)).not.toHaveProperty('changed');
  });

  it('a missing, foreign or corrupt file gives no lookup (everything is parsed)', () => {
    const bad = path.join(tmpdir(), `mish-precompiled-${process.pid}.json`);
    expect(readPrecompiledToml(`${bad}.absent`)).toBeUndefined();
    writeFileSync(bad, '{"format": 99, "entries": {}}');
    expect(readPrecompiledToml(bad)).toBeUndefined();
    writeFileSync(bad, '{not json');
    expect(readPrecompiledToml(bad)).toBeUndefined();
  });
});
