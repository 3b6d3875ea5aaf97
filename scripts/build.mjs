#!/usr/bin/env node
// Everything a run of mish needs built: dist/ (the CLI bundle, scripts/build-cli.mjs) and out/
// (electron-vite: the Electron main/preload and the console page `mish console` serves).
// Run by `prepack` (the package ships both, built) and by `prepare` in a checkout (scripts/prepare.mjs).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const quiet = process.argv.includes('--quiet');
execFileSync(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs'), ...(quiet ? ['--quiet'] : [])], { cwd: root, stdio: 'inherit' });
execFileSync(process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
