/**
 * The package as a user gets it (issue 25): `npm pack` of this commit (its `prepack` builds
 * dist/ and out/), `npm install -g <tarball>` into a fresh prefix with a fresh HOME (no dev
 * dependencies; node-pty builds from source, as on any Linux), then the installed `mish` runs
 * a command, serves MCP to the SDK's real Client, and serves the console to Debian's Chromium,
 * which shows the shipped demo agent; `mish init` hooks it into an agent and `mish doctor` finds
 * that hook answering.
 *
 * The pack runs in a copy of the checkout (its files as git lists them, node_modules linked):
 * `prepack` rebuilding dist/ in the checkout itself would swap the bundle under the other test
 * files while they run it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeHome, type SafeHome } from './helpers/safe-home.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';
/**
 * The tarball's ceiling (it was 3 MB with tests and fixtures in it). Issue 25 set 1.5 MB; the
 * policy's new readers (printf, Tcl, the evasion passes) and masking rules of 2026-11-29 took it
 * to 1.52 MB, raised to 1.6 MB rather than ship less policy. Session 9's masking rules (five
 * adversary passes' forms, ~2 KB a pass in each of the CLI's and the hook's bundles) took it to
 * 1.60 MB: raised to 1.7 MB for the same reason. Session 19's (seven passes' forms, ~40 readers)
 * took it to 1,787,273 bytes, 4.7 KB over: raised to 1.8 MB. Session 38's (ten passes' forms, the
 * wallet keys' base58check from @scure/base bundled in) to 1,897,553 bytes, 10 KB over: raised to
 * 1.9 MB. Session 50's (nine passes' and two attacks' forms, ~45 rules) to 1,992,331 bytes, 37 bytes over: raised to 2.0 MB.
 * Minifying the bundles' identifiers (not done: stack traces name the functions) would win ~25% back.
 */
const MAX_TARBALL_BYTES = 2.0 * 1024 * 1024;
/** Packing builds dist/ and out/ (electron-vite: about a minute on the loaded 2-core machine); installing builds node-pty. */
const SETUP_TIMEOUT_MS = 15 * 60_000;
/** Scripts a user's npm must allow for mish (npm 12 blocks dependencies' install scripts unless allowed): node-pty compiles its addon. */
const ALLOW_SCRIPTS = 'node-pty';
/** Dev dependencies that must not reach a user (the UI libraries are bundled into out/renderer, the build tools are not needed). */
const DEV_ONLY = ['electron', 'react', 'react-dom', 'zustand', '@xterm/xterm', '@codemirror/view', 'vitest', 'esbuild', 'electron-vite', 'vite', 'typescript', 'playwright-core', '@secretlint/core', 'smol-toml', 'unbash', 'jsonc-parser', '@anthropic-ai/claude-code', '@openai/codex'];

/** npm's environment without the settings of the `npm test` running this file (they name the checkout). */
function npmEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

/** A setting of this machine's npm ('' when unset): the cache is reused, node-gyp's header dir is needed offline. */
function npmConfig(key: string): string {
  const v = execFileSync('npm', ['config', 'get', key], { encoding: 'utf8', env: npmEnv({}) }).trim();
  return v === 'undefined' || v === 'null' ? '' : v;
}

/** The prefix whose include/node holds this node's headers (Debian's /usr), or '' when there is none. */
function localNodeHeaders(): string {
  const prefix = path.dirname(path.dirname(process.execPath));
  return existsSync(path.join(prefix, 'include', 'node', 'node_api.h')) ? prefix : '';
}

/** Every file of the checkout as git lists it (tracked, plus new files not ignored). */
function checkoutFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.split('\0').filter((f) => f && existsSync(path.join(ROOT, f)));
}

/** The first stdout line of a child (the console prints its URL first). */
function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no line on stdout within ${timeoutMs} ms`)), timeoutMs);
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before printing a line`));
    });
  });
}

