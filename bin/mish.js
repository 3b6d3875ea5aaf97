#!/usr/bin/env node
// Thin launcher: the CLI is bundled to dist/ by `npm run build:cli` (run by `npm ci`/`npm install` via "prepare").
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// Node ≥ 22 keeps compiled code between runs (agents' hooks start mish before every command); Node 20 has no such cache.
module.enableCompileCache?.();
// `mish hook` runs before every command of an agent's shell tool: its own lean bundle.
const bundle = new URL(process.argv[2] === 'hook' ? '../dist/hook.mjs' : '../dist/mish.mjs', import.meta.url);
if (!existsSync(fileURLToPath(bundle))) {
  process.stderr.write(`mish: ${fileURLToPath(bundle).split('/').slice(-2).join('/')} is missing; run \`npm run build:cli\` in the mish checkout first\n`);
  process.exit(2);
}
await import(bundle.href);
