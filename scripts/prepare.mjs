#!/usr/bin/env node
// `prepare`: npm runs it after `npm ci`/`npm install` in a checkout (which then has dist/ and
// out/ for the tests and `npm start`), and again inside `npm pack`/`npm publish`, where
// `prepack` has just built the same files: built once there, not twice. An installed package
// never runs it (npm runs `prepare` for checkouts and git dependencies only) and ships both built.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
if (process.env.npm_command === 'pack' || process.env.npm_command === 'publish') process.exit(0);
if (!existsSync(path.join(root, 'node_modules', 'electron-vite')) || !existsSync(path.join(root, 'src'))) {
  // Installed without dev dependencies (or not a checkout): the package's dist/ and out/ are already built.
  process.exit(0);
}
await import('./build.mjs');
