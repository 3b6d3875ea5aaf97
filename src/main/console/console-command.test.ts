import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findElectronBinary, packageRoot, parseConsoleArgs } from './console-command.js';

describe('mish console arguments', () => {
  it('parses --web and --port', () => {
    expect(parseConsoleArgs([])).toEqual({ ok: true, value: { web: false, help: false, ssh: [] } });
    expect(parseConsoleArgs(['--demo'])).toEqual({ ok: true, value: { web: false, help: false, ssh: [], demo: true } });
    expect(parseConsoleArgs(['--web', '--port', '8123'])).toEqual({ ok: true, value: { web: true, help: false, ssh: [], port: 8123 } });
    expect(parseConsoleArgs(['--ssh', 'alice@devbox', '--ssh=ci', '--config', '/x/console.toml'])).toEqual({ ok: true, value: { web: false, help: false, ssh: ['alice@devbox', 'ci'], config: '/x/console.toml' } });
    expect(parseConsoleArgs(['--port=9000'])).toEqual({ ok: true, value: { web: false, help: false, ssh: [], port: 9000 } });
    // 0 is a free port, as the default is (and as `mish serve --http 0` takes it).
    expect(parseConsoleArgs(['--web', '--port', '0'])).toEqual({ ok: true, value: { web: true, help: false, ssh: [] } });
  });

  it('rejects bad input with one line', () => {
    for (const argv of [['--port'], ['--port', 'x'], ['--port', '70000'], ['--port', '-1'], ['--bogus'], ['extra'], ['--ssh'], ['--ssh', '--web'], ['--config']]) {
      const r = parseConsoleArgs(argv);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/^mish console: [^\n]+$/);
    }
  });
});

describe('environment lookup', () => {
  it('finds the package root from this module', () => {
    expect(existsSync(path.join(packageRoot()!, 'package.json'))).toBe(true);
  });

  it('resolves the Electron binary only when it was actually downloaded', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mish-electron-'));
    try {
      writeFileSync(path.join(root, 'package.json'), '{"name":"mish"}');
      const pkg = path.join(root, 'node_modules', 'electron');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(path.join(pkg, 'package.json'), '{"name":"electron","version":"0.0.0"}');
      // The npm package without its lazily downloaded binary (this machine's situation).
      expect(findElectronBinary(root)).toBeUndefined();
      writeFileSync(path.join(pkg, 'path.txt'), 'electron');
      expect(findElectronBinary(root)).toBeUndefined();
      mkdirSync(path.join(pkg, 'dist'));
      writeFileSync(path.join(pkg, 'dist', 'electron'), '');
      expect(findElectronBinary(root)).toBe(path.join(pkg, 'dist', 'electron'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
