import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { Redactor } from './redactor.js';
import { quotedPhrases } from './bare-mnemonics.js';
import type { SecretFinding } from './finding.js';

/**
 * The text path turns away `://` and `:5432` hits by a character test before cutting out their
 * line (scanner.ts contextFindings): each case here has a credential the test must let through.
 */
const masked = (text: string) => new Redactor().mask(text);

describe('hit prefilters of the text path (URL credentials, .pgpass)', () => {
  it('a URL with user:password@ is masked, after a URL without credentials on the same line too', () => {
    expect(masked('clone https://example.com/a then https://bob:Pq7WzT9xLm2@git.example.com/r.git')).not.toContain('Pq7WzT9xLm2');
    expect(masked('postgres://app:s3cr3t-Pw-991@db.internal:5432/app')).not.toContain('s3cr3t-Pw-991');
  });

  it('a URL whose host or user has characters past ASCII, and a percent-encoded userinfo, are masked', () => {
    expect(masked('https://bjørn:Xk29vLq7Wm@mïrror.example/')).not.toContain('Xk29vLq7Wm');
    expect(masked('redirect=https%3A%2F%2Fbob%3AZq81LmX0vT%40host.example')).not.toContain('Zq81LmX0vT');
  });

  it('URLs without credentials and times stay as they are', () => {
    const text = 'GET https://registry.npmjs.org/react 200 in 12:34:56 (port :5432)';
    expect(masked(text)).toBe(text);
  });

  it('.pgpass lines (port, or *) are masked; a line numbered by cat -n too', () => {
    expect(masked('db.example.com:5432:app:alice:Lk3vR9qT2xWm')).not.toContain('Lk3vR9qT2xWm');
    expect(masked('*:*:*:postgres:Hx81pQz7vN4k')).not.toContain('Hx81pQz7vN4k');
    expect(masked('     1\tlocalhost:5433:shop:bob:Wm2q9Lx7Tz')).not.toContain('Wm2q9Lx7Tz');
  });
});

/**
 * Session 30's throughput gates (scanner.ts): each turns hits or runs away before a rule's search; each case here is one the
 * gate must still let through, beside the build-log shape it turns away.
 */
describe('throughput gates of the text path', () => {
  it('filter-repo replacement lines are masked, padding before `==>` included; a progress bar is no such line', () => {
    expect(masked('literal:Qm7xT2vLp9Wz==>***REMOVED***\n')).not.toContain('Qm7xT2vLp9Wz');
    expect(masked('c2VjcmV0LXRva2Vu====>REMOVED\n')).not.toContain('c2VjcmV0LXRva2Vu');
    const bar = '    Building [=================>       ] 12/40: unit7, unit8\n';
    expect(masked(bar)).toBe(bar);
  });

  it('`compat` and cargo `future-incompat` are no token names; a PAT named GITHUB_PAT, githubPat or ado_pat still is', () => {
    const kept = 'compat = "Xk29vLqP0aZ7wQm3"\nnote: --json=artifacts,future-incompat --diagnostic-width=80\n';
    expect(masked(kept)).toBe(kept);
    for (const line of ['GITHUB_PAT=Xk29vLqP0aZ7wQm3rTyU', 'githubPat: "Xk29vLqP0aZ7wQm3rTyU"', 'ado_pat = Xk29vLqP0aZ7wQm3rTyU']) expect(masked(line)).not.toContain('Xk29vLqP0aZ7wQm3rTyU');
  });

  it('ipmitool -P is found from its command name', () => {
    expect(masked('$ ipmitool -I lanplus -H 10.0.0.9 -U admin -P Hq7rT2vLp9 chassis status\n')).not.toContain('Hq7rT2vLp9');
    const gcc = 'gcc -Wall -O2 -fPIC -g -pipe -fno-strict-aliasing -c mod7.c -o mod7.o\n';
    expect(masked(gcc)).toBe(gcc);
  });

  it('base64 of a secret is found after another one whose decoded text was scanned (its pass reused the bytes)', () => {
    const a = Buffer.from('password=Zq8xK2mN4pR7tV9wY3bD').toString('base64');
    const b = Buffer.from('aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8vTqLm2A').toString('base64');
    const out = masked(`first: ${a}\nsecond: ${b}\n`);
    expect(out).not.toContain(a);
    expect(out).not.toContain(b);
  });

  it('quoted recovery phrases: the byte skip finds what the pattern over the whole text finds (random texts of phrases and prose)', () => {
    const phrase = generateMnemonic(wordlist);
    const lowBytes = (t: string) => Buffer.from(t, 'latin1');
    const piece = fc.constantFrom(
      `"${phrase}"`, `'${phrase}'`, `phrase: ${phrase}`, `+${phrase}`, `[${phrase.split(' ').map((w) => `'${w}'`).join(', ')}]`,
      'warning: unused variable in function that was never called from anywhere at all', '\n', '\r\n', ' ', 'x', '"', ': ', '日本', '\u276f ',
      phrase.slice(0, 40), phrase.split(' ').slice(0, 12).join('  '),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((a) => a.join('')), (text) => {
        const whole: SecretFinding[] = [];
        const skipped: SecretFinding[] = [];
        quotedPhrases(text, whole);
        quotedPhrases(text, skipped, lowBytes(text));
        expect(skipped).toEqual(whole);
      }),
      { numRuns: 400 },
    );
  });

  it('a quoted recovery phrase after a value whose own scan ran a pass (the outer scan keeps its bytes)', () => {
    const phrase = generateMnemonic(wordlist);
    const b64 = Buffer.from('password=Zq8xK2mN4pR7tV9wY3bD').toString('base64');
    const out = masked(`cfg: ${b64}\ncast wallet import dev --mnemonic "${phrase}"\n`);
    expect(out).not.toContain(b64);
    expect(out).not.toContain(phrase);
    expect(out).toContain('[masked: seed phrase]');
  });

  it('a token with no literal (Discord, Mailgun) is found in a long run after a separator, and not in a path', () => {
    const discord = 'MTA5NzQ1NjcxODIzOTI4MjQ0Mg.GhT4xQ.k2Vf8LmZ9qR3tW7yX1bN5cJ0dH6pS4aE2uK8oI';
    expect(masked(`https://example.test/hooks?x=1&t=${discord}`)).not.toContain(discord);
    const mailgun = '3f0c1a9b8e7d6c5b4a39281706f5e4d3-8a7b6c5d-1e2f3a4b';
    expect(masked(`/v3/domains/${mailgun}`)).not.toContain(mailgun);
    const path = '/home/dev/work/project/target/debug/build/crate-12-0123456789abcdef/out/generated_bindings.rs';
    expect(masked(path)).toBe(path);
  });
});

