// Bundles the Node hosts (CLI, MCP server, web console server) into dist/ with esbuild.
// Why a bundle: `mish <cmd>` start-up time counts against the 1.10x-of-a-bare-PTY target,
// and one file loads far faster than hundreds of ESM modules. npm packages stay external.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';

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

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const started = Date.now();
await build({
  // `mish hook` (src/main/hooks/hook-entry.ts) is an entry of its own: it runs before every agent command.
  // The squash worker is a thread's entry of its own (src/main/core/squash-worker/pool.ts finds it next to mish.mjs).
  entryPoints: { mish: path.join(root, 'src/main/cli/main.ts'), hook: path.join(root, 'src/main/hooks/hook-entry.ts'), 'squash-worker': path.join(root, 'src/main/core/squash-worker/worker-entry.ts') },
  outdir: path.join(root, 'dist'),
  outExtension: { '.js': '.mjs' },
  // Subcommands are dynamic imports: split them into chunks loaded only when used.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Pure-JS dependencies of the `mish <cmd>` path (zod, smol-toml, unbash) are bundled: loading
  // zod as ~40 ESM files cost ~70 ms of start-up. Packages with native parts, or only used by
  // the lazily loaded subcommands, stay external (resolved from node_modules at run time).
  external: ['node-pty', 'koffi', '@modelcontextprotocol/sdk', '@modelcontextprotocol/*', 'ws', '@xterm/*', 'electron', 'gpt-tokenizer'],
  plugins: [zodEnglishOnly],
  banner: { js: "import { createRequire as __mishCreateRequire } from 'node:module'; const require = __mishCreateRequire(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
});
writePrecompiledToml();
if (!process.env.CI && !process.argv.includes('--quiet')) {
  process.stderr.write(`built dist/mish.mjs in ${Date.now() - started} ms\n`);
}

/**
 * dist/precompiled-toml.json: every built-in TOML file (grammars/, policy, categories) parsed to
 * JSON, keyed by the sha1 of its text (src/main/core/toml/precompiled-toml.ts reads it). Parsing
 * them with smol-toml was ~35 ms of every `mish <cmd>` start. Only plain values are stored: a
 * file holding a TOML date or a non-finite number is left to be parsed at run time.
 */
function writePrecompiledToml() {
  const entries = {};
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.toml')) {
        const text = readFileSync(p, 'utf8');
        let data;
        try {
          data = parseToml(text);
        } catch {
          continue; // a broken file is reported where it is loaded
        }
        if (plainJson(data)) entries[createHash('sha1').update(text).digest('hex')] = JSON.stringify(data);
      }
    }
  };
  walk(path.join(root, 'grammars'));
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, 'dist', 'precompiled-toml.json'), JSON.stringify({ format: 1, entries }));
}

/** Whether JSON keeps this value exactly (strings, finite numbers, booleans, arrays, plain objects). */
function plainJson(v) {
  if (typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(plainJson);
  if (v && typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v))) return Object.values(v).every(plainJson);
  return false;
}
