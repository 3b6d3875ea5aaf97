/**
 * Secrets printed by commands never reach the agent: generated real-format keys (AWS, GCP,
 * GitHub, npm, Slack, OpenAI, Anthropic, JWT, PEM private keys from node:crypto, URLs and
 * connection strings with passwords, password= assignments) and the values of secret-named
 * environment variables are masked in sh_run, sh_spawn and sh_interact (read_raw, read_tail)
 * replies, text and structuredContent alike, while the spool keeps the raw bytes for the human;
 * and the calls land in a valid audit log, redacted.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretSamples, type SecretSample } from '../src/main/core/redact/test-secrets.js';
import { readAuditRecords } from '../src/main/core/audit/audit-log.js';
import { verifyAuditLog } from '../src/main/core/audit/verify.js';
import { call, eventually, runCli, startStdio, type Served } from './mcp-helpers.js';

/** The identifying pieces of a secret: the whole value, or each base64 line of a PEM block. */
function fragments(secret: string): string[] {
  const lines = secret.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----'));
  return lines.length ? lines : [secret];
}

const ENV_SECRET = 'env-secret-Value-4242';

describe('MCP replies are redacted; the spool and the audit log behave', () => {
  let served: Served;
  let samples: SecretSample[];
  let auditLog: string;

  beforeAll(async () => {
    samples = secretSamples();
    served = await startStdio({ DEPLOY_TOKEN: ENV_SECRET });
    writeFileSync(path.join(served.home, 'secrets.txt'), samples.map((s) => `${s.kind}: ${s.line}`).join('\n') + '\n');
    writeFileSync(path.join(served.home, 'canary'), 'alive\n');
    auditLog = path.join(served.home, '.state', 'mish', 'audit.jsonl');
  });
  afterAll(async () => {
    await served?.close();
  });

  /** No fragment of any secret anywhere in a reply (text and structuredContent). */
  function expectClean(what: string, r: unknown): void {
    const all = JSON.stringify(r);
    for (const s of samples) for (const f of fragments(s.secret)) expect(all.includes(f), `${what}: ${s.kind} leaked`).toBe(false);
    expect(all.includes(ENV_SECRET), `${what}: $DEPLOY_TOKEN leaked`).toBe(false);
  }

  let runId = '';
  it('sh_run: every kind masked in text and structuredContent; the spool keeps the raw bytes', async () => {
    const { result, text, data } = await call(served.client, 'sh_run', { cmd: 'cat secrets.txt; echo "token is $DEPLOY_TOKEN"' });
    expectClean('sh_run', result);
    expect(text).toContain('[masked: ');
    expect(text).toContain('[masked: $DEPLOY_TOKEN value]');
    for (const s of samples) expect(text, s.kind).toContain(`${s.kind}:`); // the line is there, its secret is not
    runId = data.id;
    expect(runId).toMatch(/^c\d+$/);
    const raw = runCli(['raw', data.spool_ref.replace(/^mish raw /, '')], served.home);
    expect(raw.status).toBe(0);
    for (const s of samples) for (const f of fragments(s.secret)) expect(raw.stdout.includes(f), `spool lost ${s.kind}`).toBe(true);
    const spoolDir = path.join(served.home, '.state', 'mish', 'spool');
    expect(statSync(spoolDir).mode & 0o777).toBe(0o700);
  });

  it("a long line's cut in a condensed reply leaves no piece of a token it would split (adv142)", async () => {
    const token = 'ghp_XpEwEvcpNE3EoTfwIgTe8RS0OfRnx1bQ2cD4';
    // The token starts 20 characters before the head's cut (line-cut.ts SHOWN_HEAD_CHARS, 240): cut bare, its head shows 20.
    const line = `${'w'.repeat(219)} ${token} ${'v'.repeat(800)} done`;
    const { result, text } = await call(served.client, 'sh_run', { cmd: `python3 -c 'print("${line}")'` });
    expect(text).toMatch(/… \[\+[\d,]+ chars\] …/);
    const all = JSON.stringify(result);
    for (let i = 0; i + 8 <= token.length; i++) expect(all, token.slice(i, i + 8)).not.toContain(token.slice(i, i + 8));
  });

  it('sh_interact read_raw (whole and a page cutting a key block) and read_tail', async () => {
    const whole = await call(served.client, 'sh_interact', { id: runId, action: 'read_raw' });
    expect(whole.data.lines.length).toBeGreaterThan(samples.length);
    expectClean('read_raw', whole.result);
    const fileLines = readFileSync(path.join(served.home, 'secrets.txt'), 'utf8').split('\n');
    const keyStart = fileLines.findIndex((l) => l.includes('BEGIN PRIVATE KEY')) + 1;
    expect(keyStart).toBeGreaterThan(0);
    // A page that starts at the BEGIN line and ends mid-body.
    const page = await call(served.client, 'sh_interact', { id: runId, action: 'read_raw', from_line: keyStart, to_line: keyStart + 5 });
    expect(page.data.lines).toHaveLength(6);
    expectClean('read_raw page', page.result);
    // A page of body lines alone (no BEGIN, no END): the command's stream state knows they are a key's.
    const middle = await call(served.client, 'sh_interact', { id: runId, action: 'read_raw', from_line: keyStart + 2, to_line: keyStart + 6 });
    expect(middle.data.lines).toHaveLength(5);
    expectClean('read_raw page inside a key block', middle.result);
    for (const l of middle.data.lines as { text: string }[]) expect(l.text).toBe('[masked: private key]');
    // A page that ends on END and starts in the body.
    const keyEnd = fileLines.findIndex((l, i) => i >= keyStart && l.includes('END PRIVATE KEY')) + 1;
    const ending = await call(served.client, 'sh_interact', { id: runId, action: 'read_raw', from_line: keyEnd - 3, to_line: keyEnd + 1 });
    expectClean('read_raw page ending a key block', ending.result);
    // A column window that starts inside a token shows no part of it.
    const ghLine = fileLines.findIndex((l) => l.startsWith('github classic token:')) + 1;
    const gh = samples.find((x) => x.kind === 'github classic token')!.secret;
    const cols = await call(served.client, 'sh_interact', { id: runId, action: 'read_raw', from_line: ghLine, to_line: ghLine, from_col: 'github classic token: '.length + 10 });
    expect(JSON.stringify(cols.result)).not.toContain(gh.slice(10, 26));
    const tail = await call(served.client, 'sh_interact', { id: runId, action: 'read_tail', lines: 400 });
    expectClean('read_tail', tail.result);
    const rawTail = await call(served.client, 'sh_interact', { id: runId, action: 'read_tail', lines: 400, raw: true });
    expectClean('read_tail raw', rawTail.result);
  });

  it('sh_spawn: the tail and the matched line are masked', async () => {
    const { result, data } = await call(served.client, 'sh_spawn', { cmd: 'cat secrets.txt; echo READY; sleep 30', wait_for: 'READY', timeout: 20 });
    expect(data.status, JSON.stringify(result)).toBe('started');
    expectClean('sh_spawn', result);
    await call(served.client, 'sh_interact', { id: data.id, action: 'kill' });
  });

  it('progress notifications (last output line) are masked too', async () => {
    const gh = samples.find((s) => s.kind === 'github classic token')!.secret;
    const messages: string[] = [];
    const { result } = await call(served.client, 'sh_run', { cmd: `echo ${gh}; sleep 3` }, { onprogress: (p) => void (p.message && messages.push(p.message)), timeout: 30_000 });
    expectClean('sh_run', result);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.some((m) => m.includes('[masked: github token]')), messages.join(' | ')).toBe(true);
    for (const m of messages) expect(m).not.toContain(gh);
  });

  it('a value masked once is masked later wherever it shows, and a key printed with literal \\n escapes is masked', async () => {
    const pw = 'Qx7-mPz2-Lw9%vT4';
    const first = await call(served.client, 'sh_run', { cmd: `echo 'mysql -h db -u root -p${pw} shop'` });
    expect(first.text).not.toContain(pw);
    expect(first.text).toContain('[masked: password on command line]');
    const later = await call(served.client, 'sh_run', { cmd: `echo "the backup used ${pw} yesterday"` });
    expect(later.text).not.toContain(pw);
    const key = samples.find((x) => x.kind === 'ec private key')!.secret.trimEnd();
    const printed = await call(served.client, 'sh_run', { cmd: `printf '%s\\n' '${key.replace(/\n/g, '\\n')}'` });
    for (const f of fragments(key)) expect(printed.text).not.toContain(f);
    expect(printed.text).toContain('[masked: private key]');
  });

  it("a secret variable set in the session and printed by a line another program runs is masked (adversary pass 11's forms)", async () => {
    // Values built by the shell: neither the command lines nor the server's environment hold them, only the output does.
    const forms: [string, string][] = [
      ['node -p process.env.RELEASE_TOKEN_A', 'node inline script'],
      [`bash -c 'echo "$RELEASE_TOKEN_B"'`, 'echo'],
      [`python3 -c 'import os; print(os.environ["RELEASE_TOKEN_C"])'`, 'python3 inline script'],
      ['cat <<< "$RELEASE_TOKEN_D"', 'cat <<<'],
    ];
    const exports = forms.map((_, i) => `export RELEASE_TOKEN_${'ABCD'[i]}="$(printf 'kRel%s%s' ${i} 7Qz9Wm2Xc4Vb)"`).join('; ');
    expect((await call(served.client, 'sh_run', { cmd: exports })).data.exit_code).toBe(0);
    for (const [i, [cmd, tool]] of forms.entries()) {
      const { text, data } = await call(served.client, 'sh_run', { cmd });
      expect(data.exit_code, cmd).toBe(0);
      expect(text, cmd).not.toContain(`kRel${i}7Qz9Wm2Xc4Vb`);
      expect(text, cmd).toContain(`[masked: $RELEASE_TOKEN_${'ABCD'[i]} value printed by ${tool}]`);
    }
  });

  it("an output ending in head's header of a credentials file keeps the reply's fields (its status, the session's directory) unmasked (adversary pass 139 F18)", async () => {
    // The header reader took the reply's fields scanned after the output for the file's lines: `status` masked, rejected by the schema.
    const { result, data } = await call(served.client, 'sh_run', { cmd: "printf '==> /home/dana/.aws/credentials <==\\n'" });
    expect(result.isError ?? false).toBe(false);
    expect(data.status).toBe('exited');
    const later = await call(served.client, 'sh_run', { cmd: 'echo after' });
    expect(later.data.status).toBe('exited');
    expect(String(later.data.cwd)).not.toContain('[masked:');
    expect(later.text).not.toContain('[masked:');
  });

  it("a printer whose every line is a credential leaves the reply's read_raw hint alone (adv143 F16, F48)", async () => {
    // A transcript's command reading a secret file through python: every line after it is masked whole, and the reply's fields,
    // scanned after the output, were read as its lines.
    writeFileSync(path.join(served.home, 'vw.txt'), `$ python3 -c 'import json;d=json.load(open("/root/.config/Bitwarden CLI/data.json"));print(json.dumps({k:v for k,v in d.items() if "Token" in k}, indent=2))'\n{\n  "user_token_refreshToken": "Zk29pQxLm7vBq8Rt4Wz"\n}\n`);
    const { data, text } = await call(served.client, 'sh_run', { cmd: 'cat vw.txt' });
    expect(text).not.toContain('Zk29pQxLm7vBq8Rt4Wz');
    expect(data.spool).toBe(`sh_interact {id: "${data.id}", action: "read_raw"}`);
  });

  it('a refused dangerous line is audited as a policy decision; the canary survives', async () => {
    const { data } = await call(served.client, 'sh_run', { cmd: 'rm -rf ~' });
    expect(data.status).toBe('refused');
    expect(readFileSync(path.join(served.home, 'canary'), 'utf8')).toBe('alive\n');
  });

  it('the audit log: one record per call, chained, redacted, 0600', async () => {
    const secretCmd = samples.find((s) => s.kind === 'github classic token')!.secret;
    await call(served.client, 'sh_run', { cmd: `echo ${secretCmd} > /dev/null` });
    await call(served.client, 'sh_session', { action: 'create', name: 'extra', env: { EXTRA_API_KEY: 'extra-key-123456' } });
    const echoed = await call(served.client, 'sh_run', { cmd: 'echo $EXTRA_API_KEY', session: 'extra' });
    // A command that outlives its call: "backgrounded" now, its end recorded when it comes.
    const bg = await call(served.client, 'sh_run', { cmd: 'sleep 1.5; echo late', session: 'extra', timeout: 0.2 });
    expect(bg.data.status).toBe('running');
    expect(echoed.text).not.toContain('extra-key-123456');
    expect(echoed.text).toContain('[masked: $EXTRA_API_KEY value]');
    expect(await eventually(() => existsSync(auditLog) && readAuditRecords(auditLog).some((r) => r.command === 'sleep 1.5; echo late' && r.decision === 'ran'), 15_000)).toBe(true);
    const recs = readAuditRecords(auditLog);
    const text = readFileSync(auditLog, 'utf8');
    expect(text).not.toContain(secretCmd);
    expect(text).not.toContain('extra-key-123456');
    expect(statSync(auditLog).mode & 0o777).toBe(0o600);
    expect(verifyAuditLog(auditLog)).toMatchObject({ ok: true, problems: [] });
    expect(recs[0]).toMatchObject({ kind: 'session', decision: 'server-started', host: 'mcp' });
    expect(recs).toContainEqual(expect.objectContaining({ kind: 'command', decision: 'ran', by: 'agent', agent: 'mish-test/0.0.0', command: 'cat secrets.txt; echo "token is $DEPLOY_TOKEN"', exitCode: 0, id: runId }));
    expect(recs).toContainEqual(expect.objectContaining({ kind: 'decision', decision: 'refused', by: 'policy', command: 'rm -rf ~', category: 'dangerous' }));
    expect(recs).toContainEqual(expect.objectContaining({ kind: 'command', decision: 'started', command: 'cat secrets.txt; echo READY; sleep 30' }));
    expect(recs).toContainEqual(expect.objectContaining({ kind: 'command', decision: 'kill' }));
    expect(recs).toContainEqual(expect.objectContaining({ kind: 'session', decision: 'created', session: 'extra' }));
    expect(recs).toContainEqual(expect.objectContaining({ kind: 'command', command: 'echo [masked: github token] > /dev/null' }));
    expect(recs).toContainEqual(expect.objectContaining({ decision: 'backgrounded', command: 'sleep 1.5; echo late', id: bg.data.id }));
    expect(recs).toContainEqual(expect.objectContaining({ decision: 'ran', command: 'sleep 1.5; echo late', id: bg.data.id, exitCode: 0, detail: { background: true } }));
  });
});
