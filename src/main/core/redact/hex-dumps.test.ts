/**
 * Hex dumps of credential files (hex-dumps.ts, adv3 M22): the real `hexdump -C` and `xxd` print a
 * file whose secret is cut across rows; the secret's bytes and characters are masked in both
 * columns, row by row, and a dump of a file with no secret is kept as printed.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { itUnless, missing } from '../../../../test/helpers/skip.js';
import { Redactor } from './redactor.js';
import { hexdumpCOf, odCOf, xxdOf } from './test-corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'mish-hexdump-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'Pq7Wm3Zx9Lk2Vn8R';
const hexOf = (s: string) => Buffer.from(s).toString('hex');
/** Every 4-character piece of the secret, as text and as hex digits (one row may hold only a few of its bytes). */
const pieces = (s: string) => Array.from({ length: s.length - 3 }, (_, i) => s.slice(i, i + 4));

const dumps: [name: string, program: string, args: string[]][] = [
  ['hexdump -C', 'hexdump', ['-C']],
  ['xxd', 'xxd', []],
];

describe('hex dumps', () => {
  for (const [name, program, args] of dumps) {
    itUnless(missing(program))(`${name} of ~/.git-credentials: the password is masked in the hex and ASCII columns of every row it spans`, () => {
      const file = join(dir, `${program}-credentials`);
      writeFileSync(file, `https://bob:${SECRET}@github.com\n`);
      const dump = execFileSync(program, [...args, file], { encoding: 'utf8' });
      const out = new Redactor().mask(dump);
      for (const p of pieces(SECRET)) expect(out, p).not.toContain(p);
      // The hex of the secret: no 4-byte piece of it (spaced either way) is left.
      const flat = out.replace(/[ |]/g, '');
      for (const p of pieces(SECRET)) expect(flat, hexOf(p)).not.toContain(hexOf(p));
      expect(out).toContain('[masked: url password]');
      expect(out).toContain('https://bob:');
      expect(out).toContain('hub.com');
    });

    itUnless(missing(program))(`${name} of a file with no secret is kept as printed`, () => {
      const file = join(dir, `${program}-readme`);
      writeFileSync(file, 'token counts: 12 input, 30 output; see https://example.com/docs?page=2\n\u0000\u0001\u0002ELF\n');
      const dump = execFileSync(program, [...args, file], { encoding: 'utf8' });
      expect(new Redactor().mask(dump)).toBe(dump);
    });
  }
});

describe("a dump's last row shown alone (a read's status line: adversary pass 48)", () => {
  itUnless(missing('xxd'))("xxd of a token file: each row's piece is remembered, so the last row alone is masked", () => {
    const token = `ghs_${'Zq8xK2mN4pR7tV9wY3bD6fG8hJ0kL2Tc'.slice(0, 32)}AbCd`;
    const file = join(dir, 'gh-app-token');
    writeFileSync(file, `${token}\n`);
    const dump = execFileSync('xxd', [file], { encoding: 'utf8' });
    const r = new Redactor();
    expect(r.mask(dump)).not.toContain(token.slice(-8));
    const last = dump.trimEnd().split('\n').pop()!;
    const alone = r.mask(`c1 exited exit 0 1s, 3 lines, last: "${last}"`);
    expect(alone).toContain('[masked: github token]');
    expect(alone).not.toContain(token.slice(-8, -1));
  });
});

