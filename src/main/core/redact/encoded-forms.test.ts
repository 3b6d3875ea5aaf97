/**
 * Secrets printed in an encoding no rule reads as text (adversary pass 56, its ten leaks): a byte or code-unit notation
 * (strace's `\x4e`, a JSON encoder's `\u0067`, a list of byte values, `xxd -i`'s C array, od's numbers, a dump of UTF-16
 * text) or a text encoding (base32, Adobe ASCII85, unpadded base64url of a JSON object). Each output is made by the real
 * tool run here (strace, xxd, od, base32, iconv, python3, node) on a file holding the secret; each is masked, and the same
 * encodings of text with no secret are kept as printed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anyOf, itUnless, missing } from '../../../../test/helpers/skip.js';
import { Redactor } from './redactor.js';
import { mayHoldSecret } from './quick-check.js';

const dir = mkdtempSync(join(tmpdir(), 'mish-encoded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STRIPE = 'sk_live_51Hq8Zk2LmNp4Qr6St8Uv0Wx2Yz4Ab6Cd8Ef0Gh2Ij4Kl6Mn8Op';
const GITHUB = 'ghp_L9GEFON1ytmK47bP5V9acSiu0hoxcQ2rWd7Z';
const PASSWORD = 'rRaB^2qAPqxMffyf';
const PLAIN = 'NODE_ENV=production\nLOG_LEVEL=info\nPORT=8080\nREGION=eu-west-1\n';

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
const run = (program: string, args: string[], input?: string) => execFileSync(program, args, { encoding: 'utf8', input });
const py = (script: string, arg: string) => run('python3', ['-c', script, arg]);
/** Every piece of `secret` this long must be gone (the mask may leave a name's part before it, never the value's). */
const pieces = (s: string, n = 8) => Array.from({ length: s.length - n + 1 }, (_, i) => s.slice(i, i + n));
/** `text` masked: `value` gone, a mask in its place, and the quick check says look. */
function masked(text: string, value: string): string {
  const out = new Redactor().mask(text);
  expect(out, text).not.toContain(value);
  expect(out).toContain('[masked: ');
  expect(mayHoldSecret(text)).toBe(true);
  return out;
}
/** A byte notation of `s`'s pieces: what a leak of the secret looks like in the encoded text. */
function expectNoPiece(out: string, secret: string, spell: (piece: string) => string): void {
  for (const p of pieces(secret)) expect(out, p).not.toContain(spell(p));
}

