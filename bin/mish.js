#!/usr/bin/env node
// Thin launcher: the CLI is bundled to dist/ (an installed package ships it built by `prepack`; a
// checkout builds it in `npm ci` via "prepare", or with `npm run build:cli`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The line for a missing bundle: a checkout has its sources next to bin/ and builds; an installed package was packed built. */
function missingBundle(file) {
  const checkout = existsSync(fileURLToPath(new URL('../src/main/cli/main.ts', import.meta.url)));
  return checkout
    ? `mish: dist/${file} is missing; run \`npm run build:cli\` in this checkout first\n`
    : `mish: this installation is incomplete (${fileURLToPath(new URL(`../dist/${file}`, import.meta.url))} is missing); reinstall mish (npm install -g <package or tarball>)\n`;
}

// `mish hook` runs before every command of an agent's shell tool: its own lean bundle, with V8's code cache.
if (process.argv[2] === 'hook') {
  const hook = fileURLToPath(new URL('../dist/hook.cjs', import.meta.url));
  if (!existsSync(hook)) {
    // Exit 2 blocks the agent's command in every supported host, with this line as the reason.
    process.stderr.write(missingBundle('hook.cjs'));
    process.exit(2);
  }
  (await import('./run-cached.cjs')).default.runCached(hook);
} else {
  const bundle = new URL('../dist/mish.mjs', import.meta.url);
  if (!existsSync(fileURLToPath(bundle))) {
    process.stderr.write(missingBundle('mish.mjs'));
    process.exit(2);
  }
  await import(bundle.href);
}
