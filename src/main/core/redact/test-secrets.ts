/**
 * Real-format secrets generated at test time (never checked in): each has the prefix, length
 * and alphabet of the real thing, random content. For redaction tests.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';

const UPPER32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const DIGITS = '0123456789';

function rnd(alphabet: string, n: number): string {
  return Array.from(randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');
}

const b64u = (s: string) => Buffer.from(s).toString('base64url');

export interface SecretSample {
  /** What it is, for test names. */
  kind: string;
  /** The line as a program would print it. */
  line: string;
  /** The part that must not reach the agent. */
  secret: string;
}

/** One of each kind; call again for fresh values. */
export function secretSamples(): SecretSample[] {
  const s = (kind: string, secret: string, line = secret): SecretSample => ({ kind, line, secret });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey;
  const rsa1 = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey;
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1', privateKeyEncoding: { type: 'sec1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey;
  const awsSecret = rnd(`${ALNUM}/+`, 40);
  const urlPw = rnd(ALNUM, 18);
  const pgPw = rnd(ALNUM, 20);
  const myPw = rnd(ALNUM, 14);
  const mongoPw = rnd(ALNUM, 16);
  const redisPw = rnd(ALNUM, 16);
  const pw = rnd(ALNUM, 14);
  const jwtSig = rnd(`${ALNUM}-_`, 43);
  const jwt = `${b64u('{"alg":"HS256","typ":"JWT"}')}.${b64u(`{"sub":"${rnd(DIGITS, 8)}","name":"dev","iat":1700000000}`)}.${jwtSig}`;
  const gcpKey = `AIza${rnd(`${ALNUM}-_`, 35)}`;
  return [
    s('aws access key id', `AKIA${rnd(UPPER32, 16)}`),
    s('aws secret access key', awsSecret, `aws_secret_access_key = ${awsSecret}`),
    s('gcp api key', gcpKey, `export GOOGLE_MAPS_KEY_VALUE ${gcpKey}`),
    s('github classic token', `ghp_${rnd(ALNUM, 36)}`),
    s('github fine-grained token', `github_pat_${rnd(ALNUM, 22)}_${rnd(ALNUM, 59)}`),
    s('npm token', `npm_${rnd(ALNUM, 36)}`),
    s('slack bot token', `xoxb-${rnd(DIGITS, 12)}-${rnd(DIGITS, 13)}-${rnd(ALNUM, 24)}`),
    s('openai key', `sk-proj-${rnd(ALNUM, 58)}T3BlbkFJ${rnd(ALNUM, 58)}`),
    s('anthropic key', `sk-ant-api03-${rnd(`${ALNUM}-_`, 93)}AA`),
    s('jwt', jwt, `Authorization: Bearer ${jwt}`),
    s('rsa private key (pkcs8)', rsa),
    s('rsa private key (pkcs1)', rsa1),
    s('ec private key', ec),
    s('url with password', urlPw, `cloning https://deploy:${urlPw}@git.example.com/repo.git`),
    s('postgres url', pgPw, `DATABASE_URL=postgres://app:${pgPw}@db.internal:5432/prod`),
    s('mysql url', myPw, `mysql://root:${myPw}@localhost:3306/shop`),
    s('mongodb url', mongoPw, `mongodb+srv://svc:${mongoPw}@cluster0.abcd.mongodb.net/app`),
    s('redis url', redisPw, `redis://:${redisPw}@cache.internal:6379/0`),
    s('password assignment', pw, `password=${pw}`),
  ];
}
