// Bundles the Node hosts (CLI, MCP server, web console server) into dist/ with esbuild.
// Why a bundle: `mish <cmd>` start-up time counts against the 1.10x-of-a-bare-PTY target,
// and one file loads far faster than hundreds of ESM modules. npm packages stay external.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const started = Date.now();
await build({
  // The squash worker is a thread's entry of its own (src/main/core/squash-worker/pool.ts finds it next to mish.mjs).
  entryPoints: { mish: path.join(root, 'src/main/cli/main.ts'), 'squash-worker': path.join(root, 'src/main/core/squash-worker/worker-entry.ts') },
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
  banner: { js: "import { createRequire as __mishCreateRequire } from 'node:module'; const require = __mishCreateRequire(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
});
if (!process.env.CI && !process.argv.includes('--quiet')) {
  process.stderr.write(`built dist/mish.mjs in ${Date.now() - started} ms\n`);
}