describe('the rules without a literal, each token printed bare in a log line (their gates: a token segment, a colon pair)', () => {
  let seed = 0x5e55_1030;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 0x1000000;
  const s = (alpha: string, n: number) => Array.from({ length: n }, () => alpha[Math.floor(rnd() * alpha.length)]).join('');
  const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', HEX = '0123456789abcdef';
  const B64 = `${AN}+/`, B64URL = `${AN}-_`;
  const samples: [string, () => string][] = [
    ['nats nkey seed', () => `SU${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 56)}`],
    ['boundary auth token', () => `at_${s(AN, 10)}_s1${s(AN, 42)}`],
    ['discord bot token', () => `M${s(AN, 23)}.${s(B64URL, 6)}.${s(B64URL, 27)}`],
    ['mailgun key', () => `${s(HEX, 32)}-${s(HEX, 8)}-${s(HEX, 8)}`],
    ['twilio auth token', () => `AC${s(HEX, 32)}:${s(AN, 32)}`],
    ['ably key', () => `${s(B64URL, 6)}.${s(B64URL, 6)}:${s(B64URL, 43)}`],
    ['ngrok authtoken', () => `2${s(AN, 26)}_${s(AN, 21)}`],
    // Its secret is standard base64: `+` and `/` in it (the colon gate had counted only `[A-Za-z0-9_-]` after the colon).
    ['bitwarden access token', () => `0.${s(HEX, 8)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 12)}.${s(AN, 30)}:${s(B64, 10)}+/${s(B64, 10)}==`],
    ['asana token', () => `2/${s('0123456789', 16)}/${s('0123456789', 16)}:${s(HEX, 32)}`],
    ['zhipu key', () => `${s(HEX, 32)}.${s(AN, 16)}`],
    ['alpaca secret', () => `PK${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 18)}:${s(AN, 40)}`],
    ['ghost admin api key', () => `${s(HEX, 24)}:${s(HEX, 64)}`],
  ];
  for (const [kind, make] of samples) {
    it(`${kind}: masked in a line with no name, ten random tokens`, () => {
      for (let k = 0; k < 10; k++) {
        const token = make();
        const secret = token.includes(':') ? token.slice(token.lastIndexOf(':') + 1) : token;
        expect(masked(`12:00:01 worker started with ${token} for job 7\n`), token).not.toContain(secret.slice(-16));
      }
    });
  }
});
