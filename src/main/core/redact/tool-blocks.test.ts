/**
 * Blocks real tools print (tool-blocks.ts, issue 21 session 4): a Kubernetes Secret as JSON from the real kubectl
 * (`--dry-run=client`, no cluster), `openssl pkey -text` of a real key, with the look-alikes those tools print beside them
 * (a ConfigMap's data, a certificate's public modulus).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { itUnless, missing } from '../../../../test/helpers/skip.js';
import { Redactor } from './redactor.js';

const dir = mkdtempSync(join(tmpdir(), 'mish-tool-blocks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** kubectl with a HOME of its own and no cluster: --dry-run=client needs none. */
const kubectl = (args: string[]) => execFileSync('kubectl', args, { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: join(dir, 'none') } });

describe('blocks real tools print', () => {
  itUnless(missing('kubectl'))('kubectl create secret -o json: every data value is masked; a ConfigMap printed the same way is kept', () => {
    const secret = kubectl(['create', 'secret', 'generic', 'app', '--from-literal=db-conn=host=db user=app pw=Hk3mP9qR2sT7vW', '--from-literal=apitoken=Zq8xK2mN4pR7tV9wY3bD', '--dry-run=client', '-o', 'json']);
    const out = new Redactor().mask(secret);
    for (const v of ['Hk3mP9qR2sT7vW', 'Zq8xK2mN4pR7tV9wY3bD']) expect(out).not.toContain(Buffer.from(v).toString('base64').slice(0, 12));
    expect(out.match(/\[masked: [^\]]+\]/g)).toHaveLength(2);
    const configMap = kubectl(['create', 'configmap', 'app', '--from-literal=region=eu-west-1', '--from-literal=mode=test', '--dry-run=client', '-o', 'json']);
    expect(new Redactor().mask(configMap)).toBe(configMap);
  });

  itUnless(missing('openssl'))("openssl pkey -text: the private numbers' rows are masked, the public modulus is kept", () => {
    const key = join(dir, 'k.pem');
    execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024', '-out', key], { stdio: 'ignore' });
    const text = execFileSync('openssl', ['pkey', '-in', key, '-text', '-noout'], { encoding: 'utf8' });
    const out = new Redactor().mask(text);
    const block = (label: string) => text.split(`${label}:\n`)[1].split(/\n(?=\S)/)[0].split('\n').map((l) => l.trim()).filter(Boolean);
    for (const label of ['privateExponent', 'prime1', 'prime2', 'exponent1', 'exponent2', 'coefficient']) for (const row of block(label)) expect(out, label).not.toContain(row);
    for (const row of block('modulus')) expect(out).toContain(row);
  });
});
