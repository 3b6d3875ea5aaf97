/**
 * "Cannot find module" hints on real tool output (issue 13 pt 5): the module path is resolved
 * from the importing file, as tsc and node resolve it; a module the resolver would find, or a
 * message that names no importer, gets no hint. Python's and Go's missing-module errors name
 * packages, not paths: no hint either.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { have } from '../router/test-kit.js';
import { stripAnsi } from '../squasher/vt-stripper.js';
import { enrich } from './enrich.js';

const TSC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../node_modules/.bin/tsc');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mish-module-hint-'));
  mkdirSync(path.join(dir, 'src/lib'), { recursive: true });
  mkdirSync(path.join(dir, 'util'), { recursive: true });
  writeFileSync(path.join(dir, 'util/validation.ts'), 'export const ok = 1;\n');
  writeFileSync(path.join(dir, 'src/lib/format.ts'), 'export const f = 1;\n');
  // '../util/validate.js' from src/app.ts is <dir>/util/validate.js: util/ exists, validate.* does not.
  writeFileSync(path.join(dir, 'src/app.ts'), "import { ok } from '../util/validate.js';\nimport { f } from './lib/format.js';\nexport const x = ok + f;\n");
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true }, include: ['src'] }));
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  writeFileSync(path.join(dir, 'src/main.cjs'), "require('./lib/missing-helper');\n");
  writeFileSync(path.join(dir, 'src/main.mjs'), "import './lib/absent.mjs';\n");
  writeFileSync(path.join(dir, 'app.py'), 'import validate_helpers\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command's real output (stdout and stderr) and exit code. */
function run(cmd: string, args: string[]): { output: string; exitCode: number } {
  const r = spawnSync(cmd, args, { cwd: dir, encoding: 'utf8' });
  // As the router hands it to enrich: terminal escapes removed.
  return { output: stripAnsi(`${r.stdout}${r.stderr}`), exitCode: r.status ?? 1 };
}

const hintsOf = (r: { output: string; exitCode: number }) => enrich({ ...r, cwd: dir, env: process.env });

describe('Cannot find module: resolved from the importing file', () => {
  it('tsc --pretty false: the path from src/app.ts, with the nearest folder that exists; a module that resolves gets none', () => {
    const r = run(TSC, ['-p', '.', '--pretty', 'false']);
    expect(r.output).toContain("src/app.ts(1,20): error TS2307: Cannot find module '../util/validate.js'");
    expect(hintsOf(r)).toEqual(["hint: util/validate.js does not exist; util/ has validation.ts"]);
  });

  it('tsc --pretty: the same hint', () => {
    const r = run(TSC, ['-p', '.', '--pretty']);
    expect(hintsOf(r)).toEqual(["hint: util/validate.js does not exist; util/ has validation.ts"]);
  });

  it('node CommonJS: the importer from the Require stack', () => {
    const r = run(process.execPath, ['src/main.cjs']);
    expect(r.output).toContain("Cannot find module './lib/missing-helper'");
    expect(hintsOf(r)).toEqual(['hint: src/lib/missing-helper does not exist; src/lib/ has format.ts']);
  });

  it('node ESM: the importer from "imported from"', () => {
    const r = run(process.execPath, ['src/main.mjs']);
    expect(r.output).toMatch(/Cannot find module '.*absent\.mjs' imported from/);
    expect(hintsOf(r)).toEqual(['hint: src/lib/absent.mjs does not exist; src/lib/ has format.ts']);
  });

  it('python: a module name, not a path: no hint', () => {
    const r = run('python3', ['app.py']);
    expect(r.output).toContain("No module named 'validate_helpers'");
    expect(hintsOf(r)).toEqual([]);
  });

  it.skipIf(!have('go'))('go: a package path, not a file: no hint (skipped when go is not installed)', () => {
    mkdirSync(path.join(dir, 'gomod'), { recursive: true });
    writeFileSync(path.join(dir, 'gomod/go.mod'), 'module example.com/demo\n\ngo 1.19\n');
    writeFileSync(path.join(dir, 'gomod/main.go'), 'package main\n\nimport _ "example.com/demo/validate"\n\nfunc main() {}\n');
    const r = spawnSync('go', ['build', './...'], { cwd: path.join(dir, 'gomod'), encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOCACHE: path.join(dir, 'gocache') } });
    const out = { output: `${r.stdout}${r.stderr}`, exitCode: r.status ?? 1 };
    expect(out.exitCode).not.toBe(0);
    expect(out.output).toMatch(/validate/);
    expect(enrich({ ...out, cwd: path.join(dir, 'gomod'), env: process.env })).toEqual([]);
  });
});