describe('byte and code-unit notations', () => {
  itUnless(missing('strace'))('strace -xx of a read of .env: the key, written as \\xNN escapes, is masked', () => {
    const env = file('strace.env', `NODE_ENV=production\nSTRIPE_SECRET_KEY=${STRIPE}\n`);
    // strace's own lines: the read of the file, every byte as \xNN (-xx), the string up to 512 bytes (-s).
    const trace = execFileSync('sh', ['-c', `strace -xx -s 512 -e trace=read cat ${env} 2>&1 >/dev/null | grep -F '\\x4e\\x4f\\x44\\x45'`], { encoding: 'utf8' });
    expect(trace).toContain('\\x73\\x6b\\x5f\\x6c\\x69\\x76\\x65');
    const out = new Redactor().mask(trace);
    expect(out).toContain('[masked:');
    expectNoPiece(out, STRIPE, (p) => [...Buffer.from(p)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''));
    // What is not the secret stays: the name's escapes.
    expect(out).toContain('\\x4e\\x4f\\x44\\x45\\x5f\\x45\\x4e\\x56');
  });

  it('a JSON string written all in \\u escapes: a GitHub token, and a password by its key', () => {
    const esc = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const json = py('import json,sys; v=sys.argv[1].split(" "); print(json.dumps({"github_token": v[0], "db": {"password": v[1]}}).replace(v[0], "".join("\\\\u%04x" % ord(c) for c in v[0])).replace(v[1], "".join("\\\\u%04x" % ord(c) for c in v[1])))', `${GITHUB} ${PASSWORD}`);
    expect(json).toContain(esc(GITHUB));
    const out = new Redactor().mask(json);
    expect(out).not.toContain(esc(GITHUB).slice(0, 6 * 12));
    expect(out).not.toContain(esc(PASSWORD).slice(6 * 2, 6 * 10));
    expect(out).toContain('"github_token"');
    expect(JSON.parse(JSON.stringify(out))).toBe(out);
  });

  it("lists of byte values: Python's list(b…), Node's Buffer JSON, Go's %v, a Java signed array", () => {
    const value = Buffer.from(GITHUB);
    const lists = [
      py('import sys; print(list(sys.argv[1].encode()))', GITHUB),
      run('node', ['-e', 'console.log(JSON.stringify(Buffer.from(process.argv[1])))', GITHUB]),
      `GitHubToken: []uint8 len: 40, cap: 48, [${[...value].join(',')}],`,
      `[${[...value].join(' ')}]`,
      `token bytes: [${[...Buffer.from(`pass=${PASSWORD}`)].map((b) => (b > 127 ? b - 256 : b)).join(', ')}]`,
    ];
    for (const list of lists) {
      const out = new Redactor().mask(list);
      expect(out, list).toContain('[masked:');
      expect(out, list).not.toContain([...value].slice(4, 12).join(','));
      expect(out, list).not.toContain([...value].slice(4, 12).join(', '));
      expect(out, list).not.toContain([...value].slice(4, 12).join(' '));
    }
  });

  itUnless(missing('xxd'))('xxd -i of a key file: every row of the C array that spells the key is masked, the rest kept', () => {
    const key = file('stripe.key', `${STRIPE}\n`);
    const array = run('xxd', ['-i', key]);
    const out = new Redactor().mask(array);
    const hex = [...Buffer.from(STRIPE)].map((b) => `0x${b.toString(16).padStart(2, '0')}`);
    for (let i = 0; i + 4 <= hex.length; i++) expect(out).not.toContain(hex.slice(i, i + 4).join(', '));
    // The array's frame and its length stay, each row on its line.
    expect(out).toContain('unsigned char');
    expect(out).toContain(`_len = ${STRIPE.length + 1};`);
    expect(out.split('\n').length).toBe(array.split('\n').length);
  });

  for (const [name, args, spell] of [
    ['od -b', ['-b'], (b: number) => b.toString(8).padStart(3, '0')],
    ['od -t x1', ['-t', 'x1'], (b: number) => b.toString(16).padStart(2, '0')],
  ] as const) {
    itUnless(missing('od'))(`${name} of a file holding a password line: the password's bytes are masked`, () => {
      const f = file(`pw-${args.join('')}`, `pass=${PASSWORD}\n`);
      const dump = run('od', [...args, f]);
      const out = new Redactor().mask(dump);
      expect(out).toContain('[masked: password]');
      const bytes = [...Buffer.from(PASSWORD)];
      for (let i = 0; i + 4 <= bytes.length; i++) expect(out).not.toContain(bytes.slice(i, i + 4).map(spell).join(' '));
    });
  }

  itUnless(missing('od'))('od -x (two bytes a field, little-endian) of a password line: the fields that hold it are masked', () => {
    const f = file('pw-x', `password=${PASSWORD}\n`);
    const dump = run('od', ['-x', f]);
    const out = new Redactor().mask(dump);
    expect(out).toContain('[masked: password]');
    const b = Buffer.from(`password=${PASSWORD}\n`);
    // The fields wholly inside the password (bytes 10 on: 9 + its first byte's pair), as od prints them.
    for (let i = 10; i + 2 <= 9 + PASSWORD.length; i += 2) expect(out).not.toContain(` ${b[i + 1].toString(16).padStart(2, '0')}${b[i].toString(16).padStart(2, '0')} `);
  });

  itUnless(missing('xxd', 'iconv'))("xxd of a UTF-16LE file (a Windows config): the password is masked in both columns", () => {
    const utf16 = execFileSync('iconv', ['-f', 'UTF-8', '-t', 'UTF-16LE'], { input: `Password=${PASSWORD}\r\n` });
    const dump = run('xxd', [file('web.config.utf16', utf16)]);
    expect(dump).toContain('P.a.s.s.w.o.r.d.');
    const out = new Redactor().mask(dump);
    expect(out).toContain('[masked: password]');
    expect(out).not.toContain([...PASSWORD.slice(0, 4)].join('.'));
    expect(out).not.toContain([...PASSWORD.slice(6, 10)].join('.'));
  });
});

