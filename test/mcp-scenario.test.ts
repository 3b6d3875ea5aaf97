/**
 * Issue 4 "done when", as an agent would do it over MCP (real `mish serve`, real SDK Client,
 * real shells and processes): start a dev server with wait_for, run tests against it while it
 * runs, answer a [Y/n] prompt, interrupt a hung command, read back exact raw lines of an
 * earlier command.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { alive, call, type Served } from './mcp-helpers.js';
import { serveForSuite } from './mcp-suite.js';

const SERVER = `import http from 'node:http';
const s = http.createServer((req, res) => res.end('hello from dev'));
s.listen(0, '127.0.0.1', () => console.log('ready on :' + s.address().port));
`;
const TESTS = `const port = process.argv[2];
const body = await (await fetch('http://127.0.0.1:' + port + '/')).text();
const ok = body === 'hello from dev';
console.log((ok ? 'ok' : 'not ok') + ' 1 - GET / answers');
console.log(ok ? '1 passed, 0 failed' : '0 passed, 1 failed');
process.exit(ok ? 0 : 1);
`;
const CONFIRM = `printf 'Deploy to staging? [Y/n] '
read answer
echo "answer: $answer"
if [ "$answer" = y ]; then echo deployed; else echo aborted; exit 1; fi
`;

describe('an agent does a whole task over MCP', () => {
  let s: Served;
  let dir: string;
  serveForSuite((served) => {
    s = served;
    dir = path.join(s.home, 'project');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'server.mjs'), SERVER);
    writeFileSync(path.join(dir, 'test.mjs'), TESTS);
    writeFileSync(path.join(dir, 'confirm.sh'), CONFIRM);
  });

  it('dev server, tests, prompt, interrupt, raw read-back', async () => {
    // 1. Start the dev server and block until it is ready.
    const dev = await call(s.client, 'sh_spawn', { cmd: 'node server.mjs', alias: 'dev', cwd: dir, wait_for: 'ready on :\\d+', timeout: 30 });
    expect(dev.result.isError).toBeFalsy();
    expect(dev.data.wait).toBe('matched');
    const port = /ready on :(\d+)/.exec(dev.data.match)![1];

    // 2. Run the tests against it while it runs; the digest shows the server.
    const tests = await call(s.client, 'sh_run', { cmd: `node test.mjs ${port}`, cwd: dir });
    expect(tests.data.exit_code).toBe(0);
    expect(tests.text).toContain('1 passed, 0 failed');
    expect(tests.data.procs).toMatch(/\[procs\].*dev/);
    expect(tests.data.cwd).toBe(dir);

    // 3. A command stops at a [Y/n] prompt: the call says so; the agent answers.
    const ask = await call(s.client, 'sh_run', { cmd: 'bash confirm.sh' });
    expect(ask.data.status).toBe('waiting-for-input');
    expect(ask.data.waiting_for_input.prompt).toContain('[Y/n]');
    const answered = await call(s.client, 'sh_interact', { id: ask.data.id, action: 'send', text: 'y\n', wait: 10 });
    expect(answered.result.isError).toBeFalsy();
    expect(answered.text).toContain('deployed');
    const final = await call(s.client, 'sh_interact', { id: ask.data.id, action: 'status', wait: 10 });
    expect(final.data.state).toBe('exited');
    expect(final.data.exit_code).toBe(0);

    // 4. A hung command: the timeout hands back its id; the agent kills it; the session works on.
    const hung = await call(s.client, 'sh_run', { cmd: 'sleep 1000', timeout: 1 });
    expect(hung.data.status).toBe('running');
    const killed = await call(s.client, 'sh_interact', { id: hung.data.id, action: 'kill' });
    expect(killed.data.state).toMatch(/killed|exited/);
    const after = await call(s.client, 'sh_run', { cmd: 'echo still-usable' });
    expect(after.text).toContain('still-usable');

    // 5. Exact raw lines of an earlier command, by range and by grep.
    const seq = await call(s.client, 'sh_run', { cmd: 'seq 1 3000' });
    expect(seq.data.raw_lines).toBe(3000);
    const range = await call(s.client, 'sh_interact', { id: seq.data.id, action: 'read_raw', from_line: 1500, to_line: 1502 });
    expect(range.data.lines).toEqual([
      { n: 1500, text: '1500' },
      { n: 1501, text: '1501' },
      { n: 1502, text: '1502' },
    ]);
    const grep = await call(s.client, 'sh_interact', { id: seq.data.id, action: 'read_raw', grep: '^299[89]$' });
    expect(grep.data.lines).toEqual([
      { n: 2998, text: '2998' },
      { n: 2999, text: '2999' },
    ]);

    // 6. Stop the dev server: its whole process group goes.
    const stop = await call(s.client, 'sh_interact', { id: 'dev', action: 'kill' });
    expect(stop.data.state).toMatch(/killed|exited/);
    expect(alive(dev.data.pid)).toBe(false);
  });
});
