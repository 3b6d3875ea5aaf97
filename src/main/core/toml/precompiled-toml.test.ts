/**
 * The pre-parsed TOML tables the build writes (dist/precompiled-toml.json, by
 * scripts/build-cli.mjs) give exactly what smol-toml gives for every built-in file, and nothing
 * for any other text: an edited grammar or policy is parsed as written.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { parseToml, usePrecompiledToml } from './parse-toml.js';
import { readPrecompiledToml } from './precompiled-toml.js';

const root = path.resolve(__dirname, '../../../..');
const tables = path.join(root, 'dist', 'precompiled-toml.json');

function tomlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tomlFiles(path.join(dir, e.name)) : e.name.endsWith('.toml') ? [path.join(dir, e.name)] : [],
  );
}

afterEach(() => usePrecompiledToml(undefined));

describe('precompiled TOML tables (dist/precompiled-toml.json)', () => {
  // dist/ is rebuilt by the vitest global setup when older than the sources or grammars.
  const lookup = readPrecompiledToml(tables);

  it('hold every built-in TOML file, equal to what smol-toml parses', () => {
    expect(lookup).toBeDefined();
    const files = tomlFiles(path.join(root, 'grammars'));
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      expect(lookup!(text), f).toEqual(JSON.parse(JSON.stringify(parse(text))));
    }
  });

  it('miss on any other text, so an edited file is parsed as written', () => {
    const text = readFileSync(path.join(root, 'grammars', '_meta', 'policy.toml'), 'utf8');
    expect(lookup!(`${text}\n# edited\n`)).toBeUndefined();
    usePrecompiledToml(lookup);
    expect(parseToml('x = 1\n')).toEqual({ x: 1 });
  });

  it('each hit is a fresh object (a caller may change what it gets)', () => {
    const text = readFileSync(path.join(root, 'grammars', 'npm.toml'), 'utf8');
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