describe('text encodings', () => {
  itUnless(missing('base32'))('base32 of a token line is masked; base32 of a TOTP seed (random bytes) is kept', () => {
    const b32 = run('base32', ['-w0', file('token.txt', `token=${GITHUB}\n`)]);
    const out = new Redactor().mask(b32);
    expect(out).toContain('[masked: base32');
    expect(out).not.toContain(b32.slice(8, 40));
    const seed = run('base32', ['-w0', file('seed.bin', Buffer.from('8f1c2a9e0b7d4f3a6c5e1b2d9a8f7e6d5c4b3a29', 'hex'))]);
    expect(new Redactor().mask(seed)).toBe(seed);
    const words = run('base32', ['-w0', file('plain.txt', PLAIN)]);
    expect(new Redactor().mask(words)).toBe(words);
  });

  itUnless(missing('python3'))('Adobe ASCII85 of a password line is masked; of plain text, kept', () => {
    const a85 = (s: string) => py('import base64,sys; print(base64.a85encode(sys.argv[1].encode(), adobe=True).decode())', s);
    const secret = a85(`password=${PASSWORD}\n`);
    const out = new Redactor().mask(secret);
    expect(out).toContain('[masked: ascii85');
    expect(out).not.toContain(secret.slice(4, 20));
    const plain = a85(PLAIN);
    expect(new Redactor().mask(plain)).toBe(plain);
  });

  it('unpadded base64url of a JSON object with a password is masked; of a JWT header, kept', () => {
    const b64u = (s: string) => run('node', ['-e', 'console.log(Buffer.from(process.argv[1]).toString("base64url"))', s]);
    const conn = b64u(JSON.stringify({ user: 'svc-etl', password: 'cwPB^UjK2Us37cphTrHU', host: 'warehouse.acme.io' }));
    expect(conn).not.toContain('=');
    const out = new Redactor().mask(conn);
    expect(out).toContain('[masked: base64');
    const header = b64u(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'prod-2026-11' }));
    expect(new Redactor().mask(header)).toBe(header);
  });

  it('base64url of an .env file, unpadded, is masked; an id with dashes of the same length kept (adversary pass 88)', () => {
    const env = run('node', ['-e', 'process.stdout.write(Buffer.from(process.argv[1]).toString("base64url"))', `STRIPE_KEY=${STRIPE}\nSECRET=+1Rv_z+fHM7kg7n\n`]);
    expect(env.length % 4).not.toBe(0);
    expect(new Redactor().mask(`ENV_B64=${env}`)).toBe('ENV_B64=[masked: base64 stripe key]');
    const id = 'Xq7-Rb2_Kd9-Wm4_Tn6-Yp1_Ls3-Vh8-Qz5';
    expect(new Redactor().mask(`request ${id}`)).toBe(`request ${id}`);
  });

  itUnless(missing('openssl'))("openssl pkcs12 -export's bundle as base64 on one line (electron-builder's WIN_CSC_LINK: adversary pass 90)", () => {
    run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'sign.key'), '-out', join(dir, 'sign.crt'), '-days', '1', '-subj', '/CN=acme-codesign']);
    run('openssl', ['pkcs12', '-export', '-inkey', join(dir, 'sign.key'), '-in', join(dir, 'sign.crt'), '-out', join(dir, 'sign.p12'), '-passout', 'pass:ci-pass']);
    const p12 = run('base64', ['-w0', join(dir, 'sign.p12')]);
    const out = new Redactor().mask(`WIN_CSC_LINK=${p12}\n`);
    expect(out).toBe('WIN_CSC_LINK=[masked: pkcs12 bundle]\n');
    // The certificate alone (DER, version 0's tag where the bundle has version 3) is no secret.
    const cert = run('sh', ['-c', `openssl x509 -in ${join(dir, 'sign.crt')} -outform DER | base64 -w0`]);
    expect(new Redactor().mask(`CERT=${cert}`)).toBe(`CERT=${cert}`);
  });

  itUnless(missing('iconv'))('UTF-16 text printed raw (iconv, with and without a BOM): a read_raw page of it is masked as the reply is (adversary pass 95)', () => {
    // The bytes as a read_raw page decodes them: a NUL after every ASCII character (a BOM's FF FE: two replacement characters).
    const utf16 = (args: string[], text: string) => execFileSync('iconv', args, { input: text }).toString('utf8');
    for (const args of [['-f', 'utf-8', '-t', 'utf-16le'], ['-f', 'utf-8', '-t', 'utf-16']]) {
      const raw = utf16(args, `registry=https://registry.npmjs.org/\nGITHUB_TOKEN=${GITHUB}\nDB_PASSWORD=${PASSWORD}\n`);
      expect(raw).toContain('G\0I\0T\0H\0U\0B\0');
      const lines = raw.split('\n').map((text, i) => ({ n: i + 1, text }));
      const out = new Redactor().maskLines('c1', lines).map((l) => l.text).join('\n');
      for (const secret of [GITHUB, PASSWORD]) expectNoPiece(out, secret, (p) => [...p].join('\0'));
      expect(out).toContain('[masked: github token]');
      expect(out).toContain('r\0e\0g\0i\0s\0t\0r\0y\0=\0h\0t\0t\0p\0s\0');
      // UTF-16 of text with no secret is kept as printed, NULs and all.
      const plain = utf16(args, PLAIN);
      expect(new Redactor().mask(plain)).toBe(plain);
    }
  });

  it("a store's macaroon in base64 (snapcraft export-login -: adversary pass 90) is masked", () => {
    const macaroon = Buffer.from('001clocation login.ubuntu.com\n0026identifier ABCDEFGHIJKLMNOPQRSTUVWXYZ\n002fsignature and some more bytes here\n').toString('base64');
    const login = run('node', ['-e', 'console.log(Buffer.from(JSON.stringify({ t: "u1-macaroon", v: { r: process.argv[1], d: {} } })).toString("base64"))', macaroon]);
    expect(new Redactor().mask(`Password: \n${login}Login successfully exported to '-'.`)).toBe("Password: \n[masked: base64 macaroon]\nLogin successfully exported to '-'.");
  });
});

