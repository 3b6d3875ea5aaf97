import { describe, expect, it } from 'vitest';
import { Redactor, secretEnvValues } from './redactor.js';
import { scanSecrets } from './scanner.js';
import { mayHoldSecret } from './quick-check.js';
import { secretSamples } from './test-secrets.js';
import { HANG_CPU_MS } from './test-cpu-budget.js';

/** Every line of the secret that could identify it: for PEM blocks each base64 body line. */
function fragments(secret: string): string[] {
  const lines = secret.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----'));
  return lines.length ? lines : [secret];
}

describe('Redactor: generated real-format secrets', () => {
  const samples = secretSamples();
  for (const sample of samples) {
    it(`masks a ${sample.kind}`, async () => {
      const r = new Redactor();
      const text = `build ok\n${sample.line}\ndone in 2s\n`;
      const out = await r.redact(text);
      for (const f of fragments(sample.secret)) expect(out).not.toContain(f);
      expect(out).toContain('[masked: ');
      expect(out).toMatch(/^build ok\n/);
      expect(out).toMatch(/\ndone in 2s\n$/);
    });
  }

  it('masks PTY output (CRLF line ends) and keys split over separate strings', async () => {
    const key = samples.find((s) => s.kind === 'rsa private key (pkcs8)')!.secret;
    const r = new Redactor();
    const crlf = await r.redact(key.replace(/\n/g, '\r\n'));
    for (const f of fragments(key)) expect(crlf).not.toContain(f);
    const lines = await r.redactStrings(key.split('\n'));
    for (const f of fragments(key)) expect(lines.join('\n')).not.toContain(f);
  });

  it('masks a private key block cut before its END line (a capped reply or a page of read_raw)', async () => {
    const key = samples.find((s) => s.kind === 'ec private key')!.secret;
    const cut = key.split('\n').slice(0, 3).join('\n');
    const out = await new Redactor().redact(`$ cat id_ec\n${cut}\n[mish: reply cut at ~20k tokens]`);
    for (const f of fragments(cut)) expect(out).not.toContain(f);
    expect(out).toContain('[mish: reply cut');
  });

  it('masks key blocks as mish shows them: numbered (read_raw), indented (sh_spawn tail), middle folded by the squasher', async () => {
    const r = new Redactor();
    for (const kind of ['ec private key', 'rsa private key (pkcs1)', 'rsa private key (pkcs8)']) {
      const key = samples.find((s) => s.kind === kind)!.secret.trimEnd();
      const lines = key.split('\n');
      const numbered = lines.map((l, i) => `${i + 10}│ ${l}`).join('\n');
      const indented = `ready\n${lines.map((l) => `  ${l}`).join('\n')}\n  after`;
      const folded = [lines[0], lines[1], `[... ${lines.length - 4} lines omitted (lines 3-${lines.length - 2})]`, lines[lines.length - 2], lines[lines.length - 1]].join('\n');
      for (const [shape, text] of [['numbered', numbered], ['indented', indented], ['folded', folded]]) {
        const out = await r.redact(`x: ${text}\ndone`);
        for (const f of fragments(key)) expect(out.includes(f), `${kind} ${shape}: ${f}`).toBe(false);
        expect(out, `${kind} ${shape}`).toMatch(/\ndone$/);
      }
      expect(await r.redact(`x: ${indented}`)).toMatch(/\n  after$/);
    }
  });

  it('keeps the host of a URL and the name of an assignment', async () => {
    const r = new Redactor();
    expect(await r.redact('https://deploy:Zx81kqPw0vLr2mNq@git.example.com/x')).toBe('https://deploy:[masked: url password]@git.example.com/x');
    expect(await r.redact('DB_PASSWORD="Wq8zL2kP0x"')).toBe('DB_PASSWORD="[masked: password]"');
    const aws = `aws_secret_access_key = ${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0'}`;
    expect(await r.redact(aws)).toBe('aws_secret_access_key = [masked: access key]');
  });

  it('leaves ordinary build and test output alone', async () => {
    const text = [
      'src/app.ts(12,5): error TS2322: Type "string" is not assignable to type "number".',
      'FAIL test/auth.test.ts > login > rejects a wrong password',
      'password_min_length: 12',
      'remember_password: false',
      'password=$DB_PASSWORD',
      'https://github.com/org/repo/pull/42',
      'commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39',
      'PWD=/home/dev/project',
      'Tests: 3 failed, 41 passed, 44 total',
    ].join('\n');
    expect(await new Redactor().redact(text)).toBe(text);
  });

  it('masks values of environment variables named like secrets, and their URL-encoded form', async () => {
    const env = { GITHUB_TOKEN: 'plain-looking-value-123', DEPLOY_PASSWORD: 'p@ss w/rd!', HOME: '/home/dev', CI: 'true', API_KEY: 'short' };
    expect(secretEnvValues(env).map((v) => v.name).sort()).toEqual(['DEPLOY_PASSWORD', 'GITHUB_TOKEN']);
    const r = new Redactor({ env });
    const out = await r.redact(`token plain-looking-value-123 at /home/dev; url https://u:${encodeURIComponent('p@ss w/rd!')}@h.example/`);
    expect(out).toContain('[masked: $GITHUB_TOKEN value]');
    expect(out).not.toContain('plain-looking-value-123');
    expect(out).not.toContain(encodeURIComponent('p@ss w/rd!'));
    expect(out).toContain('/home/dev');
  });

  it('uses any masker of known values (the handoff secrets)', async () => {
    const r = new Redactor({ known: [{ mask: (t) => t.split('hunter2').join('[masked: typed secret]') }] });
    expect(await r.redact('typed hunter2 ok')).toBe('typed [masked: typed secret] ok');
  });

  it('redacts every string of a structured value and keeps its shape', async () => {
    const gh = samples.find((s) => s.kind === 'github classic token')!.secret;
    const v = { id: 'c1', exitCode: 0, lines: ['a', `token ${gh}`], nested: { text: gh } };
    const out = await new Redactor().redactDeep(v);
    expect(out).toEqual({ id: 'c1', exitCode: 0, lines: ['a', 'token [masked: github token]'], nested: { text: '[masked: github token]' } });
  });

  it('fields of a structured value are scanned apart: an enum after a key tail is not taken for key body', async () => {
    const key = samples.find((s) => s.kind === 'ec private key')!.secret.trimEnd();
    const v = { status: 'started', wait: 'matched', tail: key.split('\n').map((l) => `  ${l}`), lines: key.split('\n').map((text, i) => ({ n: i + 1, text })), after: 'exited' };
    const out = await new Redactor().redactDeep(v);
    expect(out.status).toBe('started');
    expect(out.wait).toBe('matched');
    expect(out.after).toBe('exited');
    const all = JSON.stringify(out);
    for (const f of fragments(key)) expect(all).not.toContain(f);
  });

  it('a text cannot switch redaction off with a secretlint-disable comment', async () => {
    const gh = samples.find((s) => s.kind === 'github classic token')!.secret;
    const out = await new Redactor().redact(`// secretlint-disable\n${gh}\n`);
    expect(out).not.toContain(gh);
  });

  it('scanSecrets is linear on long lines without secrets (no catastrophic backtracking)', async () => {
    const long = 'a_'.repeat(200_000) + '\n' + 'x'.repeat(400_000);
    const t = process.cpuUsage();
    expect(scanSecrets(long)).toEqual([]);
    // hang guard only: a quadratic pattern takes minutes here (CPU time: a loaded machine stretches wall time, not this)
    const cpu = process.cpuUsage(t);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(HANG_CPU_MS);
  });
});

