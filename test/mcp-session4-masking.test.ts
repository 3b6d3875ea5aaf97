/**
 * Issue 21, session 4, through a real `mish serve` and the MCP SDK's Client: forms that reached the agent before — a dump of a
 * secret file read from an offset (`xxd -s`, `od -c`), base64 of it wrapped at 76 columns, an echoed answer after a
 * translated prompt (sudo's ru `[sudo] пароль для bob: `) — are masked in sh_run and in a read_raw page that starts mid-output;
 * the spool keeps the exact bytes for the operator.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runCli, startStdio, type Served } from './mcp-helpers.js';
import { itUnless, missing } from './helpers/skip.js';

const DB_PASSWORD_VALUE = ['Xq7vR2', 'mLp9sK', 'w4Zt'].join('');
const AWS_SECRET_VALUE = ['wJalrXUtnFEMI', 'K7MDENGbPxRfi', 'CYzq8hT3Lm2Nab'].join('');
/** Four characters of a value as `od -c` spaces them. */
const odPiece = (s: string) => [...s.slice(0, 4)].map((c) => c.padStart(4)).join('');

describe('session 4 forms through sh_run and read_raw', () => {
  let served: Served;
  let env: string;

  beforeAll(async () => {
    served = await startStdio();
    env = path.join(served.home, 'app.env');
    writeFileSync(env, `DB_HOST=db.internal\nDB_USER=app\nDB_PASSWORD=${DB_PASSWORD_VALUE}\nAWS_SECRET_ACCESS_KEY=${AWS_SECRET_VALUE}\n`);
  });
  afterAll(async () => {
    await served?.close();
  });

  const leaks = (r: unknown) => [DB_PASSWORD_VALUE, AWS_SECRET_VALUE, AWS_SECRET_VALUE.slice(-12), odPiece(DB_PASSWORD_VALUE), odPiece(AWS_SECRET_VALUE)].filter((v) => JSON.stringify(r).includes(JSON.stringify(v).slice(1, -1)));

  for (const [name, cmd] of [
    ['xxd -s 16', (f: string) => `xxd -s 16 ${f}`],
    ['od -c', (f: string) => `LC_ALL=C od -c ${f}`],
    ['base64 wrapped at 76', (f: string) => `base64 -w 76 ${f}`],
  ] as const) {
    itUnless(missing(name.split(' ')[0]))(`${name} of a .env: masked in sh_run and in read_raw from line 2; the spool is exact`, async () => {
      const run = await call(served.client, 'sh_run', { cmd: cmd(env) });
      expect(run.data.exit_code, run.text).toBe(0);
      expect(run.text).toContain('[masked: ');
      expect(leaks(run.result), run.text).toEqual([]);
      const raw = await call(served.client, 'sh_interact', { id: run.data.id, action: 'read_raw', from_line: 2 });
      expect(leaks(raw.result), raw.text).toEqual([]);
      const spool = runCli(['raw', run.data.spool_ref.replace(/^mish raw /, '')], served.home);
      expect(spool.stdout.replace(/\s+/g, '')).toContain(name === 'od -c' ? 'Xq7v' : name === 'xxd -s 16' ? 'R2mLp9sK' : 'REJfSE9TVD1k');
    });
  }

  it("an answer echoed after sudo's Russian prompt is masked, and remembered for the session", async () => {
    const run = await call(served.client, 'sh_run', { cmd: `printf '[sudo] пароль для bob: '; sleep 0.2; printf '%s\\n' '${DB_PASSWORD_VALUE}k9'` });
    expect(run.text).toContain('[sudo] пароль для bob: [masked: password]');
    expect(JSON.stringify(run.result)).not.toContain(`${DB_PASSWORD_VALUE}k9`);
    const later = await call(served.client, 'sh_run', { cmd: `echo "retrying with ${DB_PASSWORD_VALUE}""k9 now"` });
    expect(JSON.stringify(later.result)).not.toContain(`${DB_PASSWORD_VALUE}k9`);
  });
});