describe('the same notations with no secret are kept', () => {
  it('a list of numbers, a C array, an escaped line and od rows of plain text', () => {
    const bytes = [...Buffer.from(PLAIN)];
    const texts = [
      `[${bytes.join(', ')}]`,
      `[${Array.from({ length: 40 }, (_, i) => (i * 7) % 256).join(',')}]`,
      `unsigned char cfg[] = {\n  ${bytes.map((b) => `0x${b.toString(16).padStart(2, '0')}`).join(', ')}\n};`,
      `read(3, "${bytes.map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}", 512) = ${bytes.length}`,
      `{"msg":"${[...'caf\u00e9 cr\u00e8me br\u00fbl\u00e9e na\u00efve \u00fcber'].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`,
      run('od', ['-b', file('plain-od', PLAIN)]),
      run('od', ['-x', file('plain-od', PLAIN)]),
    ];
    for (const t of texts) expect(new Redactor().mask(t), t).toBe(t);
  });
});

describe('private keys printed as numbers or armour, cut by a window (adversary pass 57)', () => {
  itUnless(missing('openssl'))(
    "openssl rsa -text | head -n 45: the private exponent's lines are remembered from the stream, so a reply whose squasher took their label hides them",
    () => {
      const key = file('server.key', run('openssl', ['genrsa', '2048']).toString());
      const text = execFileSync('sh', ['-c', `openssl rsa -in ${key} -text -noout | head -n 45`], { encoding: 'utf8' });
      const lines = text.split('\n');
      const d = lines.slice(lines.indexOf('privateExponent:') + 1).filter((l) => /^ {4}[0-9a-f]{2}(?::[0-9a-f]{2}){14}:$/.test(l));
      expect(d.length).toBeGreaterThan(10);
      const r = new Redactor();
      const stream = r.stream('c1');
      stream.pushBytes(Buffer.from(text.replace(/\n/g, '\r\n')));
      stream.flush();
      // The reply as the squasher may fold it: the lines from `publicExponent:` to the exponent's first lines are gone.
      const reply = [...lines.slice(0, 3), '[... 11 lines omitted (lines 19-29): 0 errors, 0 warnings ...]', ...d.slice(5)].join('\n');
      const out = r.mask(reply);
      for (const l of d.slice(5)) expect(out).not.toContain(l.trim());
      // The header's key size and the public modulus stay.
      expect(out).toContain('Private-Key: (2048 bit, 2 primes)');
      expect(out).toContain(lines[2]);
    },
  );

  itUnless(missing('gpg'))('gpg --export-secret-keys --armor | head -n 12: the armour has a blank line after BEGIN and no END; its lines are masked', () => {
    const home = mkdtempSync(join(dir, 'gnupg-'));
    const gpg = (...args: string[]) => execFileSync('gpg', ['--homedir', home, '--batch', '--pinentry-mode', 'loopback', '--passphrase', '', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    // RSA: its armour is longer than the 12 lines the window shows (an Ed25519 key's ends inside them, END and all).
    gpg('--quick-gen-key', 'dev@acme.test', 'rsa2048', 'sign', 'never');
    const armour = gpg('--export-secret-keys', '--armor', 'dev@acme.test').split('\n').slice(0, 12).join('\n');
    execFileSync('gpgconf', ['--homedir', home, '--kill', 'all'], { stdio: 'ignore' });
    expect(armour.split('\n')[1]).toBe('');
    expect(armour).not.toContain('-----END');
    const body = armour.split('\n').slice(2).filter((l) => l.length >= 16);
    expect(body.length).toBeGreaterThan(3);
    const out = new Redactor().mask(armour);
    for (const l of body) expect(out).not.toContain(l);
    // The stream's path too: every line of the open block is withheld from a read.
    const r = new Redactor();
    const stream = r.stream('c1');
    stream.pushBytes(Buffer.from(`${armour}\n`.replace(/\n/g, '\r\n')));
    stream.flush();
    const shown = r.maskLines('c1', armour.split('\n').map((t, i) => ({ n: i + 1, text: t }))).map((l) => l.text).join('\n');
    for (const l of body) expect(shown).not.toContain(l);
  });
});

describe('the quick check (quick-check.ts mayHoldSecret) says look at text written as its bytes', () => {
  it('escapes, byte lists, a C array, od rows and ASCII85: each could hold a secret', () => {
    const bytes = [...Buffer.from(GITHUB)];
    const texts = [
      `read(21, "${bytes.map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}", 256) = 40`,
      `{"t":"${[...GITHUB].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`,
      `"${bytes.map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('')}"`,
      `[${bytes.join(',')}]`,
      `[${bytes.join(' ')}]`,
      `[${bytes.join(', ')}]`,
      `  ${bytes.map((b) => `0x${b.toString(16).padStart(2, '0')}`).join(', ')},`,
      '0000000 160 141 163 163 075 162 122 141 102 136 062 161 101 120 161 170',
      '<~E+*g/GAhM44_.YcH!X6&@rX@n>%qYP1O".59NZOK7f~>',
    ];
    for (const t of texts) expect(mayHoldSecret(t), t).toBe(true);
  });
  itUnless(missing('man'))("man's overstruck bold (`p\\bpa\\bas…`) as a pipe keeps it: the password after it is masked, the page kept", () => {
    const page = file('svc.1', `.TH SVC 1\n.SH EXAMPLE\n.B password:\n${PASSWORD}\n.SH NOTES\nThe \\fBport\\fR is 8080.\n`);
    const text = execFileSync('man', [page], { encoding: 'utf8', env: { ...process.env, MANPAGER: 'cat', MAN_KEEP_FORMATTING: '1', MANWIDTH: '80' } });
    expect(text).toContain('\b');
    const masked = new Redactor().mask(text);
    expect(masked).not.toContain(PASSWORD);
    expect(masked).toContain('s\bsw\bwo\bor\brd\bd');
    expect(masked).toContain('[masked: ');
    expect(mayHoldSecret(text)).toBe(true);
    const plain = execFileSync('man', [file('plain.1', '.TH PLAIN 1\n.SH NAME\n.B plain\n\\- nothing secret\n')], { encoding: 'utf8', env: { ...process.env, MANPAGER: 'cat', MAN_KEEP_FORMATTING: '1' } });
    expect(new Redactor().mask(plain)).toBe(plain);
  });
});

describe('a key and its public half', () => {
  itUnless(missing('ssh-keygen'))("an OpenSSH key printed, then its .pub: the key's lines are masked, the public key stays whole (adversary pass 70)", () => {
    // The private file holds the public key too: a key line's end is the middle of the `.pub`'s base64 at the same alignment,
    // and a remembered line was once found by its end there (`ssh-ed25519 AAAAC3…IA[masked: private key]kcFf… dev@laptop`).
    const key = join(dir, 'id_ed25519');
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'dev@laptop', '-f', key]);
    const r = new Redactor();
    const priv = run('cat', ['-n', key]);
    r.noteCommand('c1', `cat -n ${key}`);
    r.stream('c1').pushBytes(Buffer.from(priv));
    const masked = r.mask(priv);
    for (const line of priv.split('\n').filter((l) => /^\s*\d+\t[A-Za-z0-9+/=]{20,}$/.test(l))) expect(masked).not.toContain(line.split('\t')[1]);
    const pub = run('cat', [`${key}.pub`]);
    r.noteCommand('c2', `cat ${key}.pub`);
    r.stream('c2').pushBytes(Buffer.from(pub));
    expect(r.mask(pub)).toBe(pub);
    // The public blob alone under a host key's name (Airflow's SFTP connection's `host_key`: adv142 P4), without its type word.
    const blob = pub.split(' ')[1];
    const extra = `    "host_key": "${blob}"\n`;
    expect(r.mask(extra)).toBe(extra);
  });
});

