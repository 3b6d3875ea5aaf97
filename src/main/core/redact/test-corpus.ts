/**
 * The masking corpus generator (issue 21): fake secrets in their real formats — prefixes,
 * lengths, alphabets and, where the format has one, checksums (GitHub and npm tokens end in the
 * CRC32 of their body in base62) — and look-alikes (digests, SHAs, UUIDs, example keys,
 * placeholders, non-secret keys with secret-like names), each printed in several realistic
 * contexts. Generated at test time from a seed, never checked in. Used by corpus.test.ts and
 * the redaction bench.
 */
import { generateKeyPairSync } from 'node:crypto';

export interface CorpusItem {
  /** The format (`github token`, `.pgpass line`, `git sha`): the corpus counts formats by it. */
  format: string;
  /** The context it is printed in (`env`, `json`, `curl -v`, …). */
  context: string;
  /** The text as a program prints it (one or more lines). */
  text: string;
  /** Secrets: the parts that must not reach the agent. Look-alikes: the part that must stay. */
  value: string;
  secret: boolean;
  /** The command line that printed `text`, when its meaning is in the command (secret-printers.ts: `gh auth token`). */
  command?: string;
}

/** A small seeded PRNG (mulberry32): the corpus is the same for a seed, different across seeds. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** CRC32 (IEEE), as GitHub's and npm's token checksums use it. */
export function crc32(s: string): number {
  let c = ~0;
  for (let i = 0; i < s.length; i++) {
    c ^= s.charCodeAt(i);
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** Base62 of `n`, left-padded with "0" to `width` (GitHub's checksum alphabet: 0-9A-Za-z). */
export function base62(n: number, width: number): string {
  const A = DIGITS + UPPER + LOWER;
  let out = '';
  do {
    out = A[n % 62] + out;
    n = Math.floor(n / 62);
  } while (n > 0);
  return out.padStart(width, '0');
}

/** Is a GitHub/npm-style token's last 6 characters the base62 CRC32 of its random part? */
export function checksumOk(token: string, prefix: string): boolean {
  const body = token.slice(prefix.length, -6);
  return base62(crc32(body), 6) === token.slice(-6);
}

export class Gen {
  constructor(readonly rnd: () => number) {}
  s(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.rnd() * alphabet.length)];
    return out;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rnd() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)];
  }
  /** A token with a GitHub/npm checksum: prefix + 30 random base62 + CRC32 in 6 base62. */
  checksummed(prefix: string): string {
    const body = this.s(ALNUM, 30);
    return `${prefix}${body}${base62(crc32(body), 6)}`;
  }
  b64(bytes: number): string {
    return Buffer.from(Array.from({ length: bytes }, () => this.int(0, 255))).toString('base64');
  }
  b64url(s: string): string {
    return Buffer.from(s).toString('base64url');
  }
  uuid(): string {
    const h = this.s(HEX, 32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${this.pick(['8', '9', 'a', 'b'])}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
  jwt(claims: Record<string, unknown>): string {
    return `${this.b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${this.b64url(JSON.stringify(claims))}.${this.s(B64URL, 43)}`;
  }
}

/** Vendor formats: the token alone says what it is. [format, generator]. */
export const VENDOR_FORMATS: [string, (g: Gen) => string][] = [
  ['aws access key id', (g) => `${g.pick(['AKIA', 'ASIA'])}${g.s(B32, 16)}`],
  ['aws session token', (g) => `IQoJb3JpZ2luX2VjE${g.s(B64, 300)}`],
  ['github classic token', (g) => g.checksummed('ghp_')],
  ['github oauth token', (g) => g.checksummed('gho_')],
  ['github user-to-server token', (g) => g.checksummed('ghu_')],
  ['github server-to-server token', (g) => g.checksummed('ghs_')],
  ['github refresh token', (g) => g.checksummed('ghr_')],
  ['github fine-grained token', (g) => `github_pat_${g.s(ALNUM, 22)}_${g.s(ALNUM, 59)}`],
  ['gitlab personal token', (g) => `glpat-${g.s(`${ALNUM}_-`, 20)}`],
  ['gitlab runner token', (g) => `glrt-${g.s(`${ALNUM}_-`, 20)}`],
  ['gitlab deploy token', (g) => `gldt-${g.s(`${ALNUM}_-`, 20)}`],
  ['npm token', (g) => g.checksummed('npm_')],
  ['slack bot token', (g) => `xoxb-${g.s(DIGITS, 12)}-${g.s(DIGITS, 13)}-${g.s(ALNUM, 24)}`],
  ['slack user token', (g) => `xoxp-${g.s(DIGITS, 12)}-${g.s(DIGITS, 12)}-${g.s(DIGITS, 13)}-${g.s(HEX, 32)}`],
  ['slack webhook', (g) => `https://hooks.slack.com/services/T${g.s(UPPER + DIGITS, 8)}/B${g.s(UPPER + DIGITS, 10)}/${g.s(ALNUM, 24)}`],
  ['openai project key', (g) => `sk-proj-${g.s(`${ALNUM}_-`, 74)}T3BlbkFJ${g.s(`${ALNUM}_-`, 74)}`],
  ['openai legacy key', (g) => `sk-${g.s(ALNUM, 20)}T3BlbkFJ${g.s(ALNUM, 20)}`],
  ['anthropic api key', (g) => `sk-ant-api03-${g.s(B64URL, 93)}AA`],
  ['anthropic admin key', (g) => `sk-ant-admin01-${g.s(B64URL, 93)}AA`],
  ['stripe secret key', (g) => `sk_live_${g.s(ALNUM, 99)}`],
  ['stripe restricted key', (g) => `rk_live_${g.s(ALNUM, 99)}`],
  ['stripe test key', (g) => `sk_test_${g.s(ALNUM, 24)}`],
  ['stripe webhook secret', (g) => `whsec_${g.s(ALNUM, 32)}`],
  ['google api key', (g) => `AIza${g.s(B64URL, 35)}`],
  ['google oauth access token', (g) => `ya29.${g.s(B64URL, 150)}`],
  ['google oauth refresh token', (g) => `1//0${g.s(B64URL, 99)}`],
  ['google oauth client secret', (g) => `GOCSPX-${g.s(B64URL, 28)}`],
  ['digitalocean token', (g) => `${g.pick(['dop', 'doo', 'dor'])}_v1_${g.s(HEX, 64)}`],
  ['supabase token', (g) => `sbp_${g.s(HEX, 40)}`],
  ['supabase secret key', (g) => `sb_secret_${g.s(B64URL, 31)}`],
  ['atlassian api token', (g) => `ATATT3xFfGF0${g.s(`${ALNUM}_-`, 170)}=${g.s(HEX.toUpperCase(), 8)}`],
  ['doppler token', (g) => `dp.${g.pick(['pt', 'st', 'sa', 'ct'])}.${g.s(ALNUM, 43)}`],
  ['terraform cloud token', (g) => `${g.s(ALNUM, 14)}.atlasv1.${g.s(`${ALNUM}-_`, 67)}`],
  ['hashicorp vault token', (g) => `hvs.${g.s(`${ALNUM}_-`, 90)}`],
  ['discord bot token', (g) => `${g.pick(['M', 'N'])}${g.s(ALNUM, 23)}.${g.s(B64URL, 6)}.${g.s(B64URL, 27)}`],
  ['telegram bot token', (g) => `${g.s(DIGITS, 10)}:AA${g.s(B64URL, 33)}`],
  ['age secret key', (g) => `AGE-SECRET-KEY-1${g.s(BECH32.toUpperCase(), 58)}`],
  ['hugging face token', (g) => `hf_${g.s(UPPER + LOWER, 34)}`],
  ['sendgrid key', (g) => `SG.${g.s(B64URL, 22)}.${g.s(B64URL, 43)}`],
  ['twilio api key', (g) => `SK${g.s(HEX, 32)}`],
  ['mailgun key', (g) => `key-${g.s(HEX, 32)}`],
  ['mailgun key', (g) => `${g.s(HEX, 32)}-${g.s(HEX, 8)}-${g.s(HEX, 8)}`],
  ['mailchimp key', (g) => `${g.s(HEX, 32)}-us${g.int(1, 21)}`],
  ['shopify access token', (g) => `shpat_${g.s(HEX, 32)}`],
  ['pypi token', (g) => `pypi-AgEIcHlwaS5vcmc${g.s(B64URL, 70)}`],
  ['rubygems token', (g) => `rubygems_${g.s(HEX, 48)}`],
  ['docker hub token', (g) => `dckr_pat_${g.s(B64URL, 27)}`],
  ['linear api key', (g) => `lin_api_${g.s(ALNUM, 40)}`],
  ['notion token', (g) => `ntn_${g.s(DIGITS, 11)}${g.s(ALNUM, 35)}`],
  ['figma token', (g) => `figd_${g.s(B64URL, 40)}`],
  ['databricks token', (g) => `dapi${g.s(HEX, 32)}`],
  ['grafana service account token', (g) => `glsa_${g.s(ALNUM, 32)}_${g.s(HEX, 8)}`],
  ['new relic user key', (g) => `NRAK-${g.s(UPPER + DIGITS, 27)}`],
  ['postman api key', (g) => `PMAK-${g.s(HEX, 24)}-${g.s(HEX, 34)}`],
  ['pulumi token', (g) => `pul-${g.s(HEX, 40)}`],
  ['groq key', (g) => `gsk_${g.s(ALNUM, 52)}`],
  ['openrouter key', (g) => `sk-or-v1-${g.s(HEX, 64)}`],
  ['perplexity key', (g) => `pplx-${g.s(ALNUM, 48)}`],
  ['replicate token', (g) => `r8_${g.s(ALNUM, 37)}`],
  ['langsmith key', (g) => `lsv2_pt_${g.s(HEX, 32)}_${g.s(HEX, 10)}`],
  ['tailscale auth key', (g) => `tskey-auth-${g.s(ALNUM, 12)}CNTRL-${g.s(ALNUM, 33)}`],
  ['vercel token', (g) => `vcp_${g.s(ALNUM, 56)}`],
  ['planetscale token', (g) => `pscale_tkn_${g.s(`${ALNUM}_`, 43)}`],
  ['neon api key', (g) => `napi_${g.s(LOWER + DIGITS, 64)}`],
  ['buildkite token', (g) => `bkua_${g.s(HEX, 40)}`],
  ['dynatrace token', (g) => `dt0c01.${g.s(UPPER + DIGITS, 24)}.${g.s(UPPER + DIGITS, 64)}`],
  ['alibaba access key id', (g) => `LTAI${g.s(ALNUM, 20)}`],
  ['azure ad client secret', (g) => `${g.s(ALNUM, 3)}${g.int(0, 9)}Q~${g.s(`${ALNUM}_~.-`, 34)}`],
  ['brevo key', (g) => `xkeysib-${g.s(HEX, 64)}-${g.s(ALNUM, 16)}`],
  ['bitbucket app password', (g) => `ATBB${g.s(ALNUM, 32)}`],
  // Adversary pass 40's vendor catalogue.
  ['facebook access token', (g) => `EAA${g.pick(['G', 'C', 'M'])}${g.s(ALNUM, 180)}`],
  ['dropbox token', (g) => `sl.${g.pick(['', 'u.'])}AF${g.s(B64URL, 140)}`],
  ['twilio auth token', (g) => `AC${g.s(HEX, 32)}:${g.s(HEX, 32)}`],
  ['elevenlabs key', (g) => `sk_${g.s(HEX, 48)}`],
  ['cerebras key', (g) => `csk-${g.s(LOWER + DIGITS, 48)}`],
  ['databricks oauth secret', (g) => `dose${g.s(HEX, 32)}`],
  ['convex deploy key', (g) => Buffer.from(JSON.stringify({ v2: g.s(HEX, 64) })).toString('base64')],
  ['posthog personal key', (g) => `phx_${g.s(ALNUM, 43)}`],
  ['telnyx key', (g) => `KEY${g.s(HEX.toUpperCase(), 32)}_${g.s(ALNUM, 22)}`],
  ['fcm server key', (g) => `AAAA${g.s(B64URL, 7)}:APA91b${g.s(B64URL, 134)}`],
  ['bedrock api key', (g) => `ABSK${Buffer.from(`BedrockAPIKey-${g.s(LOWER, 4)}-at-${g.s(DIGITS, 12)}:${g.s(B64, 40)}`).toString('base64')}`],
  ['azure devops token', (g) => `${g.s(ALNUM, 52)}JQQJ99${g.s(ALNUM, 18)}AZDO${g.s(ALNUM, 4)}`],
  ['mailersend token', (g) => `mlsn.${g.s(HEX, 64)}`],
  ['frame.io token', (g) => `fio-u-${g.s(B64URL, 64)}`],
  ['typeform token', (g) => `tfp_${g.s(B64URL, 44)}_${g.s(ALNUM, 14)}`],
  ['adobe client secret', (g) => `p8e-${g.s(LOWER + DIGITS, 32)}`],
  ['launchdarkly sdk key', (g) => `sdk-${g.uuid()}`],
  ['contentful token', (g) => `CFPAT-${g.s(B64URL, 43)}`],
  ['circleci token', (g) => `CCIPAT_${g.s(ALNUM, 22)}_${g.s(HEX, 40)}`],
  ['easypost key', (g) => `EZAK${g.s(ALNUM, 54)}`],
  ['jfrog reference token', (g) => `cmVmdGtuOjAxOj${g.s(ALNUM, 50)}`],
  ['octopus deploy key', (g) => `API-${g.s(UPPER, 13)}${g.s(DIGITS, 13)}`],
  ['plaid access token', (g) => `access-production-${g.uuid()}`],
  ['flutterwave secret key', (g) => `FLWSECK-${g.s(HEX, 32)}-X`],
  ['woocommerce key', (g) => `${g.pick(['ck', 'cs'])}_${g.s(HEX, 40)}`],
  ['intercom token', (g) => Buffer.from(`tok:${g.uuid().replace(/-/g, '_')}:1:0`).toString('base64')],
  ['clickup token', (g) => `pk_${g.s(DIGITS, 8)}_${g.s(UPPER + DIGITS, 32)}`],
  ['langfuse secret key', (g) => `sk-lf-${g.uuid()}`],
  ['tavily key', (g) => `tvly-${g.s(ALNUM, 32)}`],
  ['firecrawl key', (g) => `fc-${g.s(HEX, 32)}`],
  ['e2b key', (g) => `e2b_${g.s(HEX, 40)}`],
  // Adversary pass 42's vendor catalogue, part two.
  ['together ai key', (g) => `tgp_v1_${g.s(B64URL, 43)}`],
  ['fireworks key', (g) => `fw_${g.s(UPPER, 8)}${g.s(LOWER, 8)}${g.s(DIGITS, 8)}`],
  ['deepseek key', (g) => `sk-${g.s(HEX, 32)}`],
  ['stability key', (g) => `sk-${g.s(UPPER, 16)}${g.s(LOWER, 16)}${g.s(DIGITS, 16)}`],
  ['yandex cloud key', (g) => `AQVN${g.s(B64URL, 36)}`],
  ['runpod key', (g) => `rpa_${g.s(UPPER + DIGITS, 44)}`],
  ['logfire token', (g) => `pylf_v1_us_${g.s(ALNUM, 44)}`],
  ['mollie key', (g) => `live_${g.s(UPPER, 10)}${g.s(LOWER, 10)}${g.s(DIGITS, 10)}`],
  ['paddle key', (g) => `pdl_live_apikey_${g.s(LOWER + DIGITS, 26)}_${g.s(ALNUM, 22)}_${g.s(ALNUM, 3)}`],
  ['xendit key', (g) => `xnd_production_${g.s(ALNUM, 60)}`],
  ['midtrans server key', (g) => `Mid-server-${g.s(B64URL, 24)}`],
  ['mercado pago token', (g) => `APP_USR-${g.s(DIGITS, 16)}-${g.s(DIGITS, 6)}-${g.s(HEX, 32)}-${g.s(DIGITS, 9)}`],
  ['paypal access token', (g) => `A21AA${g.s(B64URL, 92)}`],
  ['duffel token', (g) => `duffel_live_${g.s(B64URL, 43)}`],
  ['pubnub secret key', (g) => `sec-c-${Buffer.from(g.uuid()).toString('base64').replace(/=+$/, '')}`],
  ['nylas key', (g) => `nyk_v0_${g.s(ALNUM, 64)}`],
  ['cal.com key', (g) => `cal_live_${g.s(HEX, 32)}`],
  ['honeybadger token', (g) => `hbp_${g.s(ALNUM, 36)}`],
  ['checkly key', (g) => `cu_${g.s(HEX, 32)}`],
  ['axiom token', (g) => `xaat-${g.uuid()}`],
  ['coralogix key', (g) => `cxtp_${g.s(ALNUM, 30)}`],
  ['harness token', (g) => `pat.${g.s(B64URL, 22)}.${g.s(HEX, 24)}.${g.s(ALNUM, 20)}`],
  ['sourcegraph token', (g) => `sgp_${g.s(HEX, 16)}_${g.s(HEX, 40)}`],
  ['nuget key', (g) => `oy2${g.s(LOWER + DIGITS, 43)}`],
  ['ngrok authtoken', (g) => `2${g.s(ALNUM, 26)}_${g.s(ALNUM, 21)}`],
  ['infracost key', (g) => `ico-${g.s(ALNUM, 32)}`],
  ['trigger.dev key', (g) => `tr_prod_${g.s(ALNUM, 20)}`],
  ['infisical token', (g) => `st.${g.s(HEX, 24)}.${g.s(HEX, 32)}.${g.s(HEX, 32)}`],
  ['maxmind license key', (g) => `${g.s(ALNUM, 6)}_${g.s(ALNUM, 29)}_mmk`],
  ['stytch secret', (g) => `secret-live-${g.s(B64URL, 36)}=`],
  ['mongodb atlas secret', (g) => `mdb_sa_sk_${g.s(ALNUM, 40)}`],
  ['clickhouse cloud secret', (g) => `4b1d${g.s(ALNUM, 38)}`],
  ['imagekit private key', (g) => `private_${g.s(B64, 28)}=`],
  // Adversary pass 45's vendor catalogue, part three.
  ['asana token', (g) => `2/${g.s(DIGITS, 16)}/${g.s(DIGITS, 16)}:${g.s(HEX, 32)}`],
  ['trello token', (g) => `ATTA${g.s(HEX, 64)}${g.s(HEX.toUpperCase(), 8)}`],
  ['zoho token', (g) => `1000.${g.s(HEX, 32)}.${g.s(HEX, 32)}`],
  ['fauna secret', (g) => `fnA${g.s(B64URL, 37)}`],
  ['openshift token', (g) => `sha256~${g.s(B64URL, 43)}`],
  ['nvidia api key', (g) => `nvapi-${g.s(B64URL, 64)}`],
  ['llamacloud key', (g) => `llx-${g.s(ALNUM, 48)}`],
  ['apify token', (g) => `apify_api_${g.s(ALNUM, 36)}`],
  ['dbt cloud token', (g) => `dbtc_${g.s(B64URL, 56)}`],
  ['zhipu key', (g) => `${g.s(HEX, 32)}.${g.s(ALNUM, 16)}`],
  ['coze token', (g) => `pat_${g.s(ALNUM, 64)}`],
  ['branch secret', (g) => `secret_live_${g.s(ALNUM, 32)}`],
  ['onesignal key', (g) => `os_v2_app_${g.s('abcdefghijklmnopqrstuvwxyz234567', 110)}`],
  ['lob key', (g) => `live_${g.s(HEX, 35)}`],
  ['deno deploy token', (g) => `ddp_${g.s(ALNUM, 36)}`],
  ['adafruit io key', (g) => `aio_${g.s(ALNUM, 28)}`],
  ['stackhawk key', (g) => `hawk.${g.s(ALNUM, 20)}.${g.s(ALNUM, 20)}`],
  ['ory token', (g) => `ory_pat_${g.s(ALNUM, 32)}`],
  ['mem0 key', (g) => `m0-${g.s(ALNUM, 40)}`],
  ['tencent cloud secret id', (g) => `AKID${g.s(ALNUM, 32)}`],
  ['okta api token', (g) => `00${g.s(UPPER, 12)}${g.s(LOWER, 14)}${g.s(DIGITS, 8)}${g.s(B64URL, 6)}`],
  ['jwt', (g) => g.jwt({ sub: g.uuid(), iat: 1700000000 + g.int(0, 9e7), role: g.pick(['admin', 'service_role', 'user']) })],
];

/** Neutral contexts a vendor token is printed in: nothing but its shape says it is secret. */
const VENDOR_CONTEXTS: [string, (v: string, g: Gen) => string][] = [
  ['log', (v, g) => `2025-0${g.int(1, 9)}-1${g.int(0, 9)}T10:0${g.int(0, 9)}:00Z INFO  worker ${g.int(1, 9)} using ${v} for upload`],
  ['json', (v) => `{"id": 42, "value": "${v}", "enabled": true}`],
  ['yaml', (v) => `  value: ${v}`],
  ['env', (v) => `CONFIG_VALUE=${v}`],
  ['shell echo', (v) => `$ echo ${v}\n${v}`],
];

/** Context formats: the value's shape says nothing, its place says it is secret. [format, context, text, value]. */
function contextItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const add = (format: string, context: string, value: string, text: string) => out.push({ format, context, text, value, secret: true });
  const pw = () => g.s(`${ALNUM}!#%^*_+`, g.int(10, 24)).replace(/^[^A-Za-z]/, 'k');
  const tok = () => g.pick([g.s(HEX, 40), g.uuid(), g.b64(24), `base64:${g.b64(32)}`, g.s(ALNUM, 32)]);
  for (const name of ['DB_PASSWORD', 'API_TOKEN', 'STRIPE_KEY', 'APP_SECRET', 'SMTP_PASS', 'REDIS_AUTH', 'SENTRY_DSN_SECRET', 'CI_JOB_TOKEN', 'ENCRYPTION_KEY', 'LICENSE_KEY']) {
    const v = tok();
    add('secret-named env', 'env', v, `${name}=${v}`);
    const w = tok();
    add('secret-named env', 'export', w, `export ${name}="${w}"`);
  }
  for (const name of ['password', 'accessToken', 'refresh_token', 'id_token', 'client_secret', 'apiKey', 'token', 'secret', 'private_key_passphrase', 'authToken']) {
    const v = tok();
    add('secret-named json', 'json', v, `{"user": "svc", "${name}": "${v}", "ttl": 3600}`);
    const y = tok();
    add('secret-named yaml', 'yaml', y, `auth:\n  ${name}: ${y}`);
    const t = tok();
    add('secret-named toml', 'toml', t, `[service]\n${name} = "${t}"`);
    const i = pw();
    add('secret-named ini', 'ini', i, `[database]\n${name} = ${i}`);
  }
  for (let k = 0; k < 6; k++) {
    const n = g.checksummed('npm_');
    add('.npmrc auth token', '.npmrc', n, `//registry.npmjs.org/:_authToken=${n}`);
    const a = Buffer.from(`ci:${pw()}`).toString('base64');
    add('.npmrc _auth', '.npmrc', a, `_auth=${a}\nalways-auth=true`);
    const bearer = g.s(`${ALNUM}-._~`, 40);
    add('authorization bearer', 'curl -v', bearer, `> GET /v1/me HTTP/1.1\n> Host: api.example.com\n> Authorization: Bearer ${bearer}\n> Accept: */*`);
    const basic = Buffer.from(`admin:${pw()}`).toString('base64');
    add('authorization basic', 'curl -v', basic, `> Authorization: Basic ${basic}`);
    const sid = g.s(`${ALNUM}%`, 48);
    add('cookie', 'curl -v', sid, `> Cookie: theme=dark; session_id=${sid}`);
    const sc = g.s(B64URL, 40);
    add('set-cookie', 'curl -v', sc, `< set-cookie: __Host-sid=${sc}; Path=/; Secure; HttpOnly; SameSite=Lax`);
    const xk = g.s(ALNUM, 32);
    add('x-api-key header', 'http client', xk, `X-Api-Key: ${xk}`);
    const bot = `${g.s(DIGITS, 10)}:AA${g.s(B64URL, 33)}`;
    add('bot token in url', 'url', bot, `POST https://api.telegram.org/bot${bot}/sendMessage 200`);
    const sig = encodeURIComponent(g.b64(32));
    add('sas signature', 'url', sig, `https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-12-31T00:00:00Z&spr=https&sig=${sig}`);
    const qt = g.s(ALNUM, 32);
    add('token in query', 'url', qt, `GET /api/export?format=csv&token=${qt} 200 12ms`);
    const qk = `AIza${g.s(B64URL, 35)}`;
    add('key in query', 'url', qk, `https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=${qk}`);
    const my = pw();
    add('mysql -p', 'command line', my, `$ mysql -h db.internal -u root -p${my} shop`);
    const ss = pw();
    add('sshpass -p', 'command line', ss, `sshpass -p '${ss}' ssh deploy@10.0.0.5`);
    const dl = pw();
    add('docker login -p', 'command line', dl, `docker login -u ci -p ${dl} registry.example.com`);
    const cu = pw();
    add('curl -u', 'command line', cu, `curl -u admin:${cu} https://jenkins.internal/api/json`);
    const lp = pw();
    add('--password=', 'ps output', lp, `root  1234  0.0  0.1 /usr/bin/backup --host db --password=${lp} --all`);
    const pg = pw();
    add('PGPASSWORD=', 'command line', pg, `PGPASSWORD=${pg} psql -h db -U app -c 'select 1'`);
    const pp = pw();
    add('.pgpass line', 'file', pp, `db.internal:5432:prod:app:${pp}`);
    const nr = pw();
    add('.netrc password', 'file', nr, `machine api.heroku.com\n  login me@example.com\n  password ${nr}`);
    const da = Buffer.from(`ci:${pw()}`).toString('base64');
    add('docker config auth', 'file', da, `{\n  "auths": {\n    "registry.example.com": {\n      "auth": "${da}"\n    }\n  }\n}`);
    const kt = g.s(ALNUM, 40);
    add('kubeconfig token', 'file', kt, `users:\n- name: ci\n  user:\n    token: ${kt}`);
    const ks = Buffer.from(pw()).toString('base64');
    add('kubernetes secret data', 'kubectl get secret -o yaml', ks, `apiVersion: v1\ndata:\n  db-url: ${Buffer.from('postgres://db:5432/app').toString('base64')}\n  pass: ${ks}\nkind: Secret\nmetadata:\n  name: app`);
    const ak = g.b64(64);
    add('azure connection string', 'env', ak, `AZURE_STORAGE_CONNECTION_STRING_VALUE="DefaultEndpointsProtocol=https;AccountName=acct${g.int(1, 99)};AccountKey=${ak};EndpointSuffix=core.windows.net"`);
    const sb = g.b64(32);
    add('azure service bus key', 'log', sb, `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${sb}`);
    const pwurl = pw().replace(/[#%^*+!]/g, 'x');
    add('url password', 'log', pwurl, `Cloning into 'app'... remote: https://deploy:${pwurl}@git.example.com/app.git`);
  }
  return out;
}

/**
 * Credentials as more commands print them (issue 21's second adversary pass): docker `auth` in
 * YAML, `terraform output -json`, JDBC URLs (Oracle thin), PuTTY keys, Vault's and Consul's
 * tables, Maven/NuGet XML, wp-config.php, Python dicts of headers, redis.conf, AWS Secrets
 * Manager. Each secret with look-alikes printed the same way (`auth: true`, a non-sensitive
 * output, `token_duration`, `define('WP_DEBUG', true)`).
 */
function printedFormItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const add = (format: string, context: string, value: string, text: string, secret = true) => out.push({ format, context, text, value, secret });
  const pw = () => g.s(`${ALNUM}!#%^*_`, g.int(10, 24)).replace(/^[^A-Za-z]/, 'k');
  for (let k = 0; k < 6; k++) {
    const da = Buffer.from(`ci:${pw()}`).toString('base64');
    add('docker auth in yaml', 'yq -P ~/.docker/config.json', da, `auths:\n  registry.example.com:\n    auth: ${da}\n    email: ci@example.com`);
    add('auth switch', 'yaml', g.pick(['true', 'false', 'none', 'basic', 'required']), `server:\n  auth: ${g.pick(['true', 'false', 'none', 'basic', 'required'])}\n  port: 8080`, false);
    const tf = pw();
    add('terraform sensitive output', 'terraform output -json', tf, `{\n  "db_password": {\n    "sensitive": true,\n    "type": "string",\n    "value": "${tf}"\n  }\n}`);
    const region = g.pick(['us-east-1', 'eu-west-3', 'ap-south-1']);
    add('terraform output', 'terraform output -json', region, `{\n  "region": {\n    "sensitive": false,\n    "type": "string",\n    "value": "${region}"\n  }\n}`, false);
    const ora = pw().replace(/[#%^*!]/g, 'x');
    add('oracle jdbc url', 'application.properties', ora, `spring.datasource.url=jdbc:oracle:thin:scott/${ora}@//db.example.com:1521/ORCL`);
    add('oracle jdbc url', 'log', 'jdbc:oracle:thin:@//db.example.com:1521/ORCL', `connecting to jdbc:oracle:thin:@//db.example.com:1521/ORCL`, false);
    const ppk = g.b64(33);
    add('putty private key', 'cat key.ppk', ppk, `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-2024${g.int(1000, 9999)}\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI${g.b64(24)}\n${g.b64(12)}\nPrivate-Lines: 1\n${ppk}\nPrivate-MAC: ${g.s(HEX, 64)}`);
    const vt = g.uuid();
    add('vault approle secret_id', 'vault write', vt, `Key                   Value\n---                   -----\nsecret_id             ${vt}\nsecret_id_accessor    ${g.uuid()}\nsecret_id_ttl         0s`);
    const ttl = `${g.int(1, 9)}${g.pick(['h', 'm', 's'])}`;
    add('vault table', 'vault token lookup', ttl, `Key                 Value\n---                 -----\ntoken_duration      ${ttl}\ntoken_policies      [default]`, false);
    const lt = `s.${g.s(ALNUM, 24)}`;
    add('vault legacy token', 'vault login', lt, `Key                  Value\n---                  -----\ntoken                ${lt}\ntoken_accessor       ${g.s(ALNUM, 24)}\ntoken_renewable      true`);
    const cs = g.uuid();
    add('consul secret id', 'consul acl token read', cs, `AccessorID:       ${g.uuid()}\nSecretID:         ${cs}\nDescription:      Bootstrap Token (Global Management)`);
    const sm = JSON.stringify({ username: 'app', password: pw() }).replace(/"/g, '\\"');
    add('secrets manager string', 'aws secretsmanager get-secret-value', sm, `{\n    "Name": "prod/app/db",\n    "SecretString": "${sm}",\n    "VersionStages": ["AWSCURRENT"]\n}`);
    const mv = pw();
    add('xml password element', 'settings.xml', mv, `<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>${mv}</password>\n</server>`);
    add('xml element', 'pom.xml', 'passwordPolicy', `<passwordPolicy>strict</passwordPolicy>\n<tokenizer>standard</tokenizer>`, false);
    const ng = pw();
    add('nuget cleartext password', 'nuget.config', ng, `<packageSourceCredentials>\n  <nexus>\n    <add key="Username" value="deploy" />\n    <add key="ClearTextPassword" value="${ng}" />\n  </nexus>\n</packageSourceCredentials>`);
    add('nuget setting', 'nuget.config', 'https://api.nuget.org/v3/index.json', `<add key="nuget.org" value="https://api.nuget.org/v3/index.json" protocolVersion="3" />`, false);
    const wp = g.s(`${ALNUM}!@#$%^&*()-_[]{}<>~+=,.;:/?|`, 64);
    add('wp-config salt', 'wp-config.php', wp, `define( 'AUTH_KEY',         '${wp}' );`);
    const wdb = pw();
    add('wp-config password', 'wp-config.php', wdb, `define( 'DB_PASSWORD', '${wdb}' );`);
    add('php constant', 'wp-config.php', 'wordpress', `define( 'DB_NAME', 'wordpress' );\ndefine( 'WP_DEBUG', false );`, false);
    const ph = pw();
    add('authorization in python dict', 'requests debug log', ph, `DEBUG:urllib3: headers={'User-Agent': 'python-requests/2.31', 'Authorization': 'Bearer ${ph}'}`);
    const rp = pw();
    add('redis requirepass', 'redis.conf', rp, `# Require clients to issue AUTH <PASSWORD>\nrequirepass ${rp}`);
    const ma = pw();
    add('redis masterauth', 'redis-cli', ma, `127.0.0.1:6379> CONFIG SET masterauth ${ma}\nOK`);
  }
  return out;
}

/**
 * Commands whose whole output is a credential (secret-printers.ts), each printing a value in its
 * real format alone on its line, as gh, aws and kubectl were recorded printing them (colour and
 * CRLF of a PTY around it); and look-alikes: commands that print one word that is no secret
 * (`git rev-parse HEAD`, `aws configure get region`), and a printer's error message.
 */
function printerItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const add = (format: string, command: string, value: string, text: string, secret = true) => out.push({ format, context: command, command, text, value, secret });
  const pw = () => g.s(`${ALNUM}!#%^*_+`, g.int(12, 24)).replace(/^[^A-Za-z]/, 'k');
  for (let k = 0; k < 4; k++) {
    const hex = g.s(HEX, 40);
    add('printed by gh auth token', 'gh auth token', hex, `${hex}\r`);
    const aws = g.s(`${ALNUM}+/`, 40);
    add('printed by aws configure get', 'aws configure get aws_secret_access_key --profile prod', aws, `${aws}\r`);
    const ecr = Buffer.from(JSON.stringify({ payload: g.b64(48), datakey: g.b64(32), version: '2', type: 'DATA_KEY', expiration: 1767225600 })).toString('base64');
    add('printed by aws ecr get-login-password', 'aws ecr get-login-password --region eu-west-1', ecr, `${ecr}\r`);
    const vault = pw();
    add('printed by vault read -field', 'vault read -field=password secret/prod/db', vault, `${vault}\r`);
    const kube = Buffer.from(pw()).toString('base64');
    // As kubectl was recorded printing it: the value, no newline after it.
    add('printed by kubectl get secret', `kubectl get secret db -n prod -o jsonpath='{.data.password}'`, kube, kube);
    const decoded = pw();
    add('printed by kubectl get secret', `kubectl get secret db -o jsonpath='{.data.password}' | base64 -d; echo`, decoded, `${decoded}\r`);
    const pass = pw();
    add('printed by pass show', 'pass show prod/db', pass, `${pass}\r\nlogin: app\r\nurl: db.internal:5432\r`);
    const op = pw();
    add('printed by op read', 'op read "op://Prod/db/password"', op, `${op}\r`);
    const kc = pw();
    add('printed by security -w', 'security find-generic-password -s github.com -a octocat -w', kc, `${kc}\r`);
    const heroku = `HRKU-AA${g.s(B64URL, 58)}`;
    add('printed by heroku auth:token', 'heroku auth:token', heroku, `${heroku}\r`);
    const az = g.s(B64URL, 80);
    add('printed by az -o tsv', 'az keyvault secret show --vault-name kv --name db --query value -o tsv', az, `${az}\r`);
    const envv = pw();
    add('printed by printenv', 'printenv DEPLOY_TOKEN', envv, `${envv}\r`);
    const picked = pw();
    add('printed by jq', 'curl -s -X POST https://auth.corp.lan/oauth/token -d @client.json | jq -r .access_token', picked, `${picked}\r`);
    const echoed = pw();
    add('printed by echo', 'set -a && . ./.env && echo "$DEPLOY_TOKEN"', echoed, `${echoed}\r`);
    // Look-alikes: one word from a command that prints no credential, and a printer's message.
    const sha = g.s(HEX, 40);
    add('one word from another command', 'git rev-parse HEAD', sha, `${sha}\r`, false);
    const region = g.pick(['eu-west-1', 'us-east-1', 'ap-southeast-2']);
    add('one word from another command', 'aws configure get region', region, `${region}\r`, false);
    const phase = g.pick(['Running', 'Pending', 'Succeeded']);
    add('one word from another command', `kubectl get pod web-${g.s(LOWER, 5)} -o jsonpath='{.status.phase}'`, phase, `${phase}\r`, false);
    const count = String(g.int(20, 60));
    add('one word from another command', 'gh auth token | wc -c', count, `${count}\r`, false);
    // gh 2.23's message when it has no token (recorded).
    add('printer message', 'gh auth token', 'no oauth token', 'no oauth token\r', false);
  }
  return out;
}

/** Private keys in PEM, as files, JSON strings and printf with literal \n. */
function keyItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const keys: [string, string][] = [
    ['rsa private key', generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey],
    ['pkcs8 private key', generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey],
    ['ec private key', generateKeyPairSync('ec', { namedCurve: 'prime256v1', privateKeyEncoding: { type: 'sec1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey],
    ['ed25519 private key', generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey],
  ];
  for (const [format, pem] of keys) {
    const body = pem.trimEnd();
    out.push({ format, context: 'cat file', text: `$ cat key.pem\n${body}`, value: body, secret: true });
    out.push({ format, context: 'json string', text: `{"type": "service_account", "private_key": ${JSON.stringify(`${body}\n`)}, "client_email": "x@y.iam.gserviceaccount.com"}`, value: body, secret: true });
    out.push({ format, context: 'printf \\n', text: `$ printf '${body.replace(/\n/g, '\\n')}'`, value: body, secret: true });
    out.push({ format, context: 'kubernetes secret base64', text: `data:\n  tls.key: ${Buffer.from(`${body}\n`).toString('base64')}`, value: Buffer.from(`${body}\n`).toString('base64'), secret: true });
  }
  void g;
  return out;
}

/** Look-alikes: [format, generator, contexts]. They stay visible. */
function lookAlikeItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const add = (format: string, context: string, value: string, text: string) => out.push({ format, context, text, value, secret: false });
  const sha = () => g.s(HEX, 40);
  for (let i = 0; i < 40; i++) {
    const s = sha();
    add('git sha', 'git log', s, `commit ${s}\nAuthor: Dev <dev@example.com>`);
    add('git sha', 'json', s, `{"sha": "${s}", "ref": "refs/heads/main"}`);
    const short = s.slice(0, g.int(7, 12));
    add('short sha', 'git', short, `[main ${short}] fix: handle empty token list`);
    const integ = `sha512-${g.b64(64)}`;
    add('integrity hash', 'package-lock', integ, `      "integrity": "${integ}",`);
    const digest = `sha256:${g.s(HEX, 64)}`;
    add('content digest', 'docker', digest, `Digest: ${digest}\nStatus: Downloaded newer image for node:20`);
    add('content digest', 'docker pull', digest, `docker pull ghcr.io/org/app@${digest}`);
    const u = g.uuid();
    add('uuid', 'log', u, `INFO request ${u} completed in 32ms`);
    add('uuid', 'json', u, `{"id": "${u}", "status": "ok"}`);
    add('uuid', 'header', u, `< X-Request-Id: ${u}`);
    const img = g.s(HEX, 64);
    add('container id', 'docker ps', img, `${img}   nginx:latest   "nginx -g daemon"   Up 2 hours`);
    const sum = g.s(HEX, 64);
    add('sha256sum line', 'shell', sum, `${sum}  dist/app-1.${g.int(0, 9)}.${g.int(0, 9)}.tar.gz`);
    const md5 = g.s(HEX, 32);
    add('md5 etag', 'header', md5, `< ETag: "${md5}"`);
    const fp = `SHA256:${g.b64(32).replace(/=+$/, '')}`;
    add('ssh fingerprint', 'ssh', fp, `ED25519 key fingerprint is ${fp}.`);
    const b64 = Buffer.from(`{"page":${g.int(1, 99)},"cursor":"${g.s(LOWER, 12)}","filters":["open"]}`).toString('base64');
    add('base64 cursor', 'json', b64, `{"next_cursor": "${b64}", "count": 50}`);
    const gosum = `h1:${g.b64(32)}`;
    add('go.sum hash', 'go.sum', gosum, `github.com/pkg/errors v0.9.${g.int(0, 9)} ${gosum}`);
    const pub = `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${g.b64(32).replace(/=+$/, '')} dev@laptop`;
    add('ssh public key', 'file', pub, pub);
    const cid = `Qm${g.s('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44)}`;
    add('ipfs cid', 'log', cid, `pinned ${cid}`);
    const chunk = `main.${g.s(HEX, 8)}.chunk.js`;
    add('bundle hash', 'build', chunk, `  build/static/js/${chunk}   52.3 kB`);
    const ident = g.pick(['getAccessTokenFromRefreshToken', 'validateClientSecretRotationPolicy', 'PasswordResetTokenRepository', 'createApiKeyForServiceAccount', 'parseAuthorizationHeaderValue']);
    add('identifier', 'stack trace', ident, `    at ${ident} (src/auth/${ident}.ts:${g.int(10, 300)}:${g.int(1, 40)})`);
    const maxTok = String(g.int(256, 32000));
    add('non-secret key', 'json', maxTok, `{"model": "x", "max_tokens": ${maxTok}}`);
    const tokType = g.pick(['bearer', 'Bearer', 'mac']);
    add('non-secret key', 'json', tokType, `{"token_type": "${tokType}", "expires_in": 3600}`);
    const pk = g.pick(['id', 'user_id', 'order_id']);
    add('non-secret key', 'yaml', pk, `primary_key: ${pk}`);
    const keyPath = g.pick(['~/.ssh/id_ed25519', '/etc/ssl/private/server.key', './certs/client.key']);
    add('key path', 'env', keyPath, `SSH_PRIVATE_KEY=${keyPath}`);
    const ref = g.pick(['${GITHUB_TOKEN}', '$NPM_TOKEN', '<your-api-key>', '{{ .Values.password }}', '${{ secrets.DEPLOY_KEY }}', '***']);
    add('placeholder', 'env', ref, `API_TOKEN=${ref}`);
    const ex = g.pick(['AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'AKIAI44QH8DHBEXAMPLE', 'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY']);
    add('documentation example key', 'docs', ex, `aws_access_key_id = ${ex}`);
    const ver = `${g.int(0, 20)}.${g.int(0, 40)}.${g.int(0, 99)}`;
    add('version', 'npm', ver, `+ left-pad@${ver}`);
    const url = `https://github.com/org/repo/blob/${sha()}/src/token.ts#L${g.int(1, 300)}`;
    add('url with sha', 'log', url, `see ${url}`);
    const ipv6 = `2001:db8:${g.s(HEX, 4)}:${g.s(HEX, 4)}::${g.s(HEX, 4)}`;
    add('ipv6', 'log', ipv6, `listening on [${ipv6}]:8080`);
    const uid = g.uuid();
    add('kubernetes uid', 'yaml', uid, `  uid: ${uid}\n  resourceVersion: "${g.int(1000, 99999)}"`);
    const hexTx = `0x${g.s(HEX, 64)}`;
    add('transaction hash', 'log', hexTx, `tx ${hexTx} confirmed in block ${g.int(1e6, 2e7)}`);
    const data = `data:image/png;base64,iVBORw0KGgo${g.b64(48)}`;
    add('data url', 'html', data, `<img src="${data}">`);
    const lock = `https://registry.npmjs.org/${g.pick(['express', 'lodash', 'zod'])}/-/x-${ver}.tgz`;
    add('tarball url', 'package-lock', lock, `      "resolved": "${lock}",`);
    const pwMin = String(g.int(8, 16));
    add('non-secret key', 'yaml', pwMin, `password_min_length: ${pwMin}`);
    const hashPw = `$2b$12$${g.s(`${ALNUM}./`, 53)}`;
    add('bcrypt hash in test fixture', 'sql', hashPw, `INSERT INTO users (email, pw_hash) VALUES ('a@b.c', '${hashPw}');`);
    const pubKeyId = g.s(HEX.toUpperCase(), 16);
    add('gpg key id', 'gpg', pubKeyId, `gpg: key ${pubKeyId}: public key "Dev <dev@example.com>" imported`);
    // Password prompts as a PTY shows them (recorded with node-pty: bash `read -s -p`, ssh-keygen, openssl): nothing typed is echoed,
    // so what follows the prompt is the program's next output, and the command line's quotes close the prompt's string.
    const n = String(g.int(6, 40));
    add('password prompt', 'read -s, next output on the prompt line', `got ${n}`, `Password: got ${n}\r`);
    add('password prompt', 'read -s; echo', `got ${n}`, `Password: \r\ngot ${n}\r`);
    add('password prompt', 'read -s, status word', 'ok', `Password: ${g.pick(['ok', 'done', 'saved'])}\r`);
    add('password prompt', 'command line', 'pw', `$ read -s -p "Password: " pw; echo; echo "got \${#pw}"`);
    add('password prompt', 'command line', 'pw', `$ read -sp '${g.pick(['Password', 'Enter password', 'New password'])}: ' pw; echo 'stored'`);
    add('password prompt', 'masked echo', '********', `Enter password: \r\nPassword: ${'*'.repeat(g.int(6, 14))}\r`);
    add('password prompt', 'ssh-keygen', '', `Enter passphrase (empty for no passphrase): \r\nEnter same passphrase again: \r\nYour identification has been saved in /tmp/k`);
    add('password prompt', 'openssl', '', `Enter PEM pass phrase:\r\nVerifying - Enter PEM pass phrase:\r`);
    const cert = `MII${g.b64(45).replace(/=+$/, '')}`;
    add('certificate line', 'file', cert, `-----BEGIN CERTIFICATE-----\n${cert}\n-----END CERTIFICATE-----`);
  }
  return out;
}

/** The whole corpus for `seed`. */
export function generateCorpus(seed = 21): CorpusItem[] {
  const g = new Gen(prng(seed));
  const items: CorpusItem[] = [];
  for (let round = 0; round < 4; round++) {
    for (const [format, gen] of VENDOR_FORMATS) {
      const contexts = [...VENDOR_CONTEXTS].sort(() => g.rnd() - 0.5).slice(0, 3);
      for (const [context, print] of contexts) {
        const v = gen(g);
        items.push({ format, context, text: print(v, g), value: v, secret: true });
      }
    }
    items.push(...contextItems(g));
    items.push(...printedFormItems(g));
  }
  items.push(...printerItems(g));
  items.push(...keyItems(g));
  items.push(...lookAlikeItems(g));
  items.push(...adversaryTwoItems(g));
  items.push(...adversaryThreeItems(g));
  items.push(...adversaryFourItems(g));
  items.push(...sessionFourItems(g));
  items.push(...passFourPrinterItems(g));
  items.push(...passFiveItems(g));
  return items;
}

/**
 * The masking forms of the afternoon's adversary pass (issue 21, M08-M23), each with look-alikes
 * printed the same way: a printer's output through a transform (`| rev`, `| xxd -p`, `| sed
 * 's/./& /g'`) and through a reducer (`| wc -c`, `| sha256sum`); aws `--query` secrets and
 * `kubectl config view --raw` templates; base64 of a credentials-file line; URL-encoded bodies;
 * prompts that name their target (ssh, sudo, git) and prompts in other languages, echoed; YAML
 * block scalars; pretty JSON with the value on the next line.
 */
function adversaryTwoItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const add = (format: string, context: string, value: string, text: string, secret = true, command?: string) => out.push({ format, context, text, value, secret, ...(command ? { command } : {}) });
  const pw = () => g.s(`${ALNUM}!#^*_+`, g.int(12, 24)).replace(/^[^A-Za-z]/, 'k');
  const key = () => g.s(`${ALNUM}+/`, 40);
  const prompts: [string, (v: string) => string][] = [
    ['ssh key passphrase', (v) => `Enter passphrase for key '/home/dev/.ssh/id_ed25519': ${v}`],
    ['ssh password', (v) => `deploy@10.0.${g.int(0, 9)}.${g.int(1, 254)}'s password: ${v}`],
    ['sudo', (v) => `[sudo] password for ${g.pick(['bob', 'dev', 'ci'])}: ${v}`],
    ['git https', (v) => `Password for 'https://${g.pick(['bob', 'octocat'])}@github.com': ${v}`],
    ['german', (v) => `Passwort: ${v}`],
    ['german kennwort', (v) => `Kennwort für ${g.pick(['admin', 'root'])}: ${v}`],
    ['spanish', (v) => `Contraseña: ${v}`],
    ['french', (v) => `Mot de passe : ${v}`],
    ['portuguese', (v) => `Senha: ${v}`],
    ['russian', (v) => `Пароль: ${v}`],
    ['chinese', (v) => `密码：${v}`],
    ['japanese', (v) => `パスワード: ${v}`],
    ['dutch', (v) => `Wachtwoord: ${v}`],
    ['swedish', (v) => `Lösenord: ${v}`],
    ['polish', (v) => `Hasło: ${v}`],
    ['turkish', (v) => `Şifre: ${v}`],
    ['italian', (v) => `Parola per root: ${v}`],
  ];
  for (let k = 0; k < 4; k++) {
    for (const [context, print] of prompts) {
      const v = pw();
      add('echoed prompt answer', context, v, `${print(v)}\r`);
    }
    // Prompts with nothing typed back, or the program's next output after them: no secret.
    add('prompt without a value', 'sudo', '[sudo] password for bob: ', `[sudo] password for bob: \r\nSorry, try again.\r`, false);
    add('prompt without a value', 'german', 'Passwort: ', `Passwort: \r\nAnmeldung erfolgreich\r`, false);
    add('prompt without a value', 'ssh', "Enter passphrase for key '/home/dev/.ssh/id_ed25519': ", `Enter passphrase for key '/home/dev/.ssh/id_ed25519': \r\nIdentity added: /home/dev/.ssh/id_ed25519\r`, false);
    add('prompt without a value', 'german, next output', `erhalten ${k + 10}`, `Passwort: erhalten ${k + 10} Zeichen\r`, false);
    add('prompt without a value', 'russian', 'Пароль: ', `Пароль: \r\nДобро пожаловать\r`, false);

    // YAML block scalars under a secret's key (`|`, `>-`, `|+`), one and two lines.
    const y1 = pw();
    add('yaml block scalar', 'helm values', y1, `postgresql:\n  auth:\n    password: |\n      ${y1}\n    database: app`);
    const y2 = pw();
    const y3 = pw();
    add('yaml block scalar', 'kubernetes stringData', `${y2}\n${y3}`, `stringData:\n  api_token: >-\n    ${y2}\n    ${y3}\n  region: eu-west-1`);
    const y4 = key();
    add('yaml block scalar', 'docker compose', y4, `services:\n  app:\n    environment:\n      - FOO=bar\n    secret_key: |+\n      ${y4}\n\n    image: app:1`);
    add('yaml block scalar', 'reference', '${DB_PASSWORD}', `db:\n  password: |\n    \${DB_PASSWORD}\n  host: db`, false);
    add('yaml block', 'non-secret key', 'Line one of the description', `app:\n  description: |\n    Line one of the description\n  password_min_length: 12`, false);

    // Pretty JSON, the value on the next line.
    const j = pw();
    add('json value on the next line', 'jq .', j, `{\n  "client_secret":\n    "${j}",\n  "client_id": "app"\n}`);
    const j2 = key();
    add('json value on the next line', 'python json.dumps', j2, `{\n    "aws_secret_access_key":\n        "${j2}"\n}`);
    add('json value on the next line', 'non-secret key', 'app-frontend', `{\n  "client_id":\n    "app-frontend"\n}`, false);

    // URL-encoded bodies and parameters.
    const u1 = pw().replace(/[#^*+!]/g, 'x');
    add('url-encoded secret', 'json body in a query', u1, `body=%7B%22password%22%3A%22${u1}%22%7D`);
    const u2 = pw().replace(/[#^*+!]/g, 'x');
    add('url-encoded secret', 'form body in a log', u2, `POST /login data=username%3Dbob%26password%3D${u2} 302`);
    const u3 = g.s(ALNUM, 32);
    add('url-encoded secret', 'redirect url', u3, `Location: /callback?state=xyz&next=%2Fapi%3Fapi_key%3D${u3}`);
    add('url-encoded text', 'json body in a query', 'bob', `q=%7B%22name%22%3A%22bob%22%2C%22page%22%3A2%7D`, false);
    add('url-encoded text', 'query', 'en-US', `GET /search?q=token%20rotation&lang%3Den-US 200`, false);

    // Base64 of a credentials-file line, an env line, a JSON object.
    const b1 = key();
    add('base64 of a credentials line', 'base64 -w0', b1, Buffer.from(`aws_secret_access_key = ${b1}\n`).toString('base64'));
    const b2 = pw();
    add('base64 of a credentials line', 'env in a CI variable', b2, `ENV_FILE=${Buffer.from(`DB_PASSWORD=${b2}\nDB_HOST=db\n`).toString('base64')}`);
    add('base64 of a config line', 'base64 -w0', 'region = eu-west-1', Buffer.from(`[default]\nregion = eu-west-1\noutput = json\n`).toString('base64'), false);

    // A printer's output through a transform (every line masked), through a reducer (kept).
    const a1 = key();
    add('printer through a transform', 'rev', a1, `${[...a1].reverse().join('')}\r`, true, 'aws configure get aws_secret_access_key | rev');
    const gh = g.checksummed('gho_');
    const hex = Buffer.from(`${gh}\n`).toString('hex');
    add('printer through a transform', 'xxd -p', hex, `${hex.slice(0, 60)}\r\n${hex.slice(60)}\r`, true, 'gh auth token | xxd -p');
    const a2 = key();
    add('printer through a transform', 'sed spaced', [...a2].join(' '), `${[...a2].join(' ')} \r`, true, "aws configure get aws_secret_access_key | sed 's/./& /g'");
    const a3 = key();
    add('printer through a transform', 'tr upper', a3.toUpperCase(), `${a3.toUpperCase()}\r`, true, 'aws configure get aws_secret_access_key | tr a-z A-Z');
    const s1 = key();
    add('printed by aws --query --output text', 'sts', s1, `${s1}\r`, true, 'aws sts get-session-token --query Credentials.SecretAccessKey --output text');
    const s3 = pw();
    add('printed by aws --query --output text', 'ssm', s3, `${s3}\r`, true, 'aws ssm get-parameter --name /prod/db --with-decryption --query Parameter.Value --output text');
    const kt = g.s(B64URL, 40);
    add('printed by kubectl config view --raw', 'jsonpath', kt, `${kt}`, true, "kubectl config view --raw -o jsonpath='{.users[0].user.token}'");
    const count = String(g.int(20, 60));
    add('printer through a reducer', 'wc -c', count, `${count}\r`, false, 'aws configure get aws_secret_access_key | wc -c');
    const digest = `${g.s(HEX, 64)}  -`;
    add('printer through a reducer', 'sha256sum', digest, `${digest}\r`, false, 'gh auth token | sha256sum');
    add('printer through a reducer', 'grep -c', '1', '1\r', false, 'gh auth token | grep -c gho_');
    add('not a printer', 'aws --query a non-secret field', 'i-0abc', `i-0${g.s(HEX, 17)}\r`, false, 'aws ec2 describe-instances --query Reservations[0].Instances[0].InstanceId --output text');
    add('not a printer', 'kubectl config view without --raw', 'dev-cluster', 'dev-cluster\r', false, "kubectl config view -o jsonpath='{.clusters[0].name}'");
  }
  return out;
}

/**
 * The masking engineer's own adversary pass (issue 21, session 3): credentials as more tools and
 * files print them — a value echoed into a stdin credential reader (`| docker login
 * --password-stdin`, `| sudo -S`), an HTML password field, HAR headers, Redis and SMTP `AUTH`,
 * GitHub Actions' `::add-mask::`, Kubernetes `stringData`, OpenVPN static keys — with look-alikes
 * printed the same way.
 */
function adversaryThreeItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const add = (format: string, context: string, value: string, text: string, secret = true) => out.push({ format, context, text, value, secret });
  const pw = () => g.s(`${ALNUM}!#^*_+`, g.int(12, 24)).replace(/^[^A-Za-z]/, 'k').replace(/[|<>;&]/g, 'x');
  for (let k = 0; k < 4; k++) {
    const d = pw();
    add('echoed into a stdin credential reader', 'set -x trace', d, `+ echo '${d}' | docker login -u ci --password-stdin registry.example.com`);
    const su = pw();
    add('echoed into a stdin credential reader', 'shell history', su, `  ${g.int(100, 999)}  echo ${su} | sudo -S systemctl restart app`);
    add('echoed into a stdin credential reader', 'reference', '$CI_REGISTRY_PASSWORD', `echo "$CI_REGISTRY_PASSWORD" | docker login -u ci --password-stdin $CI_REGISTRY`, false);
    const h = pw().replace(/["']/g, 'q');
    add('html password field', 'saved page', h, `<form><input type="password" name="pw" value="${h}" autocomplete="off"></form>`);
    add('html field', 'saved page', 'bob', `<input type="text" name="user" value="bob"><input type="password" name="pw" value="">`, false);
    const har = g.s(`${ALNUM}-._~`, 40);
    add('har header', 'devtools export', har, `        {\n          "name": "authorization",\n          "value": "Bearer ${har}"\n        },`);
    const harc = g.s(B64URL, 32);
    add('har header', 'devtools export, one line', harc, `{"name": "Cookie", "value": "sid=${harc}; theme=dark"}`);
    add('har header', 'devtools export', 'application/json', `        {\n          "name": "accept",\n          "value": "application/json"\n        },`, false);
    const r = pw().replace(/"/g, 'q');
    add('redis auth', 'redis-cli', r, `127.0.0.1:6379> AUTH ${r}\nOK`);
    const r2 = pw().replace(/"/g, 'q');
    add('redis auth', 'redis-cli monitor', r2, `1732900000.123456 [0 127.0.0.1:51234] "AUTH" "default" "${r2}"`);
    add('redis auth', 'redis error', 'NOAUTH', `(error) NOAUTH Authentication required.`, false);
    const smtp = Buffer.from(`\u0000ci@example.com\u0000${pw()}`).toString('base64');
    add('smtp auth plain', 'mail client debug log', smtp, `>>> AUTH PLAIN ${smtp}\n<<< 235 2.7.0 Authentication successful`);
    add('smtp auth', 'mail client debug log', 'AUTH LOGIN', `>>> AUTH LOGIN\n<<< 334 VXNlcm5hbWU6`, false);
    const m = pw();
    add('github actions add-mask', 'raw step log', m, `2026-11-29T10:00:0${k}.0000000Z ::add-mask::${m}`);
    add('github actions add-mask', 'workflow file', '${{ secrets.DEPLOY_KEY }}', `      - run: echo "::add-mask::\${{ secrets.DEPLOY_KEY }}"`, false);
    const sd = pw().replace(/["'#]/g, 'q');
    add('kubernetes stringData', 'manifest', sd, `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\nstringData:\n  db-conn: "${sd}"\n  region: ${sd.slice(0, 0)}eu-west-1-${k}x`);
    add('kubernetes stringData', 'helm template', '{{ .Values.db.password }}', `stringData:\n  password: {{ .Values.db.password }}`, false);
    const ov = Array.from({ length: 16 }, () => g.s(HEX, 32)).join('\n');
    add('openvpn static key', 'client.ovpn', ov, `<tls-auth>\n#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n${ov}\n-----END OpenVPN Static key V1-----\n</tls-auth>`);
  }
  return out;
}

/**
 * The third adversary pass (adv3, issue 21 session 3, M01-M25): tools that print one generated or stored credential bare
 * (heroku/pulumi config, sops --extract, aws text rows, az keys tsv, kubeadm, swarm, argocd, keepassxc, nmcli, git config,
 * artisan) and labelled lines that hold one (nomad, vault unseal keys, elasticsearch, Jenkins' next line, wpa_supplicant,
 * LDIF, ppp secrets), each with a look-alike printed the same way that must stay.
 */
function adversaryFourItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const add = (format: string, context: string, value: string, text: string, secret = true, command?: string) => out.push({ format, context, text, value, secret, ...(command ? { command } : {}) });
  const pw = () => g.s(`${ALNUM}_+`, g.int(14, 24)).replace(/^[^A-Za-z]/, 'k').replace(/(.)$/, '$17');
  const b36 = 'abcdefghijklmnopqrstuvwxyz0123456789';
  for (let k = 0; k < 4; k++) {
    const hk = g.s(HEX, 128);
    add('printed by heroku config:get', 'heroku config:get', hk, `${hk}\r`, true, 'heroku config:get SECRET_KEY_BASE -a app');
    add('one word from another command', 'heroku config:get', 'production', 'production\r', false, 'heroku config:get NODE_ENV -a app');
    const pu = pw();
    add('printed by pulumi config get', 'pulumi config get', pu, `${pu}\r`, true, 'pulumi config get dbPassword');
    add('one word from another command', 'pulumi config get', 'eu-west-1', 'eu-west-1\r', false, 'pulumi config get aws:region');
    const so = pw();
    add('printed by sops --extract', 'sops -d --extract', so, `${so}\r`, true, `sops -d --extract '["db"]["password"]' secrets.enc.yaml`);
    const kms = pw();
    add('printed by aws --query --output text', 'aws kms decrypt | base64 -d', kms, `${kms}\r`, true, 'aws kms decrypt --ciphertext-blob fileb://s.bin --query Plaintext --output text | base64 -d; echo');
    const ssm = [pw(), pw()];
    add('printed by aws ssm --output text', 'aws ssm get-parameters-by-path', ssm.join(' '), `${ssm.join('\t')}\r`, true, "aws ssm get-parameters-by-path --path /app --with-decryption --query 'Parameters[].Value' --output text");
    const ak = g.s(`${ALNUM}+/`, 40);
    // The key id may hold `EXAMPLE` (the adversary's did): the row is masked whole all the same.
    add('printed by aws iam create-access-key', 'aws --output text', ak, `ACCESSKEY\tAKIAQ3${k % 2 ? 'EXAMPLEKEYID7X' : g.s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 14)}\t2026-11-29T17:00:00+00:00\t${ak}\tActive\tbot\r`, true, 'aws iam create-access-key --user-name bot --output text');
    add('one word from another command', 'aws --output text', 'AKIAIOSFODNN7EXAMPLE', `ACCESSKEYMETADATA\tAKIAIOSFODNN7EXAMPLE\t2026-11-29T17:00:00+00:00\tActive\tbot\r`, false, 'aws iam list-access-keys --user-name bot --output text');
    const azk = `${g.s(`${ALNUM}+/`, 86)}==`;
    add('printed by az keys list -o tsv', 'az -o tsv', azk, `2026-11-29T10:00:00.000000+00:00\tkey1\tFULL\t${azk}\r`, true, 'az storage account keys list -n acct -o tsv');
    const kt = `${g.s('abcdefghijklmnopqrstuvwxyz0123456789', 6)}.${g.s('abcdefghijklmnopqrstuvwxyz0123456789', 16)}`;
    add('printed by kubeadm token create', 'kubeadm', kt, `${kt}\r`, true, 'kubeadm token create');
    // A bundler's asset name has a bootstrap token's shape (6 + `.` + 16): no shape rule for those, only the printer (docs/masking.md).
    const asset = `vendor.${g.s(HEX, 16)}.js`;
    add('bootstrap-token-shaped asset name', 'vite build', asset, `dist/assets/${asset}   142.31 kB │ gzip: 45.02 kB`, false);
    const sw = `SWMTKN-1-${g.s(b36, 50)}-${g.s(b36, 25)}`;
    add('docker swarm join token', 'docker swarm join-token -q', sw, `${sw}\r`, true, 'docker swarm join-token -q worker');
    add('docker swarm join token', 'docker swarm init', sw, `To add a worker to this swarm, run the following command:\n\n    docker swarm join --token ${sw} 192.168.65.3:2377\n`);
    add('swarm-like word', 'docs', 'SWMTKN-1-<digest>-<secret>', 'tokens look like SWMTKN-1-<digest>-<secret>', false);
    const ar = pw();
    add('printed by argocd admin initial-password', 'argocd', ar, `${ar}\r\n\r\n This password must be only used for first time login. We strongly recommend you update the password using argocd account update-password.\r`, true, 'argocd admin initial-password -n argocd');
    const kp = pw();
    add('printed by keepassxc-cli show -s', 'keepassxc-cli', kp, `${kp}\r`, true, 'keepassxc-cli show -s -a Password vault.kdbx github');
    add('one word from another command', 'keepassxc-cli', 'octocat', 'octocat\r', false, 'keepassxc-cli show -a UserName vault.kdbx github');
    const wifi = pw();
    add('printed by nmcli -s -g', 'nmcli', wifi, `${wifi}\r`, true, 'nmcli -s -g 802-11-wireless-security.psk connection show HomeNet');
    add('one word from another command', 'nmcli', '192.168.1.20/24', '192.168.1.20/24\r', false, 'nmcli -s -g ipv4.addresses connection show HomeNet');
    const gc = pw();
    add('printed by git config --get', 'git config', gc, `${gc}\r`, true, 'git config --get sendemail.smtppass');
    add('one word from another command', 'git config', 'bob@example.com', 'bob@example.com\r', false, 'git config --get user.email');
    const ak2 = `base64:${g.b64(32)}`;
    add('printed by php artisan key:generate --show', 'artisan', ak2, `${ak2}\r`, true, 'php artisan key:generate --show');
    const nm = g.uuid();
    add('nomad secret id', 'nomad acl bootstrap', nm, `Accessor ID  = ${g.uuid()}\r\nSecret ID    = ${nm}\r\nName         = Bootstrap Token\r\nType         = management\r`);
    const acc = g.uuid();
    add('nomad accessor id', 'nomad acl token list', acc, `Accessor ID  = ${acc}\r\nName         = ci\r`, false);
    const un = g.b64(32);
    add('vault unseal key', 'vault operator init', un, `Unseal Key 1: ${un}\n\nInitial Root Token: hvs.${g.s(ALNUM, 24)}\n`);
    add('vault status', 'vault status', 'Unseal Progress', 'Unseal Progress    0/3\nUnseal Nonce       n/a\nUnseal Key 1: <none>\n', false);
    const es = g.s(ALNUM, 19) + '7';
    add('elasticsearch new value', 'elasticsearch-reset-password', es, `Password for the [elastic] user successfully reset.\r\nNew value: ${es}\r\n`);
    add('elasticsearch new value', 'settings log', 'New value: enabled', 'Old value: disabled\nNew value: enabled\nNew value: 30\n', false);
    const jk = g.s(HEX, 32);
    add('jenkins initial password', 'docker logs jenkins', jk, `Jenkins initial setup is required. An admin user has been created and a password generated.\r\nPlease use the following password to proceed to installation:\r\n\r\n${jk}\r\n\r\nThis may also be found at: /var/jenkins_home/secrets/initialAdminPassword\r\n`);
    add('jenkins initial password', 'docs', 'the following password', 'Copy the following password from the log, then\nopen the setup wizard in a browser.\n', false);
    const wp = pw();
    add('wpa_supplicant psk', 'wpa_supplicant.conf', wp, `network={\n ssid="HomeNet"\n psk="${wp}"\n key_mgmt=WPA-PSK\n}`);
    add('wpa_supplicant psk', 'nmcli -s connection show', wp, `802-11-wireless-security.key-mgmt:       wpa-psk\n802-11-wireless-security.psk:           ${wp}\n802-11-wireless-security.psk-flags:     0 (none)`);
    add('wpa_supplicant key_mgmt', 'wpa_supplicant.conf', 'WPA-PSK', 'network={\n ssid="Guest"\n key_mgmt=WPA-PSK\n psk-flags: 0\n}', false);
    const ld = Buffer.from(`{SSHA}${g.b64(24)}`).toString('base64');
    add('ldif userPassword', 'ldapsearch', ld, `dn: uid=bob,ou=people,dc=example,dc=com\nuserPassword:: ${ld}\n`);
    add('ldif attribute', 'ldapsearch', 'uid=bob', `dn: uid=bob,ou=people,dc=example,dc=com\nuid: bob\nloginShell: /bin/bash\n`, false);
    const chap = pw();
    add('ppp chap-secrets', 'cat chap-secrets', chap, `# Secrets for authentication using CHAP\r\n# client server secret   IP addresses\r\nbob * "${chap}" *\r`, true, 'cat ~/chap-secrets');
    add('ppp options', 'cat options', 'noauth', 'noauth\r\nrefuse-chap\r\n', false, 'cat /etc/ppp/options');
  }
  return out;
}

/** `xxd [-s offset]` of `bytes` (vim's xxd default: `%08x: `, groups of two bytes, two blanks, the ASCII column with `.` for the rest). */
export function xxdOf(bytes: Buffer, offset = 0): string {
  const rows: string[] = [];
  for (let at = offset; at < bytes.length; at += 16) {
    const row = bytes.subarray(at, at + 16);
    const hex = Array.from({ length: Math.ceil(row.length / 2) }, (_, i) => row.subarray(i * 2, i * 2 + 2).toString('hex')).join(' ');
    rows.push(`${at.toString(16).padStart(8, '0')}: ${hex.padEnd(39)}  ${asciiOf(row)}`);
  }
  return `${rows.join('\n')}\n`;
}

/** `hexdump -C [-s offset]` of `bytes` (util-linux's canonical form: two groups of eight, `|ascii|`, the end offset alone last). */
export function hexdumpCOf(bytes: Buffer, offset = 0): string {
  const rows: string[] = [];
  for (let at = offset; at < bytes.length; at += 16) {
    const row = bytes.subarray(at, at + 16);
    let hex = '';
    row.forEach((b, i) => (hex += `${i === 8 ? ' ' : ''}${b.toString(16).padStart(2, '0')} `));
    rows.push(`${at.toString(16).padStart(8, '0')}  ${hex.padEnd(49)} |${asciiOf(row)}|`);
  }
  rows.push(bytes.length.toString(16).padStart(8, '0'));
  return `${rows.join('\n')}\n`;
}

const OD_ESCAPE: Record<number, string> = { 0: '\\0', 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v' };
/** One byte as `od -c` prints it, four characters wide (C locale: bytes past ASCII in octal). */
export const odField = (b: number): string => (OD_ESCAPE[b] ?? (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : b.toString(8).padStart(3, '0'))).padStart(4);

/** `od -c [-j skip]` of `bytes` (GNU coreutils: `%07o` offsets, the end offset alone last), or `od -An -c` (`address` false: no offsets). */
export function odCOf(bytes: Buffer, skip = 0, address = true): string {
  const rows: string[] = [];
  for (let at = skip; at < bytes.length; at += 16) rows.push(`${address ? at.toString(8).padStart(7, '0') : ''}${[...bytes.subarray(at, at + 16)].map(odField).join('')}`);
  if (address) rows.push(bytes.length.toString(8).padStart(7, '0'));
  return `${rows.join('\n')}\n`;
}

const asciiOf = (row: Buffer) => [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');

/** Go's text/tabwriter as kubeadm configures it (minwidth 10, padding 3, blanks): each column as wide as its widest cell plus 3. */
export function tabwriterOf(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(10, Math.max(...rows.map((r) => r[c].length)) + 3));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]))).join('')).join('\n');
}

/**
 * Session 4 (issue 21): forms that still leaked — kubeadm's TOKEN table, hex and od dumps read from an offset, composer's auth,
 * literals fed by process substitution or a here-string, base64 wrapped at 76 columns, Linux-PAM's translated prompts with an
 * echoed answer — each with look-alikes printed the same way.
 */
function sessionFourItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const add = (format: string, context: string, value: string, text: string, secret = true, command?: string) => out.push({ format, context, text, value, secret, ...(command ? { command } : {}) });
  // A leading `k`: a value that starts `my…` / `your…` is a placeholder (as in the docs) to the look-alike guard (`my_token`).
  const pw = () => `k${g.s(`${ALNUM}_+`, g.int(15, 23))}`;
  const b36 = 'abcdefghijklmnopqrstuvwxyz0123456789';
  for (let k = 0; k < 4; k++) {
    // kubeadm token list (its columns as the kubeadm docs give them; kubeadm's tabwriter: minwidth 10, padding 3).
    const tokens = [`${g.s(b36, 6)}.${g.s(b36, 16)}`, `${g.s(b36, 6)}.${g.s(b36, 16)}`];
    const groups = 'system:bootstrappers:kubeadm:default-node-token';
    add('kubeadm token list', 'kubeadm token list', tokens.join('\n'), `${tabwriterOf([['TOKEN', 'TTL', 'EXPIRES', 'USAGES', 'DESCRIPTION', 'EXTRA GROUPS'], [tokens[0], '23h', '2026-11-30T19:12:44Z', 'authentication,signing', "The default bootstrap token generated by 'kubeadm init'.", groups], [tokens[1], '<forever>', '<never>', 'authentication,signing', '<none>', groups]])}\n`);
    const asset = `vendor.${g.s(HEX, 16)}.js`;
    add('bootstrap-token-shaped cell', 'asset table', asset, `${tabwriterOf([['ASSET', 'SIZE', 'GZIP'], [asset, '142.31 kB', '45.02 kB'], [`index.${g.s(HEX, 16)}.js`, '12.04 kB', '4.51 kB']])}\n`, false);

    // Dumps of a .env file, whole and from an offset (the secret starts a row: its first row's pieces are the fragments).
    const secret = pw().padEnd(16, 'x');
    const head = `# app ${'-'.repeat(4 + ((16 - ((6 + 'DB_PASSWORD='.length + 5) % 16)) % 16))}\nDB_PASSWORD=`;
    const file = Buffer.from(`${head}${secret}\nDB_HOST=db.internal\n`);
    const row = head.length;
    const rowHex = (sep: string) => [...file.subarray(row, row + 8)].map((b) => b.toString(16).padStart(2, '0')).join(sep);
    const xxdHex = Array.from({ length: 4 }, (_, i) => file.subarray(row + i * 2, row + i * 2 + 2).toString('hex')).join(' ');
    add('xxd of a secret file', 'xxd', `${secret.slice(0, 16)}\n${xxdHex}`, xxdOf(file));
    add('xxd of a secret file', 'xxd -s (read from an offset)', `${secret.slice(0, 16)}\n${xxdHex}`, xxdOf(file, row - 16));
    add('hexdump -C of a secret file', 'hexdump -C -s (read from an offset)', `${secret.slice(0, 16)}\n${rowHex(' ')}`, hexdumpCOf(file, row - 16));
    add('od -c of a secret file', 'od -c', [...file.subarray(row, row + 4)].map(odField).join(''), odCOf(file));
    add('od -c of a secret file', 'od -An -c', [...file.subarray(row, row + 4)].map(odField).join(''), odCOf(file, 0, false));
    add('od -c of a secret file', 'od -c -j (read from an offset)', [...file.subarray(row, row + 4)].map(odField).join(''), odCOf(file, row - 16));
    const plain = Buffer.from(`# notes\nhost: db.internal ${k}\nretries: 3\ntoken_ttl: 3600\n`);
    add('dump of a plain file', 'xxd -s', 'db.internal', xxdOf(plain, 16), false);
    add('dump of a plain file', 'od -c', 'retries', odCOf(plain), false);
    add('dump of a plain file', 'hexdump -C -s', 'host', hexdumpCOf(plain, 4), false);

    // composer's auth (getcomposer.org/doc/articles/authentication-for-private-packages.md), as composer writes and prints it.
    const gl = `k${g.s(`${ALNUM}-_`, 19)}`;
    const br = g.s(HEX, 40);
    const hb = pw();
    add('composer auth.json', 'cat auth.json', `${gl}\n${br}\n${hb}`, `{\n    "bitbucket-oauth": {},\n    "github-oauth": {},\n    "gitlab-oauth": {},\n    "gitlab-token": {\n        "gitlab.example.com": "${gl}"},\n    "http-basic": {\n        "repo.example.org": {\n            "username": "bob",\n            "password": "${hb}"\n        }},\n    "bearer": {\n        "repo.example.org": "${br}"}\n}\n`);
    add('composer auth.json', 'COMPOSER_AUTH', gl, `COMPOSER_AUTH='{"gitlab-oauth":{"gitlab.example.com":"${gl}"}}'`);
    add('composer config -l', 'composer config -g -l', `${gl}\n${hb}\n${br}`, `[github-domains] [github.com]\n[gitlab-domains] [gitlab.com, gitlab.example.com]\n[gitlab-token.gitlab.example.com] ${gl}\n[http-basic.repo.example.org.username] bob\n[http-basic.repo.example.org.password] ${hb}\n[bearer.repo.example.org] ${br}\n[home] /home/dev/.config/composer\n`);
    add('composer config on a command line', 'shell history', gl, `composer config --global gitlab-token.gitlab.example.com ${gl}`);
    add('composer config on a command line', 'set -x trace', hb, `+ composer config -g http-basic.repo.example.org bob ${hb}`);
    add('printed by composer config <auth key>', 'composer config', gl, `${gl}\r`, true, 'composer config -g gitlab-token.gitlab.example.com');
    add('composer config -l', 'composer config -g -l', '[http-basic.repo.example.org.username] bob', `[process-timeout] 300\n[http-basic.repo.example.org.username] bob\n[github-domains] [github.com]\n`, false);
    add('one word from another command', 'composer config', '300', '300\r', false, 'composer config -g process-timeout');
    add('composer auth.json', 'empty sections', '"github-oauth": {}', `{\n    "github-oauth": {},\n    "bearer": {}\n}\n`, false);

    // A literal through process substitution or a here-string, on the command line a trace or history shows.
    const ps = pw();
    add('process substitution', 'shell history', ps, `  ${g.int(100, 999)}  pg_restore --password-file <(echo ${ps}) -d app dump.sql`);
    const sp = pw();
    add('process substitution', 'set -x trace', sp, `+ sshpass -f <(echo '${sp}') ssh deploy@10.0.${k}.5 uptime`);
    const hs = pw();
    add('here-string', 'set -x trace', hs, `+ docker login -u ci --password-stdin registry.example.com <<< '${hs}'`);
    const hs2 = pw();
    add('here-string', 'shell history', hs2, `sudo -S systemctl restart app <<< ${hs2}`);
    add('process substitution', 'diff', 'alpha', `diff <(echo alpha${k}) <(echo beta${k})`, false);
    add('here-string', 'grep', 'hello world', `grep -c hello <<< "hello world ${k}"`, false);
    add('process substitution', 'reference', '"$DB_PASSWORD"', `pg_restore --password-file <(echo "$DB_PASSWORD") -d app dump.sql`, false);

    // base64 wrapped at 76 (GNU base64's default), a secret cut across its lines; images and prose stay.
    const env = Buffer.from(`DB_HOST=db.internal\nDB_USER=app\nDB_PASSWORD=${pw()}\nAWS_SECRET_ACCESS_KEY=${g.s(`${ALNUM}+/`, 40)}\n`).toString('base64');
    const wrap = (b64: string, w = 76) => b64.match(new RegExp(`.{1,${w}}`, 'g'))!.join('\n');
    add('base64 wrapped', 'base64 -w 76 .env', wrap(env), `${wrap(env)}\n`);
    const key = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey;
    const kb = Buffer.from(key).toString('base64');
    add('base64 wrapped', 'base64 id_ed25519', wrap(kb), `${wrap(kb)}\n`);
    add('base64 wrapped', 'openssl base64 (64 columns)', wrap(env, 64), `${wrap(env, 64)}\n`);
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from(Array.from({ length: 300 }, () => g.int(0, 255)))]).toString('base64');
    add('base64 wrapped look-alike', 'base64 logo.png', wrap(png).split('\n')[1], `${wrap(png)}\n`, false);
    const prose = Buffer.from(`The shell for AI coding agents ${k}. It runs commands in real terminals and condenses their output without losing an error, a failing test or a count.\n`).toString('base64');
    add('base64 wrapped look-alike', 'base64 README', wrap(prose).split('\n')[0], `${wrap(prose)}\n`, false);
  }
  for (let k = 0; k < 4; k++) {
    // The session's adversary pass (A01-A15): forms that leaked, each with a look-alike printed the same way.
    const v = pw();
    add('name/value pair', 'pod spec env (kubectl get deploy -o yaml)', v, `      containers:\n      - env:\n        - name: DB_PASSWORD\n          value: ${v}\n        - name: LOG_LEVEL\n          value: debug\n`);
    const v2 = g.s(ALNUM, 32);
    add('name/value pair', 'ecs describe-task-definition', v2, `            "environment": [\n                {\n                    "name": "API_TOKEN",\n                    "value": "${v2}"\n                },\n`);
    const v3 = pw();
    add('name/value pair', 'gitlab ci variables api', v3, `[{"variable_type":"env_var","key":"DEPLOY_TOKEN","value":"${v3}","protected":true,"masked":false,"raw":false,"environment_scope":"*"}]`);
    add('name/value pair', 'pod spec env', 'debug', `        - name: LOG_LEVEL\n          value: debug\n        - name: DB_PASSWORD_FILE\n          value: /run/secrets/db_password\n`, false);
    const sq = pw().replace(/'/g, 'q');
    add('sql password', 'psql echo', sq, `app=# CREATE ROLE deploy WITH LOGIN PASSWORD '${sq}' VALID UNTIL 'infinity';\nCREATE ROLE`);
    const sq2 = pw().replace(/'/g, 'q');
    add('sql password', 'mysql history', sq2, `mysql> CREATE USER 'app'@'%' IDENTIFIED WITH caching_sha2_password BY '${sq2}';`);
    add('sql password', 'html form', 'password', `<input type="password" name="pw" value="">`, false);
    add('sql password', 'sql comment', "PASSWORD NULL", `ALTER ROLE app PASSWORD NULL;`, false);
    const sk = g.s(HEX, 64);
    add('labelled secret key', 'supabase status', sk, `         API URL: http://127.0.0.1:54321\n   S3 Access Key: ${g.s(HEX, 32)}\n   S3 Secret Key: ${sk}\n       S3 Region: local\n`);
    add('labelled key', 'supabase status', 'S3 Region: local', `       S3 Region: local\n   Publishable key: (none)\n`, false);
    const ident = `bob:${pw()}`;
    add('yarn npmAuthIdent', '.yarnrc.yml', ident, `npmRegistries:\n  "https://npm.example.com":\n    npmAlwaysAuth: true\n    npmAuthIdent: "${ident}"\n`);
    const kv = [pw(), g.s(ALNUM, 24)];
    add('vault kv get', 'vault kv get', kv.join('\n'), `====== Secret Path ======\nsecret/data/app\n\n======= Metadata =======\nKey                Value\n---                -----\ncreated_time       2026-11-29T19:00:00.000000Z\nversion            3\n\n====== Data ======\nKey         Value\n---         -----\ndb_conn     ${kv[0]}\nstripe      ${kv[1]}\n`);
    const dc = `A1a-${g.s(ALNUM, 20)}`;
    add('vault read', 'vault read database/creds', dc, `Key                Value\n---                -----\nlease_id           database/creds/readonly/${g.s(ALNUM, 24)}\nlease_duration     1h\nlease_renewable    true\npassword           ${dc}\nusername           v-token-readonly-${g.s(ALNUM, 8)}\n`);
    add('vault metadata', 'vault kv metadata get', 'created_time', `======= Metadata =======\nKey                Value\n---                -----\ncreated_time       2026-11-29T19:00:00.000000Z\nmax_versions       0\n`, false);
    const rp = pw().replace(/"/g, 'q');
    add('redis config get', 'redis-cli', rp, `127.0.0.1:6379> CONFIG GET requirepass\n1) "requirepass"\n2) "${rp}"\n127.0.0.1:6379> `);
    add('redis config get', 'redis-cli', 'maxmemory', `127.0.0.1:6379> CONFIG GET maxmemory\n1) "maxmemory"\n2) "104857600"\n`, false);
    const kd = Buffer.from(`postgres://app:${pw()}@db:5432/app`).toString('base64');
    add('kubernetes secret json', 'kubectl get secret -o json', kd, `{\n    "apiVersion": "v1",\n    "data": {\n        "db-url": "${kd}"\n    },\n    "kind": "Secret",\n    "metadata": {\n        "name": "app"\n    },\n    "type": "Opaque"\n}\n`);
    add('kubernetes configmap json', 'kubectl get configmap -o json', 'eu-west-1', `{\n    "apiVersion": "v1",\n    "data": {\n        "region": "eu-west-1",\n        "mode": "test"\n    },\n    "kind": "ConfigMap"\n}\n`, false);
    const hexRows = Array.from({ length: 3 }, () => Array.from({ length: 15 }, () => g.s(HEX, 2)).join(':') + ':');
    add('openssl private numbers', 'openssl pkey -text', hexRows.join('\n'), `Private-Key: (512 bit, 2 primes)\npublicExponent: 65537 (0x10001)\nprivateExponent:\n${hexRows.map((r) => `    ${r}`).join('\n')}\nprime1:\n    00:${g.s(HEX, 2)}\n`);
    const modRows = Array.from({ length: 3 }, () => Array.from({ length: 15 }, () => g.s(HEX, 2)).join(':') + ':');
    add('openssl public numbers', 'openssl x509 -text', modRows[1], `        Subject Public Key Info:\n            Public Key Algorithm: rsaEncryption\n                Modulus:\n${modRows.map((r) => `                    ${r}`).join('\n')}\n                Exponent: 65537 (0x10001)\n`, false);
    const op = pw().replace(/"/g, 'q');
    add('1password concealed field', 'op item get --format json', op, `    {\n      "id": "password",\n      "type": "CONCEALED",\n      "purpose": "PASSWORD",\n      "label": "password",\n      "value": "${op}",\n      "reference": "op://Private/github/password"\n    },`);
    add('1password field', 'op item get --format json', 'octocat', `    {\n      "id": "username",\n      "type": "STRING",\n      "purpose": "USERNAME",\n      "label": "username",\n      "value": "octocat"\n    },`, false);
    const ds = pw();
    add('printed by cat of a secret file', 'docker secret', ds, `${ds}\r`, true, 'cat /run/secrets/db_password');
    add('one word from another command', 'cat', 'Installation', 'Installation\r', false, 'cat README.md');
    const et = pw();
    add('printed by etcdctl get', 'etcdctl', et, `/config/db/password\r\n${et}\r`, true, 'etcdctl get /config/db/password');
    add('one word from another command', 'etcdctl', 'eu-west-1a', '/config/region\r\neu-west-1a\r', false, 'etcdctl get /config/region');
  }
  // Linux-PAM 1.5's translated prompts (msgstr of its .mo files) and sudo's, each with an echoed answer; then with none.
  const pam = ['当前的密码： ', '新的密码： ', 'Contraseña actual: ', 'Mot de passe actuel : ', '현재 암호: ', '암호: ', 'Geben Sie das aktuelle Passwort ein: ', '[sudo] bob 的密码：', '[sudo] bob のパスワード:', '[sudo] пароль для bob: '];
  for (const p of pam) {
    const v = pw();
    add('echoed prompt answer', `pam ${p.trim()}`, v, `${p}${v}\r\n`);
    add('prompt without a value', `pam ${p.trim()}`, p, `${p}\r\nsu: Authentication failure\r\n`, false);
  }
  return out;
}

/**
 * The masking forms of adversary pass 4 (adv4 M01-M24 and its extra forms): credential printers
 * that print a bare value (swarm unlock key, consul keygen / kv get, wg, rbw, keyring, rclone
 * reveal, age/gpg -d, systemd-creds, infisical, salt pillar.get, netlify env:get, aws --query in
 * JSON, kubectl get secret | jq, kubectl view-secret, Symfony's vault, phx.gen.secret, rails
 * secret), credential files in rows (sasl_passwd, davfs2, rsyncd, exim, OpenVPN auth) and
 * labelled forms (ipsec.secrets PSK, FileZilla `<Pass>`, sqlplus `user/pw@db`); each with a
 * look-alike printed the same way that must stay.
 */
function passFourPrinterItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const add = (format: string, context: string, value: string, text: string, secret = true, command?: string) => out.push({ format, context, text, value, secret, ...(command ? { command } : {}) });
  const pw = () => `k${g.s(`${ALNUM}_+`, g.int(15, 23))}`;
  const b64 = (n: number) => `${g.s(B64, n)}=`;
  for (let k = 0; k < 4; k++) {
    const printed: [string, string, string][] = [
      ['docker swarm unlock-key -q', 'docker swarm unlock-key -q', `SWMKEY-1-${g.s(B64URL, 43)}`],
      ['consul keygen', 'consul keygen', b64(43)],
      ['consul kv get', 'consul kv get app/db_password', pw()],
      ['wg show private-key', 'wg show wg0 private-key', b64(43)],
      ['wg genkey', 'wg genkey', b64(43)],
      ['rbw get', 'rbw get github', pw()],
      ['keyring get', 'keyring get github.com bob', pw()],
      ['rclone reveal', `rclone reveal ${g.s(B64URL, 22)}`, pw()],
      ['age -d', 'age -d -i key.txt db_password.age', pw()],
      ['gpg -d', 'gpg -q -d ~/.password-store/github.gpg', pw()],
      ['systemd-creds decrypt', 'systemd-creds decrypt --name=db db.cred -', pw()],
      ['infisical secrets get --plain', 'infisical secrets get DB_PASSWORD --plain', pw()],
      ['netlify env:get', 'netlify env:get SESSION_SECRET', pw()],
      ['kubectl view-secret', 'kubectl view-secret db password', pw()],
      ['symfony secrets:reveal', 'php bin/console secrets:reveal DATABASE_PASSWORD', pw()],
      ['mix phx.gen.secret', 'mix phx.gen.secret', g.s(B64, 64)],
      ['rails secret', 'bin/rails secret', g.s(HEX, 128)],
    ];
    for (const [format, command, value] of printed) add(`printed by ${format}`, format, value, `${value}\r`, true, command);
    const salt = pw();
    add('printed by salt-call pillar.get', 'salt-call', salt, `local:\n    ${salt}\n`, true, 'salt-call pillar.get db:password');
    const ssm = pw();
    add('printed by aws --query (json)', 'aws ssm', ssm, `"${ssm}"\n`, true, 'aws ssm get-parameter --name /prod/db/password --with-decryption --query Parameter.Value');
    const kj = pw();
    add('printed by kubectl get secret | jq', 'kubectl | jq | base64 -d', kj, kj, true, 'kubectl get secret db -o json | jq -r .data.password | base64 -d');
    const sy = [pw(), pw()];
    add('symfony secrets:list --reveal', 'symfony', sy.join('\n'), ` ------------------- ------------------------- -------------\n  Secret              Value                     Local Value\n ------------------- ------------------------- -------------\n  APP_SECRET          "${sy[0]}"\n  DATABASE_PASSWORD   "${sy[1]}"\n ------------------- ------------------------- -------------\n`, true, 'php bin/console secrets:list --reveal');
    // Look-alikes printed the same way: a value the key does not name a secret, a public key, a label, a non-secret query.
    add('one word from another command', 'consul kv get', 'eu-west-1', 'eu-west-1\r', false, 'consul kv get app/region');
    const pub = b64(43);
    add('one word from another command', 'wg show public-key', pub, `${pub}\r`, false, 'wg show wg0 public-key');
    add('one word from another command', 'salt-call', 'Debian', 'local:\n    Debian\n', false, 'salt-call grains.get os');
    add('one word from another command', 'netlify env:get', 'production', 'production\r', false, 'netlify env:get NODE_ENV');
    add('one word from another command', 'aws --query a name', 'prod/db/password', '"prod/db/password"\n', false, 'aws secretsmanager list-secrets --query SecretList[0].Name');
    add('one word from another command', 'kubectl get configmap | jq', 'eu-west-1', 'eu-west-1', false, 'kubectl get configmap app -o json | jq -r .data.region');
    add('one word from another command', 'gpg -d of a tarball', 'backup.tar', 'backup.tar\r', false, 'gpg -d backup.tar.gpg | tar tf -');

    // Credential files in rows (cat printer): the secret, and the same tools on another file.
    const sasl = pw();
    add('postfix sasl_passwd', 'cat', sasl, `[smtp.gmail.com]:587 bob@gmail.com:${sasl}\n`, true, 'cat /etc/postfix/sasl_passwd');
    const dav = pw();
    add('davfs2 secrets', 'cat', dav, `# davfs2 secrets file\nhttps://dav.example.com/remote.php/webdav bob ${dav}\n`, true, 'cat /etc/davfs2/secrets');
    const rs = pw();
    add('rsyncd secrets', 'cat', rs, `backup:${rs}\n`, true, 'sudo cat /etc/rsyncd.secrets');
    const ex = pw();
    add('exim passwd.client', 'cat', ex, `*.mailhost.net:bob@mailhost.net:${ex}\n`, true, 'cat /etc/exim4/passwd.client');
    // A row naming a documentation domain (RFC 2606): the domain makes no example of the password.
    const exd = pw();
    add('exim passwd.client', 'cat', exd, `*.example.com:bob@example.com:${exd}\n`, true, 'cat /etc/exim4/passwd.client');
    const ov = pw();
    add('openvpn auth-user-pass', 'cat', ov, `bob\n${ov}\n`, true, 'cat /etc/openvpn/client/auth.txt');
    add('one word from another command', 'cat', 'smtp.gmail.com', 'relayhost = [smtp.gmail.com]:587\n', false, 'cat /etc/postfix/main.cf');
    add('one word from another command', 'cat', 'client', 'client\ndev tun\nauth-user-pass auth.txt\n', false, 'cat /etc/openvpn/client/office.conf');

    // Labelled forms the scanner reads wherever they are printed.
    const psk = `k${g.s(ALNUM, 9)}`;
    add('ipsec.secrets PSK', 'cat', psk, `# ipsec.secrets - strongSwan IPsec secrets file\n%any %any : PSK "${psk}"\n: RSA moonKey.pem\n`);
    add('ipsec.secrets key file', 'cat', 'moonKey.pem', ': RSA moonKey.pem\n: ECDSA sunKey.pem\n', false);
    const fz = Buffer.from(pw()).toString('base64');
    add('filezilla password', 'sitemanager.xml', fz, `      <Host>ftp.example.com</Host>\n      <User>bob</User>\n      <Pass encoding="base64">${fz}</Pass>\n`);
    add('filezilla user', 'sitemanager.xml', 'bob', '      <Host>ftp.example.com</Host>\n      <User>bob</User>\n      <Logontype>1</Logontype>\n', false);
    // Short values (under the cheap gate's 16-character run): the gate must know the form's word (quick-check.ts).
    const ora = `k${g.s(ALNUM, 9)}`;
    add('sqlplus connect string', 'shell history', ora, `sqlplus scott/${ora}@orcl\n`);
    add('sqlplus script path', 'shell history', 'sqlplus -s /nolog @scripts/setup.sql', 'sqlplus -s /nolog @scripts/setup.sql\n', false);
    // Command lines in a shell history (adv4's extra forms), with short values, and the same tools with no password.
    const hist: [string, (v: string) => string][] = [
      ['zip -P', (v) => `zip -P ${v} backup.zip notes.txt`],
      ['7z -p', (v) => `7z a -p${v} -mhe=on vault.7z secrets/`],
      ['xfreerdp /p:', (v) => `xfreerdp /v:win.corp.lan /u:admin /p:${v}`],
      ['mysqladmin password', (v) => `mysqladmin -u root password ${v}`],
      ['keytool -storepass', (v) => `keytool -genkeypair -alias app -keystore app.jks -storepass ${v}`],
      ['nmcli wifi password', (v) => `nmcli dev wifi connect HomeNet password ${v}`],
      ['ipmitool -P', (v) => `ipmitool -I lanplus -H 10.0.0.9 -U admin -P ${v} chassis status`],
      ['rabbitmqctl add_user', (v) => `rabbitmqctl add_user deploy ${v}`],
      ['rabbitmqctl change_password', (v) => `rabbitmqctl change_password deploy ${v}`],
    ];
    for (const [format, line] of hist) {
      const v = `k${g.s(ALNUM, 9)}`;
      add(`${format} on a command line`, 'shell history', v, `${line(v)}\n`);
    }
    add('command line without a password', 'shell history', 'backup.zip', 'zip -r backup.zip notes/\n', false);
    add('command line without a password', 'shell history', 'vault.7z', '7z x -o/tmp/out vault.7z\n', false);
    add('command line without a password', 'shell history', '/u:admin', 'xfreerdp /v:win.corp.lan /u:admin /p\n', false);
    add('command line without a password', 'shell history', 'status', 'mysqladmin -u root -p status\n', false);
    add('command line without a password', 'shell history', 'app.jks', 'keytool -list -keystore app.jks\n', false);
    add('command line without a password', 'shell history', 'HomeNet', 'nmcli dev wifi connect HomeNet\n', false);
    add('command line without a password', 'shell history', 'chassis', 'ipmitool -I lanplus -H 10.0.0.9 -U admin -E chassis status\n', false);
    add('command line without a password', 'shell history', 'deploy', 'rabbitmqctl set_permissions -p / deploy ".*" ".*" ".*"\n', false);
    add('command line without a password', 'shell history', 'list_users', 'rabbitmqctl list_users\n', false);
    const mvn = `{${g.s(B64, 40)}=}`;
    add('printed by cat of maven settings-security.xml', 'cat', mvn, `<settingsSecurity>\n  <master>${mvn}</master>\n</settingsSecurity>\n`, true, 'cat ~/.m2/settings-security.xml');
    add('one word from another command', 'cat', 'settings', '<settings>\n  <localRepository>/srv/m2</localRepository>\n</settings>\n', false, 'cat ~/.m2/settings.xml');
    const mk = g.s(HEX, 32);
    add('printed by microk8s add-node', 'microk8s', mk, `From the node you wish to join to this cluster, run the following:\nmicrok8s join 10.0.0.5:25000/${mk}/${g.s(HEX, 12)}\n`, true, 'microk8s add-node');
    const bk = g.s(B64, 72);
    add('printed by borg key export', 'borg', bk, `BORG_KEY ${g.s(HEX, 64)}\n${bk}\n`, true, 'borg key export /srv/repo');
    add('one word from another command', 'microk8s', 'Running', 'microk8s is running\n', false, 'microk8s status');
  }
  return out;
}

/**
 * The masking forms of session 5's adversary pass (21 of 40 leaked before): settings written on a
 * command line (`npm config set //host/:_authToken …`, `git config github.token …`), credential
 * flags and operands (`curl --oauth2-bearer`, `gh secret set --body`, `ngrok config add-authtoken`,
 * `mosquitto_passwd -b`, `ldappasswd -s`, `unzip -P`, redis `ACL SETUSER … >pw`, `mc alias set`,
 * poetry's auth settings), a secret's row in a table (`railway variables`, `doppler secrets`, `aws
 * … --output table`) and printers (`oc whoami -t`, `wp config get`), each beside the same tools
 * printing no secret.
 */
function passFiveItems(g: Gen): CorpusItem[] {
  const out: CorpusItem[] = [];
  const add = (format: string, context: string, value: string, text: string, secret = true, command?: string) => out.push({ format, context, text, value, secret, ...(command ? { command } : {}) });
  const pw = () => `k${g.s(`${ALNUM}_+`, g.int(9, 23))}`;
  for (let k = 0; k < 3; k++) {
    const hist: [string, (v: string) => string][] = [
      ['npm config set _authToken', (v) => `npm config set //npm.corp.lan/:_authToken ${v}`],
      ['yarn config set npmAuthToken', (v) => `yarn config set npmAuthToken ${v}`],
      ['git config token', (v) => `git config --global github.token ${v}`],
      ['aws configure set secret key', (v) => `aws configure set aws_secret_access_key ${v} --profile ci`],
      ['kubectl config set token', (v) => `kubectl config set users.ci.token ${v}`],
      ['curl --oauth2-bearer', (v) => `curl -s --oauth2-bearer ${v} https://api.corp.lan/v1/me`],
      ['gh secret set --body', (v) => `gh secret set DEPLOY_TOKEN --body ${v}`],
      ['ngrok add-authtoken', (v) => `ngrok config add-authtoken ${v}`],
      ['mosquitto_passwd -b', (v) => `mosquitto_passwd -b /etc/mosquitto/passwd sensor1 ${v}`],
      ['ldappasswd -s', (v) => `ldappasswd -x -D cn=admin,dc=corp,dc=lan -W -s ${v} uid=bob,ou=people,dc=corp,dc=lan`],
      ['unzip -P', (v) => `unzip -P ${v} backup.zip`],
      ['redis ACL SETUSER', (v) => `redis-cli ACL SETUSER app on >${v} ~app:* +@read`],
      ['mc alias set', (v) => `mc alias set backup https://minio.corp.lan:9000 backupuser ${v}`],
      ['poetry config http-basic', (v) => `poetry config http-basic.corp deploy ${v}`],
      // The pass's last round (each leaked before it): a quoted name, `npm set`, an option the rule did not list, attached `-b`,
      // a value piped to `gh secret set`, the second password of an ACL line, a JVM property.
      ['npm config set quoted name', (v) => `npm config set "//npm.corp.lan/:_authToken" "${v}"`],
      ['npm set', (v) => `npm set //registry.corp.lan/:_authToken ${v}`],
      ['yarn config set --home', (v) => `yarn config set --home npmAuthToken ${v}`],
      ['gh secret set -b attached', (v) => `gh secret set DEPLOY_TOKEN -b${v}`],
      ['echo | gh secret set', (v) => `echo ${v} | gh secret set DEPLOY_KEY`],
      ['redis ACL SETUSER second password', (v) => `redis-cli ACL SETUSER app on >kFirstPw0 >${v} ~*`],
      ['java -D password property', (v) => `java -Dspring.datasource.password=${v} -jar app.jar`],
    ];
    for (const [format, line] of hist) {
      const v = pw();
      add(`${format} on a command line`, 'shell history', v, `${line(v)}\n`);
    }
    const rail = pw();
    add('secret in a box table', 'railway variables', rail, `╔═══════════════════╦══════════════════════╗\n║ DATABASE_PASSWORD ║ ${rail} ║\n║ PORT              ║ 3000                 ║\n╚═══════════════════╩══════════════════════╝\n`);
    const dop = pw();
    add('secret in a box table', 'doppler secrets', dop, `┌───────────────┬──────────────────────────┐\n│ NAME          │ VALUE (COMPUTED)         │\n├───────────────┼──────────────────────────┤\n│ STRIPE_SECRET │ ${dop} │\n│ DB_HOST       │ db.corp.lan              │\n└───────────────┴──────────────────────────┘\n`);
    const tbl = pw();
    add('secret in an ascii table', 'aws --output table', tbl, `+---------------+------------------------------+\n|  Name         |  prod/db                     |\n|  SecretString |  ${tbl}  |\n+---------------+------------------------------+\n`);
    const oc = `sha256~${g.s(B64URL, 43)}`;
    add('printed by oc whoami -t', 'oc', oc, `${oc}\r`, true, 'oc whoami -t');
    const wp = pw();
    add('printed by wp config get', 'wp', wp, `${wp}\r`, true, 'wp config get DB_PASSWORD');
  }
  // A second batch (program output, not command lines): a header in Python's http.client debug (`\r\n` as text), a worker's
  // `--db-pass` in `ps`, PHP's print_r and var_dump.
  for (let k = 0; k < 3; k++) {
    const hdr = pw();
    add('authorization header in a bytes repr', 'python http.client debug', hdr, `send: b'GET /v1/me HTTP/1.1\\r\\nHost: api.corp.lan\\r\\nAuthorization: Bearer ${hdr}\\r\\n\\r\\n'\n`);
    const dbp = pw();
    add('credential option on a command line', 'ps aux', dbp, `bob  4121  0.3  1.2 node worker.js --db-host db.corp.lan --db-pass ${dbp} --queue jobs\n`);
    const pr = pw();
    add('php print_r', 'php', pr, `Array\n(\n    [db_host] => db.corp.lan\n    [api_secret] => ${pr}\n)\n`);
    const vd = pw();
    add('php var_dump', 'php', vd, `array(2) {\n  ["db_host"]=>\n  string(11) "db.corp.lan"\n  ["db_password"]=>\n  string(${vd.length}) "${vd}"\n}\n`);
    // The final pass of session 5 (each leaked before it): a camelCase option, PHP's protected and private properties, `mc config host add`.
    const cc = pw();
    add('credential option on a command line', 'ps aux', cc, `bob  4121  0.3  1.2 node dist/worker.js --dbHost db.corp.lan --dbPassword ${cc} --queue jobs\n`);
    const ccEq = pw();
    add('credential option on a command line', 'ps aux', ccEq, `bob  4122  0.1  0.9 node server.js --port 8080 --adminToken=${ccEq}\n`);
    const prp = pw();
    add('php print_r', 'php', prp, `App\\Models\\User Object\n(\n    [name:protected] => bob\n    [password:protected] => ${prp}\n)\n`);
    const prv = pw();
    add('php print_r', 'php', prv, `App\\Config Object\n(\n    [apiSecret:App\\Config:private] => ${prv}\n)\n`);
    const vdp = pw();
    add('php var_dump', 'php', vdp, `object(App\\Models\\User)#12 (2) {\n  ["name":protected]=>\n  string(3) "bob"\n  ["password":protected]=>\n  string(${vdp.length}) "${vdp}"\n}\n`);
    const vdv = pw();
    add('php var_dump', 'php', vdv, `object(App\\Config)#3 (1) {\n  ["apiSecret":"App\\Config":private]=>\n  string(${vdv.length}) "${vdv}"\n}\n`);
    const mc = pw();
    add('mc config host add on a command line', 'shell history', mc, `mc config host add backup https://minio.corp.lan:9000 backupuser ${mc}\n`);
  }
  // Session 6: a secret under its column's name in a database client's table (psql, mysql, sqlite3 -column, markdown): the row does not name it.
  for (let k = 0; k < 3; k++) {
    const ps = pw();
    add('secret in a table column', 'psql', ps, ` name   |         token\n--------+------------------------\n ci     | ${ps}\n(1 row)\n`);
    const psMid = pw();
    add('secret in a table column', 'psql', psMid, ` id |        api_key         | owner\n----+------------------------+-------\n  7 | ${psMid} | bob\n  8 |                        | eve\n(2 rows)\n`);
    const my = pw();
    add('secret in a table column', 'mysql', my, `+------+------------------------------+\n| user | password                     |\n+------+------------------------------+\n| app  | ${my} |\n+------+------------------------------+\n1 row in set (0.00 sec)\n`);
    const lite = pw();
    add('secret in a table column', 'sqlite3 -column', lite, `name    secret                  \n------  ------------------------\nstripe  ${lite}\n`);
    const csv = pw();
    add('secret in a csv column', 'users.csv', csv, `name,email,password\nbob,bob@corp.lan,${csv}\neve,eve@corp.lan,\n`);
    const csvQuoted = pw();
    add('secret in a csv column', 'export.csv', csvQuoted, `"id","api_key","owner"\n1,"${csvQuoted}","bob"\n`);
    const tsv = pw();
    add('secret in a csv column', 'keys.tsv', tsv, `id\ttoken\towner\n7\t${tsv}\tbob\n`);
    const semi = pw();
    add('secret in a csv column', 'export.csv (semicolons)', semi, `name;email;password\nbob;bob@corp.lan;${semi}\n`);
    const list = pw();
    add('secret in a yaml list', 'config.yml', list, `tokens:\n  - ${list}\n  - "${pw()}"\nother: 1\n`);
    const box = pw();
    add('secret in a table column', 'sqlite3 -box', box, `┌────────┬──────────────────────────┐\n│  name  │          token           │\n├────────┼──────────────────────────┤\n│ ci     │ ${box} │\n└────────┴──────────────────────────┘\n`);
    const uni = pw();
    add('secret in a table column', 'psql (unicode line style)', uni, ` name │          secret\n──────┼──────────────────────────\n ci   │ ${uni}\n(1 row)\n`);
    const md = pw();
    add('secret in a table column', 'markdown', md, `| Service | Token |\n|---|---|\n| deploy | ${md} |\n`);
  }
  // Session 6: a value named from afar — a SQL column list (INSERT, pg_dump's COPY) and a Terraform variable block's label.
  for (let k = 0; k < 3; k++) {
    const ins = pw();
    add('secret in a sql column list', 'seed.sql', ins, `INSERT INTO api_keys (id, name, secret, created_at) VALUES (1, 'ci', '${ins}', now());\n`);
    const insMulti = pw();
    add('secret in a sql column list', 'mysqldump --complete-insert', insMulti, `INSERT INTO \`users\` (\`id\`, \`email\`, \`password\`) VALUES (1,'bob@corp.lan','${insMulti}'),(2,'eve@corp.lan',NULL);\n`);
    // A column list over lines, a column a line (a seed file, an ORM's logged statement: adv8 A02).
    const insLines = pw();
    add('secret in a sql column list', 'seed.sql', insLines, `INSERT INTO users (\n  id,\n  email,\n  password\n) VALUES (\n  1,\n  'bob@corp.lan',\n  '${insLines}'\n);\n`);
    // A dump's INSERTs name no columns: the schema above them does (adv8 A03). As sqlite3 3.40 `.dump` printed it, then
    // mysqldump's default (extended INSERT, the schema's lines as mysqldump 8 writes them), then `pg_dump --inserts`.
    const lite = pw();
    add('secret in a dump under its schema', 'sqlite3 app.db .dump', lite, `PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT NOT NULL, api_token TEXT);\nINSERT INTO users VALUES(1,'bob@corp.lan','${lite}');\nINSERT INTO users VALUES(2,'eve@corp.lan',NULL);\nCOMMIT;\n`);
    const my = pw();
    add('secret in a dump under its schema', 'mysqldump app users', my, `DROP TABLE IF EXISTS \`users\`;\nCREATE TABLE \`users\` (\n  \`id\` int NOT NULL AUTO_INCREMENT,\n  \`email\` varchar(255) NOT NULL,\n  \`password\` varchar(64) DEFAULT NULL,\n  PRIMARY KEY (\`id\`)\n) ENGINE=InnoDB AUTO_INCREMENT=3 DEFAULT CHARSET=utf8mb4;\n\nLOCK TABLES \`users\` WRITE;\n/*!40000 ALTER TABLE \`users\` DISABLE KEYS */;\nINSERT INTO \`users\` VALUES (1,'bob@corp.lan','${my}'),(2,'eve@corp.lan',NULL);\n/*!40000 ALTER TABLE \`users\` ENABLE KEYS */;\nUNLOCK TABLES;\n`);
    const pgIns = pw();
    add('secret in a dump under its schema', 'pg_dump --inserts', pgIns, `CREATE TABLE public.api_keys (\n    id integer NOT NULL,\n    name text,\n    secret text\n);\n\nALTER TABLE public.api_keys OWNER TO app;\n\nINSERT INTO public.api_keys VALUES (1, 'ci', '${pgIns}');\n`);
    const copy = pw();
    add('secret in a sql column list', 'pg_dump', copy, `COPY public.api_keys (id, name, token) FROM stdin;\n1\tci\t${copy}\n2\tcd\t\\N\n\\.\n`);
    const tf = pw();
    add('terraform variable default', 'variables.tf', tf, `variable "db_password" {\n  description = "The database password"\n  type        = string\n  default     = "${tf}"\n  sensitive   = true\n}\n`);
    const tfHeredoc = pw();
    add('terraform variable default', 'variables.tf', tfHeredoc, `variable "db_password" {\n  type      = string\n  sensitive = true\n  default   = <<-EOT\n    ${tfHeredoc}\n  EOT\n}\n`);
    const tfNested = pw();
    add('terraform variable default', 'variables.tf', tfNested, `variable "admin_token" {\n  type = string\n  validation {\n    condition     = length(var.admin_token) > 8\n    error_message = "Too short."\n  }\n  default = "${tfNested}"\n}\n`);
  }
  add('yaml without a secret', 'values.yml', 'name: DB', 'secrets:\n  - name: DB\n    value: from-vault\n', false);
  add('yaml without a secret', 'config.yml', '100', 'max_tokens:\n  - 100\n', false);
  add('csv without a secret', 'users.csv', '12', 'name,token_count\nbob,12\n', false);
  add('csv without a secret', 'secrets.csv', 'NPM_TOKEN', 'job,secret\npublish,NPM_TOKEN\n', false);
  add('csv without a secret', 'notes.txt', 'y', 'Use the token, the key and the password, then run it.\nbob,x,y\n', false);
  add('sql without a secret', 'seed.sql', 'bob@corp.lan', `INSERT INTO users (id, email, password_reset_sent_at) VALUES (1, 'bob@corp.lan', now());\nINSERT INTO api_keys (name, token) VALUES ('ci', NULL), ('cd', '');\n`, false);
  add('sql without a secret', 'seed.sql', 'bob@corp.lan', `INSERT INTO users (\n  id,\n  email,\n  password_reset_sent_at\n) VALUES (\n  1,\n  'bob@corp.lan',\n  now()\n);\n`, false);
  add('sql without a secret', 'sqlite3 app.db .dump', 'bob@corp.lan', `CREATE TABLE users(id INTEGER, email TEXT, password_reset_sent_at TEXT, token_count INTEGER);\nINSERT INTO users VALUES(1,'bob@corp.lan','2026-11-30 06:00:00',12);\n`, false);
  add('sql without a secret', 'mysqldump app', 'ci-deploy', `CREATE TABLE \`jobs\` (\n  \`id\` int NOT NULL,\n  \`name\` varchar(64) NOT NULL\n);\nINSERT INTO \`jobs\` VALUES (1,'ci-deploy');\nCREATE TABLE \`keys\` (\n  \`token\` varchar(64) DEFAULT NULL\n);\n`, false);
  add('sql without a secret', 'pg_dump', 'ci', `COPY public.api_keys (id, name, token_type) FROM stdin;\n1\tci\tbearer\n\\.\n`, false);
  add('terraform without a secret', 'variables.tf', 't3.micro', `variable "db_password" {\n  type      = string\n  sensitive = true\n}\n\nvariable "instance_type" {\n  default = "t3.micro"\n}\n`, false);
  for (let k = 0; k < 3; k++) {
    // One key and value between two rules (aws --output table of one field): shaped like a header, a value with a digit or a sign is no title.
    const one = `${pw()}7`;
    add('secret in an ascii table', 'aws --output table', one, `+---------------+------------------------------+\n|  SecretString |  ${one}  |\n+---------------+------------------------------+\n`);
  }
  for (let k = 0; k < 3; k++) {
    // A box table whose last row holds the secret: a rule under it, a row above it (not a header).
    const last = pw();
    add('secret in a box table', 'railway variables', last, `╔═══════════════════╦══════════════════════════╗\n║ PORT              ║ 3000                     ║\n║ DATABASE_PASSWORD ║ ${last} ║\n╚═══════════════════╩══════════════════════════╝\n`);
  }
  // A header's cells are titles, a docs table's cells name secrets: kept.
  add('a table without a secret', 'markdown docs', 'Description', '| Secret | Description |\n|---|---|\n| `NPM_TOKEN` | The npm token |\n| `GH_PAT` | A personal access token |\n', false);
  add('a table without a secret', 'markdown docs', 'NPM_TOKEN', '| Secret | Description |\n|---|---|\n| `NPM_TOKEN` | The npm token |\n', false);
  add('a table without a secret', 'markdown docs', 'DEPLOY_KEY', '| Job | Secret | Required |\n|------|--------|----------|\n| deploy | DEPLOY_KEY | yes |\n| publish | NPM_TOKEN | no |\n', false);
  add('a table without a secret', 'token counts', 'count', '| token | count |\n|---|---|\n| the | 120 |\n| function | 88 |\n', false);
  add('a table without a secret', 'psql \\d', 'text', `               Table "public.users"\n  Column  |  Type   | Collation | Nullable | Default\n----------+---------+-----------+----------+---------\n id       | integer |           | not null |\n password | text    |           |          |\n token    | text    |           |          |\n`, false);
  add('a table without a secret', 'psql', 'NULL', ` name | token\n------+-------\n ci   |\n ci2  | NULL\n(2 rows)\n`, false);
  add('a table without a secret', 'markdown docs', 'required', `| Option | Secret | Description |\n|--------|--------|-------------|\n| --api-url | optional | Where the API is |\n| --token | required | The API token |\n`, false);
  add('a table without a secret', 'sqlite3 -column', 'bearer', `name  token_type\n----  ----------\nci    bearer\n`, false);
  add('a header without a credential', 'python http.client debug', 'api.corp.lan', "send: b'GET /v1/me HTTP/1.1\\r\\nHost: api.corp.lan\\r\\nAccept: */*\\r\\n\\r\\n'\n", false);
  add('an option without a credential', 'ps aux', 'build-7731', 'bob  4121  0.3  1.2 node worker.js --cache-key build-7731 --no-password mydatabase --starting-token eyJuZXh0IjoyfQ --ssh-key ~/.ssh/id_ed25519\n', false);
  add('an option without a credential', 'ps aux', 'mydatabase', 'bob  4121  0.3  1.2 node worker.js --no-password mydatabase --skip-password otherdb\n', false);
  add('php print_r without a secret', 'php', 'db.corp.lan', 'Array\n(\n    [db_host] => db.corp.lan\n    [token_ttl] => 3600\n)\n', false);
  add('an option without a credential', 'ps aux', 'eyJuZXh0IjoyfQ', 'bob  4121  0.3  1.2 node sync.js --nextToken eyJuZXh0IjoyfQ --pageToken CAESBggDEAEYAQ --noPassword mydatabase --sortKey createdAt\n', false);
  add('an option without a credential', 'ps aux', 'mydatabase', 'bob  4121  0.3  1.2 node sync.js --noPassword mydatabase --maxTokens 4096\n', false);
  add('php print_r without a secret', 'php', 'bob', 'App\\Models\\User Object\n(\n    [name:protected] => bob\n    [token_ttl:protected] => 3600\n)\n', false);
  add('php var_dump without a secret', 'php', 'bob', 'object(App\\Models\\User)#12 (1) {\n  ["name":protected]=>\n  string(3) "bob"\n}\n', false);
  add('php var_dump without a secret', 'php', 'db.corp.lan', 'array(1) {\n  ["db_host"]=>\n  string(11) "db.corp.lan"\n}\n', false);
  // The same tools and shapes with no secret.
  const none: [string, string, string?][] = [
    ['3AA5C34371567BD2', 'git config --global user.signingkey 3AA5C34371567BD2\n'],
    ['https://npm.corp.lan/', 'npm config set registry https://npm.corp.lan/\n'],
    ['eu-west-1', 'aws configure set region eu-west-1 --profile ci\n'],
    ['store', 'git config --global credential.helper store\n'],
    ['$TOKEN', 'curl -s --oauth2-bearer "$TOKEN" https://api.corp.lan/v1/me\n'],
    ['DEPLOY_TOKEN', 'gh secret set DEPLOY_TOKEN < token.txt\n'],
    ['8080', 'ngrok http 8080\n'],
    ['passwd', 'mosquitto_passwd -U /etc/mosquitto/passwd\n'],
    ['uid=bob,ou=people,dc=corp,dc=lan', 'ldappasswd -x -D cn=admin,dc=corp,dc=lan -W -S uid=bob,ou=people,dc=corp,dc=lan\n'],
    ['backup.zip', 'unzip -l backup.zip\n'],
    ['nopass', 'redis-cli ACL SETUSER default on nopass ~* +@all\n'],
    ['backup', 'mc alias list backup\n'],
    ['https://minio.corp.lan:9000', 'mc config host list backup\nbackup  URL  : https://minio.corp.lan:9000\n'],
    ['true', 'poetry config virtualenvs.in-project true\n'],
    ['registry.corp.lan', 'npm set registry https://registry.corp.lan/ --location=project\n'],
    ['UTC', 'java -Duser.timezone=UTC -Dspring.profiles.active=prod -jar app.jar\n'],
    ['DEPLOY_KEY', 'gh secret list | grep DEPLOY_KEY\n'],
  ];
  for (const [value, text] of none) add('command line without a secret', 'shell history', value, text, false);
  add('a table without a secret', 'railway variables', '3000', '║ PORT              ║ 3000                 ║\n', false);
  add('a table without a secret', 'doppler secrets', 'db.corp.lan', '│ DB_HOST       │ db.corp.lan              │\n', false);
  add('a table without a secret', 'markdown docs', 'string', '| name | type | description |\n|------|------|-------------|\n| token | string | The API token |\n| password_min_length | 12 | Shortest password |\n', false);
  add('a table without a secret', 'psql', 'bearer', ' token_type | bearer\n expires_in | 3600\n', false);
  add('one word from another command', 'oc', 'developer', 'developer\r', false, 'oc whoami');
  add('one word from another command', 'wp', 'localhost', 'localhost\r', false, 'wp config get DB_HOST');
  return out;
}
