// Bundles the Node hosts (CLI, MCP server, web console server) into dist/ with esbuild.
// Why a bundle: `mish <cmd>` start-up time counts against the 1.10x-of-a-bare-PTY target,
// and one file loads far faster than hundreds of ESM modules. npm packages stay external.
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * zod's namespace object re-exports its 60+ message locales (`z.locales`), so bundling `z` pulls
 * in ~500 KB that V8 compiles on every `mish <cmd>` start (~15 ms); mish's messages are English
 * (zod's default, imported by zod itself). The locale barrel is replaced by English alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * In dist/mish.mjs and its chunks, zod is loaded on first use from dist/zod.cjs: `mish <cmd>` with
 * the built-in policy, categories and grammars (checked by this build: writePrecompiledToml) never
 * uses it, and compiling and running its ~290 KB at every start was ~10 ms of CPU before the
 * command was spawned. An importer of `zod` gets `z`, an object whose properties (zod's own
 * names, listed here from the built file) load it, and `config`, which is applied when zod loads
 * (proxy.ts sets jitless before anything is checked) or at once when it is loaded.
 */
function lazyZod(zodKeys) {
  return {
    name: 'lazy-zod',
    setup(b) {
      b.onResolve({ filter: /^zod$/ }, (args) => (/[\\/]node_modules[\\/]/.test(args.importer) ? undefined : { path: 'zod', namespace: 'lazy-zod' }));
      b.onLoad({ filter: /.*/, namespace: 'lazy-zod' }, () => ({
        contents: [
          "import { createRequire } from 'node:module';",
          'let m;',
          'let pending;',
          // This module lands in dist/mish.mjs or in a chunk of dist/chunks/, beside or below dist/zod.cjs.
          "const load = () => { if (m) return m; m = createRequire(import.meta.url)(/\\/chunks\\/[^/]*$/.test(new URL(import.meta.url).pathname) ? '../zod.cjs' : './zod.cjs'); if (pending) m.config(pending); return m; };",
          'export const z = {};',
          `for (const k of ${JSON.stringify(zodKeys)}) Object.defineProperty(z, k, { enumerable: true, get: () => load().z[k] });`,
          'export function config(c) { if (m || c === undefined) return load().config(c); pending = { ...pending, ...c }; }',
        ].join('\n'),
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}

/**
 * The modules `mish <cmd>` loads at start come in a few chunks instead of ~30. esbuild puts a
 * module in the chunk of the set of entry points that reach it, and every lazily imported module
 * (a subcommand, `import('./policy-command.js')`; the audit log, `import('./cli-audit.js')`) is an
 * entry point: each reached a different part of what dist/mish.mjs imports at start, which split
 * it into ~30 files, and Node resolves, reads, compiles and links each of them on every start
 * (~5 ms; and enough path work that V8 optimised its URL and path helpers on its compiler
 * threads). Here each module the CLI's own code (cli/, console/, serve-command.ts) imports lazily
 * also imports, for its side effects only, every module cli/main.ts imports: modules the CLI's
 * start has loaded by then, so nothing more runs; and every module of the start is then reached
 * by the same entries, so it lands in one chunk. main.ts itself stays in dist/mish.mjs (its files
 * are found next to it: import.meta.url). Never for a module the squash worker's thread or the
 * hook's escalation part imports (they would load the CLI): the build checks (lazyTargetsOf).
 */
function oneStartChunk(targets) {
  const mainFile = path.join(root, 'src', 'main', 'cli', 'main.ts');
  const startImports = [...readFileSync(mainFile, 'utf8').matchAll(/^import\s+(?!type\b)[^;]*?from\s+'(\.[^']+)';/gm)].map((m) => path.resolve(path.dirname(mainFile), m[1].replace(/\.js$/, '.ts')));
  return {
    name: 'one-start-chunk',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!targets.has(args.path)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        return { contents: `${startImports.map((f) => `import ${JSON.stringify(f)};`).join(' ')}\n${text}`, loader: 'ts', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** The modules the CLI's own code imports lazily (`import('./x.js')` in cli/, console/, mcp/serve-command.ts). */
function lazyTargetsOf() {
  const main = path.join(root, 'src', 'main');
  const importers = [...['cli', 'console'].flatMap((d) => readdirSync(path.join(main, d)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => path.join(main, d, f))), path.join(main, 'mcp', 'serve-command.ts')];
  const targets = new Set();
  for (const file of importers) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)) targets.add(path.resolve(path.dirname(file), m[1].replace(/\.js$/, '.ts')));
  }
  return targets;
}

/** Targets statically reachable (in the build's metafile) from the entries that run apart from the CLI: the squash worker, the hook's escalation part. */
function unsafeTargets(metafile, targets) {
  const apart = Object.values(metafile.outputs).map((o) => o.entryPoint).filter((e) => e && /(worker-entry|hook-escalation)\.ts$/.test(e));
  const seen = new Set();
  const stack = [...apart];
  while (stack.length) {
    const x = stack.pop();
    if (seen.has(x) || !metafile.inputs[x]) continue;
    seen.add(x);
    for (const imp of metafile.inputs[x].imports) if (!imp.external) stack.push(imp.path);
  }
  return [...targets].filter((t) => seen.has(path.relative(root, t)));
}

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const started = Date.now();
// zod for dist/mish.mjs (lazyZod): English messages only, as the hook's.
/** zod as one CommonJS file (English messages only): `contents` says what it exports, and any setting it applies on load. */
const buildZod = (file, contents) =>
  build({
    stdin: { contents, resolveDir: root, sourcefile: file.replace(/\.cjs$/, '.js') },
    outfile: path.join(root, 'dist', file),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [zodEnglishOnly],
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'error',
  });
await buildZod('zod.cjs', "export { z, config } from 'zod';");
const zodKeys = Object.keys(createRequire(import.meta.url)(path.join(root, 'dist', 'zod.cjs')).z);
const buildMain = (targets, write = true) =>
  build({
  write,
  // The squash worker is a thread's entry of its own (src/main/core/squash-worker/pool.ts finds it next to mish.mjs).
  entryPoints: { mish: path.join(root, 'src/main/cli/main.ts'), 'hook-escalation': path.join(root, 'src/main/hooks/hook-escalation.ts'), 'squash-worker': path.join(root, 'src/main/core/squash-worker/worker-entry.ts') },
  outdir: path.join(root, 'dist'),
  outExtension: { '.js': '.mjs' },
  // Subcommands are dynamic imports: split them into chunks loaded only when used.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Pure-JS dependencies of the `mish <cmd>` path (smol-toml, unbash) are bundled: loading
  // zod as ~40 ESM files cost ~70 ms of start-up (it is one file now, dist/zod.cjs, loaded on first use: lazyZod). Packages with native parts, or only used by
  // the lazily loaded subcommands, stay external (resolved from node_modules at run time).
  external: ['node-pty', 'koffi', '@modelcontextprotocol/sdk', '@modelcontextprotocol/*', 'ws', '@xterm/*', 'electron', 'gpt-tokenizer'],
  plugins: [lazyZod(zodKeys), oneStartChunk(targets)],
  banner: { js: "import { createRequire as __mishCreateRequire } from 'node:module'; const require = __mishCreateRequire(import.meta.url);" },
  // Whitespace and syntax only, names kept (profiles, messages; the linked source map maps the
  // rest): the npm tarball stays under its 1.5 MB bound (test/package-install.test.ts) and V8
  // has less to read on every `mish <cmd>` start.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  metafile: true,
  absWorkingDir: root,
});
// Which lazily imported modules may take the start's imports: a first pass (not written) shows what the worker and the hook's escalation reach.
const lazyTargets = lazyTargetsOf();
for (const t of unsafeTargets((await buildMain(lazyTargets, false)).metafile, lazyTargets)) lazyTargets.delete(t);
await buildMain(lazyTargets);
await buildHook();
const engine = await importEngine();
writePrecompiledToml(engine, engine.PACKS.map((p) => p.rules));
writeNeedleTable(engine);
if (!process.env.CI && !process.argv.includes('--quiet')) {
  process.stderr.write(`built dist/mish.mjs in ${Date.now() - started} ms\n`);
}

/** In dist/hook.cjs, escalation-loader.ts imports dist/hook-escalation.mjs through the launcher's import (bin/run-cached.cjs). */
function hookEscalationApart() {
  return {
  name: 'hook-escalation-apart',
  setup(b) {
    b.onLoad({ filter: /[\\/]hooks[\\/]escalation-loader\.ts$/ }, () => ({
      contents: "export const loadEscalation = () => (globalThis.__mishHookImport ?? ((s) => import(s)))('./hook-escalation.mjs');",
      loader: 'js',
    }));
  },
  };
}

/**
 * In dist/hook.cjs, what an allowed command's decision does not use is loaded on first use:
 * zod (only to compile a policy, which the hook's policy cache skips) from dist/zod.cjs (the CLI's: set jitless when the hook
 * loads it), and
 * node:crypto / node:child_process (escalations, a policy compile) when first called. A module
 * importing them gets an object whose properties (the builtin's own names, listed at build time)
 * load the real one; ~30 ms of every hook start.
 */
function hookLazyModules() {
  const builtins = /^node:(crypto|child_process)$/;
  return {
    name: 'hook-lazy-modules',
    setup(b) {
      b.onResolve({ filter: /^zod$/ }, (args) => (/[\\/]node_modules[\\/]/.test(args.importer) ? undefined : { path: 'zod', namespace: 'hook-lazy' }));
      b.onResolve({ filter: builtins }, (args) => (args.namespace === 'hook-lazy' ? { path: args.path, external: true } : { path: args.path, namespace: 'hook-lazy' }));
      b.onResolve({ filter: /^\.\/zod\.cjs$/ }, () => ({ path: './zod.cjs', external: true }));
      b.onLoad({ filter: /.*/, namespace: 'hook-lazy' }, (args) => ({
        contents:
          args.path === 'zod'
            ? "let m; const load = () => { if (!m) { m = require('./zod.cjs'); m.config({ jitless: true }); } return m; }; module.exports = { get z() { return load().z; }, get config() { return load().config; } };"
            : `let m; for (const k of ${JSON.stringify(Object.keys(require(args.path)))}) Object.defineProperty(module.exports, k, { enumerable: true, get: () => (m ??= require(${JSON.stringify(args.path)}))[k] });`,
        loader: 'js',
      }));
    },
  };
}

/**
 * dist/hook.cjs: `mish hook`, which runs before every command of an agent's shell tool, as one
 * CommonJS file with only the policy in it. CommonJS because Node 20 can keep V8's compiled code
 * of a script between runs (vm.Script cachedData, bin/run-cached.cjs) but not of ES modules;
 * Node ≥ 22 would do the same with module.enableCompileCache(). `import.meta.url` becomes the
 * file's URL. Its zod is the CLI's dist/zod.cjs (English messages only), set jitless when loaded: one process validates a
 * policy once, and zod's JIT costs more than it saves then (a second copy with the setting built in was 64 KB of the tarball).
 *
 * The CLI itself stays ES modules (measured 2026-11-30, Node 20.20, 15 interleaved runs): main.ts
 * bundled as one CommonJS file and run as the hook is, with V8's cache, made `mish true` 127 -> 101 ms
 * of CPU (141 -> 108 ms wall; without a cache 132 ms), but the squash worker and the hook's
 * escalation part share the ESM chunks, so the package would carry both (+423 KB gzipped; the
 * tarball is ~2 KB under its ceiling), or the three entries as one CommonJS file (~8 KB gzipped more
 * than the chunks, and main.ts no longer running the CLI when it loads). V8 flags set at start
 * (--no-opt, --max-lazy, --no-lazy-feedback-allocation, --no-sparkplug) gained nothing.
 */
async function buildHook() {
  await build({
    entryPoints: [path.join(root, 'src/main/hooks/hook-entry.ts')],
    outfile: path.join(root, 'dist', 'hook.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['node-pty', 'koffi', '@modelcontextprotocol/sdk', '@modelcontextprotocol/*', 'ws', '@xterm/*', 'electron', 'gpt-tokenizer'],
    // The operator wire and the audit log (escalations only) stay in dist/hook-escalation.mjs, an entry of the build above.
    plugins: [hookLazyModules(), hookEscalationApart()],
    // Whitespace and syntax only (names kept for profiles and messages): a smaller file to read and to check against V8's code cache on every start.
    minifyWhitespace: true,
    minifySyntax: true,
    define: { 'import.meta.url': '__mishHookUrl' },
    banner: { js: 'var __mishHookUrl = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: 'error',
  });
}

/**
 * dist/precompiled-toml.json: every built-in TOML file (grammars/, policy, categories) parsed to
 * JSON, keyed by the sha1 of its text (src/main/core/toml/precompiled-toml.ts reads it). Parsing
 * them with smol-toml was ~35 ms of every `mish <cmd>` start. Only plain values are stored: a
 * file holding a TOML date or a non-finite number is left to be parsed at run time. `texts`: TOML
 * held in the code (the policy's rule packs, src/main/core/policy/packs/: ~3 ms of smol-toml, and
 * enough of it that V8 optimized the parser on its compiler threads, on every start).
 * `grammars`: for each text that passes the grammar file schema, the schema's output
 * (src/main/core/grammar/compile.ts useCheckedGrammars): checking the built-in grammars with zod
 * was ~20 ms of every start.
 */
function writePrecompiledToml(engine, texts) {
  const entries = {};
  const grammars = {};
  const policies = {};
  const categories = {};
  const add = (text, kind = 'grammar') => {
    let data;
    try {
      data = parseToml(text);
    } catch {
      return; // a broken file is reported where it is loaded
    }
    const key = createHash('sha1').update(text).digest('hex');
    if (kind === 'policy' || kind === 'categories') {
      // The parsed TOML stays in `entries` (`mish hook` compiles the policy from it); the check's
      // output is stored only where it is more than the parsed TOML with the schema's defaults
      // (PARSED_WITH_DEFAULTS otherwise: the CLI then checks neither with zod).
      if (plainJson(data)) entries[key] = JSON.stringify(data);
      const [check, withDefaults, table] = kind === 'policy' ? [engine.checkPolicyData, engine.withPolicyDefaults, policies] : [engine.checkCategoriesData, engine.withCategoriesDefaults, categories];
      const checked = check(data);
      if (checked !== undefined && plainJson(checked)) {
        table[key] = plainJson(data) && sameJson(checked, withDefaults(data)) ? JSON.stringify(engine.PARSED_WITH_DEFAULTS) : JSON.stringify(checked);
      }
      return;
    }
    const checked = engine.checkGrammarData(data);
    // A grammar file compiles from its checked data (compileGrammarSource never parses it then): its parsed TOML would only
    // weigh on the package (both tables for the grammars took it past its 1.7 MB ceiling). A file read otherwise is parsed
    // at run time if its entry is missing, so correctness does not hang on this.
    if (checked !== undefined && plainJson(checked)) grammars[key] = JSON.stringify(checked);
    else if (plainJson(data)) entries[key] = JSON.stringify(data);
  };
  const meta = path.join(root, 'grammars', '_meta');
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.toml')) add(readFileSync(p, 'utf8'), p === path.join(meta, 'policy.toml') ? 'policy' : p === path.join(meta, 'categories.toml') ? 'categories' : 'grammar');
    }
  };
  walk(path.join(root, 'grammars'));
  for (const t of texts) add(t, 'policy');
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, 'dist', 'precompiled-toml.json'), JSON.stringify({ format: 1, entries, grammars, policies, categories }));
}

/** The same data, keys in any order. */
function sameJson(a, b) {
  const canon = (v) => (Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v);
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

/**
 * What the build reads with the engine's own code (the same sources the bundle holds): the
 * policy's rule packs, the grammar file check and the needle tables. Bundled to a file in dist/ (so that the packages it
 * leaves out resolve from this checkout's node_modules), imported, and removed.
 */
async function importEngine() {
  const out = path.join(root, 'dist', `.build-engine-${process.pid}.mjs`);
  try {
    await build({
      stdin: {
        contents: [
          "export { needleTableOf } from './src/main/core/squasher/needle-table.ts';",
          "export { loadAlwaysGrammar } from './src/main/core/squasher/always-rules.ts';",
          "export { PACKS } from './src/main/core/policy/packs/index.ts';",
          "export { checkGrammarData } from './src/main/core/grammar/compile.ts';",
          "export { checkPolicyData, withPolicyDefaults, PARSED_WITH_DEFAULTS } from './src/main/core/policy/rules.ts';",
          "export { checkCategoriesData, withCategoriesDefaults } from './src/main/core/router/meta.ts';",
        ].join('\n'),
        resolveDir: root,
        sourcefile: 'build-engine-entry.ts',
        loader: 'ts',
      },
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
    });
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(out, { force: true });
  }
}

/**
 * dist/precompiled-needles.json: the needle sets and line leads of the built-in always-on rules
 * (src/main/core/squasher/needle-table.ts): reading them in every `mish <cmd>` cost ~15 ms and
 * made V8 optimize the readers (~50 ms of CPU more).
 */
function writeNeedleTable(engine) {
  const file = path.join(root, 'dist', 'precompiled-needles.json');
  const always = engine.loadAlwaysGrammar(path.join(root, 'grammars'));
  // A broken file is reported where it is loaded; without a table the CLI reads what it needs.
  if (!always.ok) rmSync(file, { force: true });
  else writeFileSync(file, JSON.stringify(engine.needleTableOf(always.value)));
}

/** Whether JSON keeps this value exactly (strings, finite numbers, booleans, arrays, plain objects). */
function plainJson(v) {
  if (typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(plainJson);
  if (v && typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v))) return Object.values(v).every(plainJson);
  return false;
}