describe('the npm package, installed from its tarball', () => {
  let scratch: string;
  let tarball: string;
  let prefix: string;
  let home: SafeHome;
  let mish: string;
  let env: Record<string, string>;
  let installSeconds = 0;
  let tarFiles: string[] = [];

  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'mish-package-'));
    const copy = path.join(scratch, 'checkout');
    for (const f of checkoutFiles()) {
      mkdirSync(path.dirname(path.join(copy, f)), { recursive: true });
      cpSync(path.join(ROOT, f), path.join(copy, f));
    }
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: copy, encoding: 'utf8', env: npmEnv({}), stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
    tarball = path.join(scratch, packed.trim().split('\n').pop()!);
    tarFiles = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);

    home = safeHome('package');
    prefix = path.join(scratch, 'prefix');
    const cache = npmConfig('cache');
    // node-gyp builds node-pty offline only against local headers: the user's nodedir, else the
    // headers installed beside this node (the test's temp HOME has no ~/.npmrc of the user's).
    const nodedir = npmConfig('nodedir') || localNodeHeaders();
    const started = performance.now();
    execFileSync('npm', ['install', '-g', '--prefix', prefix, `--allow-scripts=${ALLOW_SCRIPTS}`, '--no-audit', '--no-fund', '--loglevel=error', tarball], {
      cwd: home.cwd,
      env: npmEnv({ HOME: home.home, ...(cache ? { npm_config_cache: cache } : {}), ...(nodedir ? { npm_config_nodedir: nodedir } : {}) }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    mish = path.join(prefix, 'bin', 'mish');
    env = home.env({ PATH: `${path.join(prefix, 'bin')}:${process.env.PATH}` });
    const v = execFileSync(mish, ['--version'], { cwd: home.cwd, env, encoding: 'utf8' });
    installSeconds = (performance.now() - started) / 1000;
    // A figure for the report (the 60 s target of issue 25), never an assertion: the machine is shared.
    process.stdout.write(`package-install: npm install -g + first \`mish --version\` (${v.trim()}): ${installSeconds.toFixed(1)} s; tarball ${statSync(tarball).size} bytes\n`);
  }, SETUP_TIMEOUT_MS);

  afterAll(() => {
    home?.dispose();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('is at most 2.0 MB and ships what runs: built dist/ and out/, grammars, shell integration; no sources, tests, fixtures or screenshots', () => {
    expect(statSync(tarball).size).toBeLessThanOrEqual(MAX_TARBALL_BYTES);
    for (const f of ['package/bin/mish.js', 'package/bin/run-cached.cjs', 'package/dist/hook.cjs', 'package/dist/hook-escalation.mjs', 'package/dist/mish.mjs', 'package/dist/squash-worker.mjs', 'package/dist/precompiled-toml.json', 'package/dist/precompiled-needles.json', 'package/out/renderer/index.html', 'package/out/main/index.js', 'package/resources/shell-integration/bash.sh', 'package/grammars/_meta/policy.toml', 'package/scripts/demo-agent.mjs']) {
      expect(tarFiles, f).toContain(f);
    }
    const stray = tarFiles.filter((f) => /^package\/(src|test|e2e|fixtures|bench)\//.test(f) || /\.test\.|\.map$|\.png$/.test(f));
    expect(stray).toEqual([]);
  });

  it('installs without dev dependencies and with node-pty built', () => {
    const modules = path.join(prefix, 'lib', 'node_modules', 'mish', 'node_modules');
    const present = DEV_ONLY.filter((d) => existsSync(path.join(modules, d)));
    expect(present).toEqual([]);
    expect(readdirSync(path.join(modules, 'node-pty', 'build', 'Release'))).toContain('pty.node');
  });

  it('runs a command: `mish echo hello`', () => {
    const out = execFileSync(mish, ['echo', 'hello'], { cwd: home.cwd, env, encoding: 'utf8' });
    expect(out).toContain('hello');
    expect(out).toContain('[exit 0]');
  });

  it('serves MCP: the SDK client completes the handshake with `mish serve` and runs a command', async () => {
    const client = new Client({ name: 'package-install-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: mish, args: ['serve'], cwd: home.cwd, env, stderr: 'ignore' }));
    try {
      expect(client.getServerVersion()?.name).toBeTruthy();
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('sh_run');
      // The marker is assembled by the shell, so the echoed command line cannot match it.
      const r = await client.callTool({ name: 'sh_run', arguments: { cmd: "printf '%s-%s\\n' installed works", session: 'pkg', cwd: home.cwd } });
      expect((r.content as { text: string }[]).map((c) => c.text).join('')).toContain('installed-works');
    } finally {
      await client.close();
    }
  });

  it('hooks into an agent: `mish init claude-code` installs the installed mish as its hook, and `mish doctor` finds it answering', () => {
    execFileSync(mish, ['init', 'claude-code'], { cwd: home.cwd, env, encoding: 'utf8' });
    const settings = readFileSync(path.join(home.home, '.claude', 'settings.json'), 'utf8');
    expect(settings).toContain(path.join(prefix, 'lib', 'node_modules', 'mish'));
    const rows = JSON.parse(execFileSync(mish, ['doctor', '--json'], { cwd: home.cwd, env, encoding: 'utf8' })) as { agent: string; installed: boolean; answering?: boolean }[];
    expect(rows.find((r) => r.agent === 'claude-code')).toMatchObject({ installed: true, answering: true });
  });

  it('serves the console: `mish console --web --demo` in Chromium shows the demo agent', async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install chromium`).toBe(true);
    const console_ = spawn(mish, ['console', '--web', '--demo'], { cwd: home.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    console_.stderr!.on('data', (d) => (stderr += d));
    let browser: Browser | undefined;
    try {
      const url = await firstLine(console_, 60_000);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      await page.locator('.server-name', { hasText: 'mish-demo-agent' }).waitFor({ timeout: 60_000 });
      await page.locator('button.session[data-session-id$="/deploy"]').waitFor({ timeout: 60_000 });
      expect(errors).toEqual([]);
    } catch (e) {
      throw new Error(`${(e as Error).message}\nconsole stderr:\n${stderr}`);
    } finally {
      await browser?.close();
      const exited = new Promise((r) => console_.once('exit', r));
      console_.kill('SIGTERM');
      await exited;
    }
    expect(console_.exitCode).toBe(0);
  });
});
