/**
 * One-shot approval tokens: how an escalation an operator approved in the hook runs through
 * mish. The `mish <cmd>` run checks the policy again and, with no terminal to ask on, would
 * refuse the line; the hook therefore issues a token for exactly that line, puts it in the
 * rewritten command (MISH_APPROVAL_TOKEN), and the run redeems it once.
 *
 * - Bound to the line: the record holds the SHA-256 of the exact command line; another line
 *   presenting the token is refused (and the token stays for its own line).
 * - Single use: redeeming renames the record away (rename is atomic: of two runs racing for it,
 *   one wins) and deletes it; a replay finds nothing.
 * - Short-lived: TOKEN_TTL_MS after the approval it is void (the agent runs the approved command
 *   at once; a token that lies around has no business being used).
 * - Where the agent cannot forge one: records live in mish's state folder
 *   ($XDG_STATE_HOME/mish/approvals, else ~/.local/state/mish/approvals), which the policy's
 *   `mish-own-files` rule forbids the agent to write. A record is named by the SHA-256 of the
 *   token, so reading the folder gives no usable token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The environment variable a rewritten command carries the token in. */
export const APPROVAL_TOKEN_ENV = 'MISH_APPROVAL_TOKEN';
/** How long an approval token stays redeemable: the rewritten command starts within a second of the answer. */
export const TOKEN_TTL_MS = 60_000;
/** Random bytes in a token (256 bits: not guessable). */
const TOKEN_BYTES = 32;

interface TokenRecord {
  /** SHA-256 (hex) of the approved command line. */
  line: string;
  expires: number;
  /** Who approved it and the approval's id, for the run's audit record. */
  by: string;
  id: string;
}

export type Redeemed = { ok: true; by: string; id: string } | { ok: false; reason: string };

/** mish's state folder's approvals subfolder for this environment. */
export function approvalsDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(env.HOME || os.homedir(), '.local', 'state');
  return path.join(base, 'mish', 'approvals');
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Issues a token for exactly `line`, approved by `by` (approval `id`). */
export function issueApprovalToken(line: string, approval: { by: string; id: string }, options: { env?: NodeJS.ProcessEnv; now?: number } = {}): string {
  const dir = approvalsDir(options.env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const now = options.now ?? Date.now();
  sweep(dir, now);
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const record: TokenRecord = { line: sha256(line), expires: now + TOKEN_TTL_MS, by: approval.by, id: approval.id };
  writeFileSync(path.join(dir, `${sha256(token)}.json`), JSON.stringify(record), { mode: 0o600, flag: 'wx' });
  return token;
}

/** Redeems `token` for `line`: ok once, for that line, before it expires; refused otherwise, with why. */
export function redeemApprovalToken(token: string, line: string, options: { env?: NodeJS.ProcessEnv; now?: number } = {}): Redeemed {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { ok: false, reason: 'not an approval token' };
  const dir = approvalsDir(options.env);
  const file = path.join(dir, `${sha256(token)}.json`);
  let record: TokenRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as TokenRecord;
  } catch {
    return { ok: false, reason: 'unknown or already used approval token' };
  }
  const now = options.now ?? Date.now();
  if (record.line !== sha256(line)) return { ok: false, reason: 'the approval token was issued for another command line' };
  // Claim it: of two runs racing for one token, only the rename's winner goes on.
  const claimed = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.used`;
  try {
    renameSync(file, claimed);
  } catch {
    return { ok: false, reason: 'unknown or already used approval token' };
  }
  rmSync(claimed, { force: true });
  if (now > record.expires) return { ok: false, reason: 'the approval token expired' };
  return { ok: true, by: record.by, id: record.id };
}

/** Removes expired records and left-over claims (bounded: the folder holds a few at most). */
function sweep(dir: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const p = path.join(dir, n);
    try {
      if (n.endsWith('.used') || statSync(p).mtimeMs + TOKEN_TTL_MS < now) rmSync(p, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}