describe('dumps read from an offset, and od -c (session 4)', () => {
  const env = `DB_HOST=db.internal\nDB_USER=app\nDB_PASSWORD=${SECRET}\nREGION=eu-west-1\n`;
  const file = join(dir, 'dotenv');
  writeFileSync(file, env);
  const windows: [name: string, program: string, args: string[], formatted: () => string][] = [
    ['xxd -s 16', 'xxd', ['-s', '16'], () => xxdOf(Buffer.from(env), 16)],
    ['hexdump -C -s 16', 'hexdump', ['-C', '-s', '16'], () => hexdumpCOf(Buffer.from(env), 16)],
    ['od -c', 'od', ['-c'], () => odCOf(Buffer.from(env))],
    ['od -c -j 20', 'od', ['-c', '-j', '20'], () => odCOf(Buffer.from(env), 20)],
    ['od -An -c', 'od', ['-An', '-c'], () => odCOf(Buffer.from(env), 0, false)],
  ];
  for (const [name, program, args, formatted] of windows) {
    itUnless(missing(program))(`${name} of a .env: the password's bytes are masked in every row; the corpus's formatter prints what the tool prints`, () => {
      const dump = execFileSync(program, [...args, file], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
      expect(formatted()).toBe(dump);
      const out = new Redactor().mask(dump);
      expect(out).toContain('[masked: password]');
      const flat = out.replace(/[ |]/g, '');
      for (const p of pieces(SECRET)) {
        expect(out, p).not.toContain(p);
        expect(flat, hexOf(p)).not.toContain(hexOf(p));
      }
      // od's fields: no four characters of the secret spaced as od prints them.
      for (const p of pieces(SECRET)) expect(out).not.toContain([...p].map((c) => c.padStart(4)).join(''));
      // What is no secret stays (`DB_USER=app` sits in one row of each dump).
      expect(out).toContain(program === 'od' ? 'U   S   E   R   =   a   p   p' : 'DB_USER=app');
    });
  }

  itUnless(missing('od'))('od -c of a file with no secret is kept as printed', () => {
    const plain = join(dir, 'plain');
    writeFileSync(plain, 'retries: 3\ntoken_ttl: 3600\nhost: db.internal\n');
    const dump = execFileSync('od', ['-c', plain], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
    expect(new Redactor().mask(dump)).toBe(dump);
  });
  itUnless(missing('od', 'xxd', 'hexdump'))("a dump of a file that holds one made word alone (a password file, no name: adversary pass 76 F22) is masked; of a plain word, kept", () => {
    const password = 'NH3FqTPr#Fex!3Cf2$'; // 18 bytes: od's second row holds the last two and the line break
    writeFileSync(join(dir, 'vault-pass'), `${password}\n`);
    writeFileSync(join(dir, 'env-name'), 'production\n');
    for (const [program, args] of [['od', ['-c']], ['xxd', []], ['hexdump', ['-C']]] as const) {
      const dump = (file: string) => execFileSync(program, [...args, join(dir, file)], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
      const out = new Redactor().mask(dump('vault-pass'));
      expect(out, program).toContain('[masked: password file]');
      for (const p of pieces(password)) {
        expect(out, program).not.toContain(p);
        expect(out, program).not.toContain([...p].map((c) => c.padStart(4)).join(''));
      }
      // od's last row (two bytes and the line break): its fields are masked too.
      if (program === 'od') expect(out).not.toMatch(/^0000020 {3}2 {3}\$/m);
      expect(new Redactor().mask(dump('env-name')), program).toBe(dump('env-name'));
    }
    // A longer file's first rows (`xxd .npmrc | head -2`: no line break at their end, the name only) are no one-word file.
    writeFileSync(join(dir, 'npmrc'), '//registry.npmjs.org/:_authToken=npm_QUpKJem8ndZJIKmtH0SFzo13a8TQ8lo0e4Hd\n');
    const head = execFileSync('sh', ['-c', `xxd ${join(dir, 'npmrc')} | head -2`], { encoding: 'utf8' });
    expect(new Redactor().mask(head)).toBe(head);
  });
  it("reads tcpdump -X's rows (a Bearer header cut over three rows: adversary pass 22)", () => {
    const token = 'dqevnk0u7DBEHffAdKRGkQVt7coCkzCkWv7jayCk';
    const payload = Buffer.from(`GET / HTTP/1.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    const rows: string[] = [];
    for (let i = 0; i < payload.length; i += 16) {
      const chunk = payload.subarray(i, i + 16);
      const hex = (chunk.toString('hex').match(/.{1,4}/g) ?? []).join(' ');
      rows.push(`\t0x${i.toString(16).padStart(4, '0')}:  ${hex.padEnd(39)}  ${[...chunk].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('')}`);
    }
    const out = new Redactor().mask(`${rows.join('\n')}\n`);
    for (let i = 0; i + 8 <= token.length; i++) expect(out).not.toContain(token.slice(i, i + 8));
    expect(out).toContain('\t0x0000:  4745 5420 2f20 4854 5450 2f31 2e31 0d0a  GET / HTTP/1.1..');
  });
  it("reads an xxd row whose bytes hold a backspace without reading its decoded text over and over (adversary pass 64 K05: a stack overflow)", () => {
    const row = '00000030: d515 c07f e76e 4292 4990 281d 513b cc08  .....nB.I.(.Q;..';
    const r = new Redactor();
    expect(r.mask(row)).toBe(row);
    expect(r.mask(row.slice(0, 51))).toBe(row.slice(0, 51));
    // Backspaces at a line's end and two in a row: the clean line has none left.
    for (const t of ['password: x\b', 'a\b\b\bpassword\b\b', '\b\b\b\b']) expect(() => r.mask(t)).not.toThrow();
  });
});

describe("curl's --trace-ascii and --trace of a request (a secret cut over rows)", () => {
  // A real `python3 -m http.server` on a port the system picks (a POST gets its 501: the trace of the request is the point).
  let server: ChildProcess | undefined;
  let port: Promise<number> | undefined;
  afterAll(() => server?.kill());
  const serverPort = (): Promise<number> =>
    (port ??= new Promise((resolve, reject) => {
      server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
      let said = '';
      server.stdout!.on('data', (d: Buffer) => {
        said += d.toString();
        const m = / port (\d+) /.exec(said);
        if (m) resolve(Number(m[1]));
      });
      server.on('exit', () => reject(new Error(`http.server exited: ${said}`)));
    }));
  const MODES = ['--trace-ascii', '--trace'] as const;
  /** curl's trace of a POST of `body` with `headers`, and its command line. */
  async function trace(mode: (typeof MODES)[number], headers: string[], body: string): Promise<{ command: string; dump: string }> {
    const args = ['-s', '-o', '/dev/null', mode, '-', ...headers.flatMap((h) => ['-H', h]), '-d', body, `http://127.0.0.1:${await serverPort()}/x`];
    return { command: `curl ${args.map((a) => `'${a}'`).join(' ')}`, dump: execFileSync('curl', args, { encoding: 'utf8', timeout: 10_000 }) };
  }

  // A bearer token long enough that its header wraps past 64 characters; a JSON secret cut after its 14th character (byte 64 ends
  // a row in both layouts).
  const TOKEN = 'Zq8xK2mN4pR7tV9wY3bD6fG8hJ0kL2TcQm7xT2vK9pL4wZ8nA1sD3fG5hJ7kL9zX2cV4bN6m';
  const SECRET = 'e9c0a7f1d2b3c4e5e9bb5b44c0197e0a';
  const PUBLIC = 'public-sandbox-9435aa62-7f88-4c32-b908-c8bda270a1ce';
  const BODY = `{"client_id":"76c1fce6655102cbf574a0a4","secret":"${SECRET}","public_token":"${PUBLIC}"}`;
  const windows = (s: string, n: number) => Array.from({ length: s.length - n + 1 }, (_, i) => s.slice(i, i + n));
  const offsets = (t: string) => t.match(/^[0-9a-f]{4}: /gm);

  for (const mode of MODES) {
    itUnless(missing('curl', 'python3'))(`${mode}: the wrapped bearer token and the JSON secret are masked in every row they span; headers, offsets and the public token stay`, async () => {
      const { command, dump } = await trace(mode, [`Authorization: Bearer ${TOKEN}`], BODY);
      // The dump cuts both: the token's and the secret's second rows hold no name.
      const ascii = mode === '--trace-ascii';
      expect(dump).toMatch(ascii ? /^[0-9a-f]{4}: Authorization: Bearer Zq8x\S+$/m : /^0030: (?:[0-9a-f]{2} ){16}:"e9c0a7f1d2b3c4$/m);
      const out = new Redactor().maskCommandOutput(command, dump);
      for (const s of [TOKEN, SECRET]) for (const p of windows(s, 6)) expect(out, p).not.toContain(p);
      // The hex column: no six bytes of either, their fields' blanks taken out.
      if (!ascii) for (const s of [TOKEN, SECRET]) for (const p of windows(s, 6)) expect(out.replace(/ /g, ''), hexOf(p)).not.toContain(hexOf(p));
      expect(out).toContain('[masked: ');
      // What is no secret stays: the lines (each changed one masked), the offsets, the headers, the public token's start.
      const [before, after] = [dump.split('\n'), out.split('\n')];
      expect(after.length).toBe(before.length);
      after.forEach((line, i) => line === before[i] || expect(line).toContain('[masked: '));
      expect(offsets(out)).toEqual(offsets(dump));
      if (ascii) {
        expect(out).toContain('0012: Host: 127.0.0.1:');
        expect(out).toMatch(/^[0-9a-f]{4}: User-Agent: curl\/[\d.]+$/m);
        expect(out).toMatch(/^[0-9a-f]{4}: Content-Length: 153$/m);
        expect(out).toContain(`"public_token":"public-sandbox-`);
      } else {
        expect(out).toContain('0010: 0d 0a 48 6f 73 74 3a 20 31 32 37 2e 30 2e 30 2e ..Host: 127.0.0.');
        expect(out).toMatch(/^[0-9a-f]{4}: (?:[0-9a-f]{2} ){16}.*User-Ag$/m);
        expect(out).toContain('0060: 6e 22 3a 22 70 75 62 6c 69 63 2d 73 61 6e 64 62 n":"public-sandb');
      }
    });
  }

  itUnless(missing('curl', 'python3'))('a trace of a request with no secret (long headers and a body wrapped over rows) comes back as printed; its twin with a token does not', async () => {
    const headers = ['X-Request-Id: 3f2b8c1e-9a4d-4e6f-b7c2-1d5e8f9a0b3c-7e6d5c4b-3a2f-1e0d-9c8b-7a6f5e4d3c2b', 'Accept-Language: en-GB,en;q=0.9,de;q=0.8,fr;q=0.7,es;q=0.6,it;q=0.5,nl;q=0.4'];
    // Laid out so no row cuts `"public_token":"` (the second 16-byte row is just that): a row read alone that ends in `token":"` and
    // a piece, or starts `blic_token":"`, has its piece masked as a token, by the scan of the text as it was before these rows were read.
    const body = `{"scope":"read","public_token":"${PUBLIC}","client_id":"76c1fce6655102cbf574a0a4","redirect_uri":"https://app.example.com/oauth/callback/complete"}`;
    for (const mode of MODES) {
      const plain = await trace(mode, headers, body);
      expect(new Redactor().maskCommandOutput(plain.command, plain.dump), mode).toBe(plain.dump);
      const twin = await trace(mode, [...headers, `Authorization: Bearer ${TOKEN}`], body);
      const out = new Redactor().maskCommandOutput(twin.command, twin.dump);
      for (const p of windows(TOKEN, 6)) expect(out, `${mode}: ${p}`).not.toContain(p);
    }
  });
});
