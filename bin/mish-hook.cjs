#!/usr/bin/env node
// `mish hook <agent>` without the ES module loader: the command `mish init` writes for an agent's
// hook ('<node>' '<…/bin/mish-hook.cjs>' hook <agent> …). It runs before every command the agent
// runs, and starting as CommonJS spares Node's ESM loader (~10 ms); bin/mish.js hook … runs the
// same bundle for hooks installed before.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const hook = path.join(__dirname, '..', 'dist', 'hook.cjs');
if (!fs.existsSync(hook)) {
  const checkout = fs.existsSync(path.join(__dirname, '..', 'src', 'main', 'cli', 'main.ts'));
  const why = checkout
    ? 'mish: dist/hook.cjs is missing; run `npm run build:cli` in this checkout first'
    : `mish: this installation is incomplete (${hook} is missing); reinstall mish (npm install -g <package or tarball>)`;
  // Exit 2 blocks the agent's command in every supported host but Copilot CLI, which runs it after a failed hook: it gets its deny.
  if (process.argv.includes('copilot')) {
    process.stdout.write(`${JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: `${why}. Nothing was run.` })}\n`);
    process.exitCode = 0;
  } else {
    process.stderr.write(`${why}\n`);
    process.exit(2);
  }
} else require('./run-cached.cjs').runCached(hook);
