/**
 * A WireGuard (X25519) private key printed beside its own public key with no name (`print(name, pubkey, privkey)` of a script over
 * an OPNsense config, a table of peers: pass 224 F17). Two 32-byte keys in base64 look alike; the private one is the key whose
 * public key, derived here, stands on the same line. Exact: no public key or digest is ever taken for a private key.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';

/** PKCS#8's DER header of an X25519 private key: the 32 raw bytes follow it. */
const X25519_PKCS8_HEADER = Buffer.from('302e020100300506032b656e04220420', 'hex');
/** Another 32-byte key in base64 on the line or the next (43 characters and its padding). */
const KEY_IN_BASE64 = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{43}=/g;
/** Characters read either side of the key for its public key (a line of a table: a name, two keys, an endpoint). */
const LINE_WINDOW = 512;
/**
 * Keys derived per scanned text: each derivation costs ~0.3 ms (a megabyte of keys on one line took 15 s), and a table of peers
 * holds a few dozen (each line's public key is tried too: two derivations a peer).
 */
export const MAX_DERIVATIONS = 64;
/** A scan's own count of derivations left (the scanner makes one per text it scans, so an equal text scanned again gets its own). */
export interface DerivationBudget {
  left: number;
}

/** Is the 32 bytes `raw`, written at text[start, end), a private key whose public key is on its line? Spends from `budget`. */
export function isWireguardPrivateBeside(text: string, raw: Buffer, start: number, end: number, budget: DerivationBudget): boolean {
  if (raw.length !== 32 || budget.left <= 0) return false;
  // Its line and the next (`k=$(wg genkey); echo "$k"; echo "$k" | wg pubkey`: the public key below it, adv236 F23).
  const lineStart = Math.max(text.lastIndexOf('\n', start) + 1, start - LINE_WINDOW);
  const nl = text.indexOf('\n', end);
  const nl2 = nl < 0 ? -1 : text.indexOf('\n', nl + 1);
  const lineEnd = Math.min(nl < 0 ? text.length : nl2 < 0 ? text.length : nl2, end + LINE_WINDOW);
  const others = [...text.slice(lineStart, lineEnd).matchAll(KEY_IN_BASE64)].filter((m) => lineStart + m.index !== start);
  if (others.length === 0) return false;
  budget.left--;
  let publicKey: string;
  try {
    const key = createPrivateKey({ key: Buffer.concat([X25519_PKCS8_HEADER, raw]), format: 'der', type: 'pkcs8' });
    publicKey = createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
  } catch {
    return false;
  }
  return others.some((m) => m[0] === publicKey);
}
