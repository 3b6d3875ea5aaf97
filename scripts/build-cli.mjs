// Bundles the Node hosts (CLI, MCP server, web console server) into dist/ with esbuild.
// Why a bundle: `mish <cmd>` start-up time counts against the 1.10x-of-a-bare-PTY target,
// and one file loads far faster than hundreds of ESM modules. npm packages stay external.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const started = Date.now();
await build({
  entryPoints: { mish: path.join(root, 'src/main/cli/main.ts') },
  outdir: path.join(root, 'dist'),
  outExtension: { '.js': '.mjs' },
  // Subcommands are dynamic imports: split them into chunks loaded only when used.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
if (!process.env.CI && !process.argv.includes('--quiet')) {
  process.stderr.write(`built dist/mish.mjs in ${Date.now() - started} ms\n`);
}