describe('a value spelled a character or a byte at a time, its name near it (adversary pass 107)', () => {
  const AWS_SECRET = 'nOKlFW83ChUFkMfim61M5yo1KGaqu/4hLJHv2ZiU';
  const DB_PASSWORD = '8uvJZ0bRFiRts1WW';
  const API_SECRET = 'sFste2Jza6euPYsG';
  const NPM = 'npm_h159bP1Ji11Z8ZFTI2ZyNkRggbI958y7QZ8n';

  itUnless(missing('xxd', 'od'))("xxd -p's and od's bytes under a header or the command that names the secret", () => {
    // xxd -p wraps at 60 digits: each line is masked.
    const hex = run('xxd', ['-p', file('aws', AWS_SECRET)]);
    const out = masked(`aws_secret_access_key (hex):\n${hex}`, hex.slice(0, 40));
    expect(out).toBe('aws_secret_access_key (hex):\n[masked: hex access key]\n[masked: hex access key]\n');
    // A value that starts with `/` (a random base64 one may): not read as a path.
    const slashed = run('xxd', ['-p', file('aws2', `/${AWS_SECRET.slice(1)}`)]);
    masked(`aws_secret_access_key (hex):\n${slashed}`, slashed.slice(0, 40));
    const odc = run('od', ['-c', file('db', DB_PASSWORD)]);
    masked(`# od -c $DB_PASSWORD\n${odc}`, DB_PASSWORD.split('').join('   ').slice(0, 20));
    const bytes = run('od', ['-An', '-tx1', file('api', API_SECRET)]);
    masked(`API_SECRET bytes:\n${bytes}`, bytes.trim().slice(0, 20));
  });

  itUnless(missing('sed', 'python3', 'node'))("sed's spaced characters, Python's list of characters, a Buffer as JSON, an octal-escaped printf beside a comment", () => {
    masked(run('sed', ['s/./& /g'], `NPM_TOKEN=${NPM}\n`), NPM.split('').join(' ').slice(0, 20));
    const list = execFileSync('python3', ['-c', 'import os; print(list(os.environ["NPM_TOKEN"]))'], { encoding: 'utf8', env: { ...process.env, NPM_TOKEN: NPM } });
    masked(`>>> list(os.environ["NPM_TOKEN"])\n${list}`, list.slice(0, 40));
    const json = execFileSync('node', ['-e', `console.log(JSON.stringify({ apiSecret: Buffer.from(${JSON.stringify(API_SECRET)}) }))`], { encoding: 'utf8' });
    expect(masked(json, json.slice(json.indexOf('[') + 1, json.indexOf('[') + 20))).toBe('{"apiSecret":{"type":"Buffer","data":[[masked: secret]]}}\n');
    const octal = [...DB_PASSWORD].map((c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`).join('');
    expect(masked(`$ printf '${octal}' > ~/.pgpass  # DB password\n`, octal.slice(0, 24))).toBe("$ printf '[masked: password]' > ~/.pgpass  # DB password\n");
  });

  it("JSON with a URL's slashes escaped (PHP's json_encode): a Slack webhook's path and a URL's password are masked", () => {
    // PHP's json_encode escapes every `/` unless JSON_UNESCAPED_SLASHES (no php here: the same text from JSON.stringify).
    const phpJson = (v: unknown) => JSON.stringify(v).replaceAll('/', '\\/');
    const hook = 'TYKYOOTMH/BOG8M75Q0RD/7RJaHzxJcMrwxEhmvylUkjKk';
    const text = phpJson({ slack_webhook: `https://hooks.slack.com/services/${hook}`, db_url: 'postgres://app:fDeeulpxj6Od4dzG@db:5432/prod' });
    expect(text).toContain('https:\\/\\/hooks.slack.com');
    const out = masked(text, '7RJaHzxJcMrwxEhmvylUkjKk');
    expect(out).not.toContain('fDeeulpxj6Od4dzG');
    expect(out).toBe('{"slack_webhook":"https:\\/\\/hooks.slack.com\\/services\\/[masked: slack webhook]","db_url":"postgres:\\/\\/app:[masked: url password]@db:5432\\/prod"}');
  });

  itUnless(missing('xxd', 'od', 'perl', 'python3'))("pass 110's shorter forms: a password's hex in one short line, od -c of a value with no line break, JSON's list of characters", () => {
    const PASSWORD = 'Kq7Xp#LmZa!rT5v7a';
    // 34 hex digits on a line of their own, under a TOML table or a name (shorter than any hex text read without one).
    masked(`[database.password]\n${run('xxd', ['-p', file('pw', PASSWORD)])}`, Buffer.from(PASSWORD).toString('hex').slice(0, 24));
    const perl = run('perl', ['-ne', 'print unpack("H*", $_), "\\n"', file('pw2', PASSWORD)]);
    expect(masked(`client_secret:\n${perl}`, perl.trim().slice(0, 24))).toBe('client_secret:\n[masked: hex secret]\n');
    // od -An -c of a file with no line break: no `  \n` field; both rows masked, the last of one field too.
    const odc = run('od', ['-An', '-c', file('pw3', PASSWORD)]);
    expect(odc.split('\n').filter(Boolean)).toHaveLength(2);
    const out = masked(`Secret:\n${odc}`, PASSWORD.split('').slice(0, 6).join('   '));
    expect(out).not.toMatch(/ {3}a\n/);
    const chars = execFileSync('python3', ['-c', `import json; print("api_key chars: " + json.dumps(list(${JSON.stringify(PASSWORD)})))`], { encoding: 'utf8' });
    expect(masked(chars, '"K", "q", "7"')).toBe('api_key chars: ["[masked: api key]"]\n');
  });

  itUnless(missing('xxd', 'od', 'sed'))('the same forms of what is no secret are kept as printed', () => {
    const kept = [
      `build id (hex):\n${run('xxd', ['-p', file('build', 'release-2024-11-29')]).trim()}\n`,
      `secret_file (hex):\n${run('xxd', ['-p', file('path', '/run/secrets/db')]).trim()}\n`,
      `# od -c $HOSTNAME\n${run('od', ['-c', file('host', 'web-01.internal.lan')])}`,
      `API_SECRET bytes:\n${run('od', ['-An', '-tx1', file('words', 'hello world, plain text')])}`,
      'token counts: [12, 40, 7, 19, 3, 88, 41, 9, 60, 2]\n',
      run('sed', ['s/./& /g'], 'TOKEN_COUNT=4096 tokens\n'),
      '{"docs":"https:\\/\\/example.com\\/api\\/v1\\/tokens","next":"https:\\/\\/example.com\\/page\\/2"}\n',
      // Pass 110's readers beside what they read: a short hex line that is a digest, a lexer's characters, a table of numbers.
      `token (hex):\n${run('xxd', ['-p', file('release', 'release-2024.11.29')]).trim()}\n`,
      `client_secret:\n${run('xxd', ['-p', file('digest', Buffer.from('9f86d081884c7d659a2feaa0c55ad015', 'hex'))]).trim()}\n`,
      'tokens: ["h", "e", "l", "l", "o", " ", "w", "o", "r", "l", "d"]\n',
      `# password policy (od -c):\n${run('od', ['-An', '-c', file('policy', 'min-length 12')])}`,
      '   1   2   3   4\n   5   6   7   8\n',
    ];
    for (const text of kept) expect(new Redactor().mask(text)).toBe(text);
  });
});

describe("a name and its quotes written as escapes other than JSON's `\\\"` (adversary pass 119)", () => {
  const ADMIN = 'I32PXE5EiongpoT#28';
  const SECRET = 'nGg6XX3ZYp42nqtM99vgAUzjXNEtPfAdVmdhAjUU';
  /** Jinja2's escaping, which writes a quote as `&#34;` (Debian's python3-markupsafe). */
  const markupsafe = spawnSync('python3', ['-c', 'import markupsafe']).status === 0 ? '' : "needs python3 and its markupsafe (not installed)";

  itUnless(markupsafe)("server-rendered JSON in an HTML attribute: Jinja's `&#34;`, html.escape's `&quot;`, and `&#x22;`", () => {
    const cfg = JSON.stringify({ mapboxSecret: 'sk.eyJ1IjoiYWNtZSIsImEiOiJjbHgiMWvR9czyII.qbV8O8fRHAblSJ7p_AtGC1', adminPassword: ADMIN, theme: 'dark' });
    // markupsafe (Jinja2's autoescape) writes `&#34;`; the standard library's html.escape `&quot;`.
    const jinja = py('import sys, markupsafe; print(f\'<div id="app" data-config="{markupsafe.escape(sys.argv[1])}"></div>\')', cfg);
    expect(jinja).toContain('&#34;adminPassword&#34;:&#34;');
    expect(masked(jinja, ADMIN)).toBe('<div id="app" data-config="{&#34;mapboxSecret&#34;:&#34;[masked: mapbox token]&#34;,&#34;adminPassword&#34;:&#34;[masked: password]&#34;,&#34;theme&#34;:&#34;dark&#34;}"></div>\n');
    const std = py('import sys, html; print(html.escape(sys.argv[1]))', cfg);
    expect(masked(std, ADMIN)).toContain('&quot;adminPassword&quot;:&quot;[masked: password]&quot;');
    const hex = py('import sys; print(sys.argv[1].replace(\'"\', "&#x22;"))', cfg);
    expect(masked(hex, ADMIN)).toContain('&#x22;adminPassword&#x22;:&#x22;[masked: password]&#x22;,&#x22;theme&#x22;:&#x22;dark&#x22;');
  });

  itUnless(missing('perl'))("nginx's `$request_body` with every quote as `\\x22`; a JSON key escaped letter by letter as `\\u0070`", () => {
    // nginx escapes `"`, `\` and unprintable bytes of a logged variable as `\xXX` (ngx_http_log_escape); perl does it here the same way.
    const body = JSON.stringify({ client_id: 'web', client_secret: SECRET, password: ADMIN });
    const log = run('perl', ['-ne', 'chomp; s/(["\\\\]|[^\\x20-\\x7e])/sprintf("\\\\x%02X", ord $1)/ge; print qq{10.0.0.5 - - [02/Dec/2026:08:59:59 +0000] "POST /oauth/token HTTP/1.1" 200 412 "-" "curl/8.5.0" "$_"\\n}'], `${body}\n`);
    expect(log).toContain('\\x22client_secret\\x22:\\x22');
    const out = masked(log, SECRET);
    expect(out).not.toContain(ADMIN);
    expect(out).toContain('{\\x22client_id\\x22:\\x22web\\x22,\\x22client_secret\\x22:\\x22[masked: secret]\\x22,\\x22password\\x22:\\x22[masked: password]\\x22}');
    const unicode = run('node', ['-e', 'process.stdout.write(require("fs").readFileSync(process.argv[1], "utf8"))', file('u.json', `{"\\u0070assword":"${ADMIN}","region":"eu-west-1"}\n`)]);
    expect(masked(unicode, ADMIN)).toBe('{"\\u0070assword":"[masked: password]","region":"eu-west-1"}\n');
  });

  itUnless(missing('python3'))("a MessagePack map as Python's bytes repr: each string glued to its name by a length byte", async () => {
    const { encode } = await import('@msgpack/msgpack');
    const pack = (o: object) => py('import sys; print(bytes.fromhex(sys.argv[1]))', Buffer.from(encode(o)).toString('hex'));
    const repr = pack({ user: 'svc-orders', password: ADMIN, api_key: SECRET });
    expect(repr).toContain('\\xa8password\\xb2');
    const out = masked(repr, ADMIN);
    expect(out).not.toContain(SECRET);
    expect(out).toContain('svc-orders');
    // A 40-character value has str8's header (`\xd9(`: its length byte printed as the character it is).
    expect(out).toContain('\\xa7api_key\\xd9([masked: api key]');
  });

  itUnless(anyOf(markupsafe, missing('perl')))('the same escapes around what is no secret are kept as printed', async () => {
    const { encode } = await import('@msgpack/msgpack');
    const kept = [
      py('import sys, markupsafe; print(markupsafe.escape(sys.argv[1]))', JSON.stringify({ passwordPolicy: 'min-length-12', tokenTtl: '3600s', theme: 'dark' })),
      py('import sys, html; print(html.escape(sys.argv[1]))', '<a href="/reset?x=1&y=2" title="password reset">Forgot password?</a>'),
      run('perl', ['-ne', 'chomp; s/(["\\\\])/sprintf("\\\\x%02X", ord $1)/ge; print "$_\\n"'], `${JSON.stringify({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' })}\n`),
      py('import sys; print(bytes.fromhex(sys.argv[1]))', Buffer.from(encode({ token_type: 'bearer', password_set: true, key: 'orders' })).toString('hex')),
      '{"\\u0074oken_count":"4096","\\u0070assword_hint":"the usual"}\n',
    ];
    for (const text of kept) expect(new Redactor().mask(text)).toBe(text);
  });
});
