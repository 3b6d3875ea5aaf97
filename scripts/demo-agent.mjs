#!/usr/bin/env node
// The demo agent of `npm start`: a real MCP client (the SDK's Client, as Claude Code or Codex
// would be) that drives mish in two sessions so the console has something real to show:
//   build:  an install (npm, noisy), then a test run with a failing test;
//   deploy: a script that asks "[Y/n]" — it waits for input (the console raises it) until the
//           agent answers after a pause; then a long noisy job streams live.
// It spawns `mish serve` over stdio like any agent (the console finds that server through its
// operator socket); with MISH_CONSOLE_MCP_URL (+ MISH_CONSOLE_MCP_TOKEN) it connects by URL instead.
// Ends on SIGTERM/SIGINT (the console ends it) or when the server goes away.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** How long the demo leaves its [Y/n] prompt unanswered, so the operator sees the waiting state. */
const PROMPT_PAUSE_MS = Number(process.env.MISH_DEMO_PROMPT_PAUSE_MS ?? 20_000);

const work = mkdtempSync(path.join(tmpdir(), 'mish-demo-agent-'));
writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'mish-demo-shop', version: '1.0.0', private: true, scripts: { test: 'node --test' } }, null, 2));
writeFileSync(
  path.join(work, 'cart.test.mjs'),
  [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    'const total = (items) => items.reduce((s, i) => s + i.price * i.qty, 0);',
    "test('empty cart costs nothing', () => assert.equal(total([]), 0));",
    "test('one item', () => assert.equal(total([{ price: 3, qty: 2 }]), 6));",
    "test('discount applies over 100', () => assert.equal(total([{ price: 60, qty: 2 }]), 108));",
    '',
  ].join('\n'),
);
writeFileSync(
  path.join(work, 'migrate.sh'),
  [
    'echo "checking database schema..."',
    'for i in 1 2 3; do echo "  pending migration 00$i_add_column_$i"; done',
    'read -r -p "Apply 3 migrations to the database? [Y/n] " answer',
    'echo "answer: ${answer:-Y}"',
    'for i in 1 2 3; do echo "applied 00$i"; done',
    '',
  ].join('\n'),
);
writeFileSync(
  path.join(work, 'build.sh'),
  [
    'for i in $(seq 1 400); do',
    '  printf "\\033[2mcompiling module %03d/400\\033[0m src/mod_%03d.ts\\n" $i $i',
    '  if [ $i = 250 ]; then printf "\\033[33mwarning:\\033[0m src/mod_250.ts: unused variable \'tmp\'\\n"; fi',
    '  sleep 0.02',
    'done',
    'echo "built 400 modules in dist/"',
    '',
  ].join('\n'),
);

const url = process.env.MISH_CONSOLE_MCP_URL;
const transport = url
  ? new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${process.env.MISH_CONSOLE_MCP_TOKEN ?? ''}` } } })
  : new StdioClientTransport({ command: process.execPath, args: [path.join(root, 'bin', 'mish.js'), 'serve'], cwd: work, stderr: 'inherit', env: { ...process.env } });
const client = new Client({ name: 'mish-demo-agent', version: '1.0.0' });

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await client.close().catch(() => {});
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Owned by the console: its stdin is a pipe from the console, closed when the console ends in any
// way (a SIGKILL included). Started by hand from a terminal, it runs until Ctrl-C.
if (!process.stdin.isTTY) {
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
}

const log = (m) => process.stderr.write(`demo agent: ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const run = async (session, cmd, timeout = 120) => {
  const r = await client.callTool({ name: 'sh_run', arguments: { cmd, session, cwd: work, timeout } }, undefined, { timeout: (timeout + 30) * 1000, resetTimeoutOnProgress: true });
  return r.structuredContent ?? {};
};

await client.connect(transport);
/** Pause between the demo's builds, so there is always something streaming to watch. */
const BUILD_EVERY_MS = 20_000;
const build = (async () => {
  await run('build', 'npm install --no-audit --no-fund --loglevel=http is-number@7 is-odd@3');
  await run('build', 'npm test');
  for (;;) {
    await run('build', 'bash build.sh');
    await sleep(BUILD_EVERY_MS);
  }
})();
const deploy = (async () => {
  const asked = await run('deploy', 'bash migrate.sh', 30);
  if (asked.status === 'waiting-for-input' && asked.id) {
    await sleep(PROMPT_PAUSE_MS);
    await client.callTool({ name: 'sh_interact', arguments: { id: asked.id, action: 'send', text: 'y\n' } });
  }
  await run('deploy', 'git --version && ls -la');
})();
// Runs until the console ends it (the build loop never finishes); the sessions end with it.
await Promise.all([build, deploy]).catch((e) => log(e.message));
