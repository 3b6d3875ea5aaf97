#!/usr/bin/env node
// Thin launcher: the CLI is bundled to dist/ by `npm run build:cli` (run by `npm ci`/`npm install` via "prepare").
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `mish hook` runs before every command of an agent's shell tool: its own lean bundle, with V8's code cache.
if (process.argv[2] === 'hook') {
  const hook = fileURLToPath(new URL('../dist/hook.cjs', import.meta.url));
  if (!existsSync(hook)) {
    // Exit 2 blocks the agent's command in every supported host, with this line as the reason.
    process.stderr.write('mish: dist/hook.cjs is missing; run `npm run build:cli` in the mish checkout first\n');
    process.exit(2);
  }
  (await import('./run-cached.cjs')).default.runCached(hook);
} else {
  const bundle = new URL('../dist/mish.mjs', import.meta.url);
  if (!existsSync(fileURLToPath(bundle))) {
    process.stderr.write('mish: dist/mish.mjs is missing; run `npm run build:cli` in the mish checkout first\n');
    process.exit(2);
  }
  await import(bundle.href);
}
