/**
 * `mish <cmd>` writes the audit log (redacted, chained) and `mish audit` / `mish audit verify`
 * read it: the built bundle run as a user runs it, without a terminal, in a temp HOME.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretSamples } from '../src/main/core/redact/test-secrets.js';

const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'dist', 'mish.mjs');
let home: string;
let log: string;

function mish(args: string[]) {
  const r = spawnSync('setsid', ['-w', process.execPath, bundle, ...args], {
    cwd: home,
    input: '',
    encoding: 'utf8',
    env: { ...process.env, HOME: home, XDG_STATE_HOME: path.join(home, '.state'), MISH_AUDIT_LOG: '', MISH_SPOOL_DIR: '', NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const token = secretSamples().find((s) => s.kind === 'github classic token')!.secret;

beforeAll(() => {
  // dist/mish.mjs is built once before the run (vitest global setup), never here: a rebuild
  // while another test file executes the bundle would hand it a half-written file.
  home = mkdtempSync(path.join(tmpdir(), 'mish-cli-audit-'));
  writeFileSync(path.join(home, 'canary'), 'alive\n');
  log = path.join(home, '.state', 'mish', 'audit.jsonl');
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('mish audit', () => {
  it('records CLI runs, refusals and --raw runs, redacted, in a 0600 log', () => {
    expect(mish(['echo', 'hello']).code).toBe(0);
    expect(mish(['echo', token]).code).toBe(0);
    const refused = mish(['rm -rf ~']);
    expect(refused.code).not.toBe(0);
    expect(readFileSync(path.join(home, 'canary'), 'utf8')).toBe('alive\n');
    expect(mish(['--raw', 'true']).code).toBe(0);
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain(token);
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(log)).mode & 0o777).toBe(0o700);
    const list = mish(['audit', '--json']);
    expect(list.code).toBe(0);
    const recs = JSON.parse(list.out) as Record<string, unknown>[];
    expect(recs.map((r) => [r.seq, r.kind, r.decision, r.by, r.command])).toEqual([
      [1, 'command', 'ran', 'agent', 'echo hello'],
      [2, 'command', 'ran', 'agent', 'echo [masked: github token]'],
      [3, 'decision', 'refused', 'policy', 'rm -rf ~'],
      [4, 'command', 'ran-raw', 'agent', 'true'],
    ]);
    expect(recs[2]).toMatchObject({ host: 'cli', category: 'dangerous', reason: 'refused: policy says ask (rule rm-recursive-root-or-home); there is no terminal to ask for confirmation' });
    expect(recs[0]).toMatchObject({ exitCode: 0, cwd: home, spoolRef: expect.stringMatching(/^mish raw /) });
  });

  it('filters: --decision, --kind, --since, --limit, --session', () => {
    const ids = (args: string[]) => (JSON.parse(mish(['audit', '--json', ...args]).out) as { seq: number }[]).map((r) => r.seq);
    expect(ids(['--decision', 'refused'])).toEqual([3]);
    expect(ids(['--kind', 'command'])).toEqual([1, 2, 4]);
    expect(ids(['--since', '1h'])).toEqual([1, 2, 3, 4]);
    expect(ids(['--since', '2999-01-01'])).toEqual([]);
    expect(ids(['--limit', '2'])).toEqual([3, 4]);
    expect(ids(['--session', 'nope'])).toEqual([]);
    const human = mish(['audit', '--limit', '1']);
    expect(human.out).toMatch(/^ {3}4 {2}\S+ \S+Z {2}command ran-raw {2}by agent {2}exit 0 {2}true\n\(newest 1 of 4 matching records; --limit 0 for all\)\n$/);
  });

  it('verify of a log that does not exist yet: ok, nothing recorded (no phantom blank record)', () => {
    const absent = mish(['audit', 'verify', '--log', `${log}.absent`]);
    expect(absent).toMatchObject({ code: 0, out: `ok: ${log}.absent: no audit log yet (nothing recorded)\n` });
    expect(JSON.parse(mish(['audit', 'verify', '--json', '--log', `${log}.absent`]).out)).toMatchObject({ ok: true, records: 0, problems: [] });
  });

  it('verify: ok, then names an edited record; exit 0 / 1', () => {
    const ok = mish(['audit', 'verify']);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^ok: .*: 4 record\(s\), chain intact, last seq 4/);
    const lines = readFileSync(log, 'utf8').split('\n');
    lines[1] = lines[1].replace('echo [masked: github token]', 'echo innocent');
    writeFileSync(log, lines.join('\n'));
    const bad = mish(['audit', 'verify']);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('record 2 (seq 2): edited or forged: its contents do not match its hash');
    const json = JSON.parse(mish(['audit', 'verify', '--json']).out) as { ok: boolean; problems: { line: number }[] };
    expect(json.ok).toBe(false);
    expect(json.problems.map((p) => p.line)).toEqual([2]);
  });

  it('a --raw line refused for a control character is audited as a policy refusal', () => {
    const r = mish(['--raw', 'echo a\rb']);
    expect(r.code).not.toBe(0);
    const recs = JSON.parse(mish(['audit', '--json', '--decision', 'refused']).out) as Record<string, unknown>[];
    expect(recs.at(-1)).toMatchObject({ kind: 'decision', by: 'policy', decision: 'refused', detail: { raw: true, caller: 'agent' } });
  });

  it('--help for both; bad input is one line and exit 2', () => {
    expect(mish(['audit', '--help'])).toMatchObject({ code: 0, out: expect.stringMatching(/^usage: mish audit/) });
    expect(mish(['audit', 'verify', '--help'])).toMatchObject({ code: 0, out: expect.stringMatching(/^usage: mish audit verify/) });
    for (const args of [['audit', '--limit', 'x'], ['audit', '--since', 'yesterday'], ['audit', '--kind', 'x'], ['audit', '--bogus'], ['audit', 'verify', 'extra']]) {
      const r = mish(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});
