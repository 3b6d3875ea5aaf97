#!/usr/bin/env node
// Thin launcher: the CLI is bundled to dist/ by `npm run build:cli` (run by `npm ci`/`npm install` via "prepare").
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../dist/mish.mjs', import.meta.url);
if (!existsSync(fileURLToPath(bundle))) {
  process.stderr.write('mish: dist/mish.mjs is missing; run `npm run build:cli` in the mish checkout first\n');
  process.exit(2);
}
await import(bundle.href);