describe('mayHoldSecret: the cheap check before loading the scanner (CLI audit records)', () => {
  it('says "look" for every generated real-format secret and for the extra patterns', async () => {
    for (const sample of secretSamples()) {
      expect(mayHoldSecret(sample.line), sample.kind).toBe(true);
      // …and as the CLI's lazy redactor reads it, in JSON (a hooked run's output: a line's start is after the quote there).
      expect(mayHoldSecret(JSON.stringify(sample.line)), sample.kind).toBe(true);
      // and whatever the Redactor masks in a line is in a line mayHoldSecret flags
      expect(await new Redactor().redact(sample.line), sample.kind).toContain('[masked: ');
    }
    for (const t of ['mysql -u root --password hunter22', 'AWS_ACCOUNT_ID=123456789012', 'redis://:pw@h/0', 'x-api-key: abc']) expect(mayHoldSecret(t), t).toBe(true);
  });

  it('says "look" for a bare recovery phrase however it is laid out, raw or in the CLI\'s JSON (bare-mnemonics.ts)', async () => {
    const { generateMnemonic } = await import('@scure/bip39');
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    for (const strength of [128, 160, 192, 224, 256]) {
      const words = generateMnemonic(wordlist, strength).split(' ');
      for (const t of [words.join(' '), words.join('\n'), words.join('\r\n'), words.map((w, i) => `${i + 1}. ${w}`).join('  '), words.map((w, i) => `${String(i + 1).padStart(2)}) ${w}`).join('\n')]) {
        expect(mayHoldSecret(t), t).toBe(true);
        expect(mayHoldSecret(JSON.stringify(`${t}\n`)), t).toBe(true);
      }
    }
  });

  it('lets ordinary command lines through without loading the scanner', () => {
    for (const t of ['npm test', 'cargo build --release', 'ls -la src/main', 'git status', '/home/dev/work/project', 'make -j8 && ./run.sh']) expect(mayHoldSecret(t), t).toBe(false);
  });

  it("masks Rails' SECRET_KEY_BASE (a 128-hex value named like a secret, not a digest)", () => {
    const value = 'a1'.repeat(64);
    const out = new Redactor().mask(`SECRET_KEY_BASE=${value}\n`);
    expect(out).not.toContain(value);
    expect(out).toMatch(/^SECRET_KEY_BASE=\[masked: [^\]]+\]\n$/);
  });

  it("keeps the squasher's cut mark out of a mask: each side of a value cut in a long line is masked, the mark stays", () => {
    const text = '"login_password": "Xk3aaaa9bbbbccc12… [+140 chars] …dd4eeee5ffff", "port": 5432';
    const out = new Redactor().mask(text);
    expect(out).toContain('… [+140 chars] …');
    expect(out).not.toContain('Xk3aaaa9bbbbccc12');
    expect(out).not.toContain('dd4eeee5ffff');
  });
  it("masks a remembered value's pieces beside the squasher's cut mark (adversary pass 20: an Azure key's tail showed after the cut)", () => {
    const key = 'hqG6XpyHVMruo8XYqkhYioVLfvWo7mM1neqLLtMCbcYHZ9MdGE9e5ZIPqitp3OF08tOz/MuhNUQqiYAEOYyKkA==';
    const r = new Redactor();
    r.learnFrom(`[('spark.app.id', 'local-1'), ('spark.hadoop.fs.azure.account.key.lake.dfs.core.windows.net', '${key}')]`);
    const tail = r.mask("('spark.app.id', 'local-171… [+125 chars] …Z9MdGE9e5ZIPqitp3OF08tOz/MuhNUQqiYAEOYyKkA=='), ('spark.master'");
    expect(tail).toBe("('spark.app.id', 'local-171… [+125 chars] …[masked: azure storage account key]'), ('spark.master'");
    const head = r.mask("('x', 'hqG6XpyHVMruo8XYqk… [+125 chars] …'), ('y', 'local[2]')");
    expect(head).toBe("('x', '[masked: azure storage account key]… [+125 chars] …'), ('y', 'local[2]')");
    // Text beside a cut that is no value's piece stays.
    expect(r.mask("('x', 'abcdefghijkl… [+125 chars] …mnopqrstuvwx')")).toBe("('x', 'abcdefghijkl… [+125 chars] …mnopqrstuvwx')");
  });
  it("masks what terminal mechanics hide from a plain scan (adversary pass 25)", () => {
    // An OSC 8 hyperlink's target and a window title the shell sets to the command line.
    const link = '\x1b]8;;https://ci:cdIt70DDvV10wQ4aXl1eZLl4rs7uNKsF@grafana.acme.io/d/abc\x07open dashboard\x1b]8;;\x07';
    expect(new Redactor().mask(link)).not.toContain('cdIt70DDvV10wQ4aXl1eZLl4rs7uNKsF');
    expect(new Redactor().mask(link)).toContain('open dashboard');
    expect(new Redactor().mask('\x1b]0;dana@dev: mysql -uroot -pM5if*jzfJ8eCJrm4 shop\x07')).not.toContain('M5if*jzfJ8eCJrm4');
    // A typed password echoed with a correction by backspace.
    expect(new Redactor().mask('Enter password: pq3Q.BUrm8E5x\b \b2MwCchAF')).toBe('Enter password: [masked: password]');
    // A remembered value whose start a progress bar drew over (a terminal's render of `\r` without an erase).
    const r = new Redactor();
    r.learnFrom('API_SECRET=3326d228280d6bdcae6fd69f1d3e95f52158f70d259aabbccdd\n');
    expect(r.mask('[=========>] 20%3326d228280d6bdcae6fd69f1d3e95f52158f70d259aabbccdd')).toBe('[=========>] 20%[masked: secret]');
  });

  it("masks a key's body line shown outside the page while the command is still printing the key (last_line, the process table)", () => {
    const r = new Redactor();
    const body = 'MIIEowIBAAKCAQEApbJknkz8vluc4VqOWWKONkkOzVwQ88zvXHIDgOWKpC/LOR01';
    r.stream('c1').pushBytes(Buffer.from(`-----BEGIN RSA PRIVATE KEY-----\r\n${body}\r\n`));
    expect(r.mask(`last_line: ${body}`)).toBe('last_line: [masked: private key]');
    expect(r.mask(`c1 running, last: "${body.slice(0, 40)}…"`)).not.toContain(body.slice(0, 40));
    // Other base64 is no piece of the open block.
    expect(r.mask('integrity sha512-Zm9vYmFyYmF6cXV4cXV1eHh4eHh4eHh4')).toBe('integrity sha512-Zm9vYmFyYmF6cXV4cXV1eHh4eHh4eHh4');
    r.stream('c1').pushBytes(Buffer.from('-----END RSA PRIVATE KEY-----\r\n'));
    expect(r.mask('uv 0.1 MIIEowIBAAKCAQEApbJknkz8 x')).toBe('uv 0.1 MIIEowIBAAKCAQEApbJknkz8 x');
  });
  it("masks a JWT the squasher's cut took the middle of: its head before the mark, its rest after (adversary pass 26)", () => {
    const out = new Redactor().mask('vault write auth/jwt/login role=ci jwt=eyJhbGciOiJSUzI1NiIsImtpZCI6Il9ZeE56.eyJuYW1lc3BhY2VfaWQiOiI0MTIi… [+669 chars] …eeHj1fzARx.qxtIXD8RVBfZphhu9bkX47T rest');
    expect(out).toBe('vault write auth/jwt/login role=ci jwt=[masked: jwt]… [+669 chars] …[masked: jwt] rest');
  });
  it("masks a key block's body lines shown apart from its armour (the squasher's omitted lines took BEGIN: adversary pass 28)", () => {
    const r = new Redactor();
    const lines = ['ac093b3b3fd56916cd98d143ef23a982', '5e1f0a9c7b3d2e4f6a8b0c1d2e3f4a5b'];
    r.stream('c1').pushBytes(Buffer.from(`-----BEGIN OpenVPN Static key V1-----\r\n${lines.join('\r\n')}\r\n-----END OpenVPN Static key V1-----\r\n`));
    expect(r.mask(`[... 24 lines omitted ...]\n${lines.join('\n')}\n</tls-crypt>`)).toBe('[... 24 lines omitted ...]\n[masked: private key]\n[masked: private key]\n</tls-crypt>');
  });
});
