/**
 * Cryptocurrency wallets' private keys in Bitcoin's base58check encodings, told from look-alikes by
 * their checksum (double SHA-256) and their payload's layout rather than by shape alone (adv192):
 * - WIF, one key (`bitcoin-cli dumpprivkey`, a `dumpwallet` file's rows): version 0x80 (mainnet)
 *   or 0xef (testnet), 32 bytes, then 0x01 when the key's public key is compressed — 51 or 52
 *   characters starting `5`, `K`, `L`, `9` or `c`;
 * - BIP32 extended private keys (`xprv…`, `tprv…`, SLIP-132's `yprv`/`zprv`/`uprv`/`vprv`, in
 *   descriptors too: `wpkh(tprv8…/84h/1h/0h/0/*)`): 78 bytes whose key is `0x00` and 32 bytes.
 * A random 52-character base58 run passes a 32-bit checksum once in four billion.
 * @scure/base does the base58check (an audited, maintained library; node's crypto the SHA-256).
 */
import { createHash } from 'node:crypto';
import { createBase58check } from '@scure/base';

const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());
const base58check = createBase58check(sha256);

/** base58check's payload, or undefined when the checksum (or an alphabet's character) is wrong. */
function payload(text: string): Uint8Array | undefined {
  try {
    return base58check.decode(text);
  } catch {
    return undefined;
  }
}

/** WIF's version bytes: mainnet, testnet. */
const WIF_VERSIONS = new Set([0x80, 0xef]);
/** A WIF payload's lengths: version and key; and the compressed flag after it. */
const WIF_BYTES = 33;
const WIF_COMPRESSED_BYTES = 34;

/**
 * Is `text` a private key in Wallet Import Format (a valid checksum, a key's length)? Bitcoin's versions, or another coin's
 * (Litecoin's 0xb0, Dogecoin's 0x9e, Dash's 0xcc: adv194 F2, F3) when the key's compressed flag follows it.
 */
export function isWif(text: string): boolean {
  const p = payload(text);
  if (p === undefined) return false;
  return (WIF_VERSIONS.has(p[0]) && p.length === WIF_BYTES) || (p.length === WIF_COMPRESSED_BYTES && p[33] === 0x01);
}

/** An extended key's bytes (BIP32: version 4, depth 1, parent fingerprint 4, child number 4, chain code 32, key 33). */
const EXTENDED_KEY_BYTES = 78;
/** Where an extended key's key starts: a private one's is 0x00 then the 32 bytes (a public one's 0x02 or 0x03). */
const EXTENDED_KEY_AT = 45;

/** Is `text` a BIP32 extended private key (a valid checksum, 78 bytes, a private key's leading zero)? */
export function isExtendedPrivateKey(text: string): boolean {
  const p = payload(text);
  return p !== undefined && p.length === EXTENDED_KEY_BYTES && p[EXTENDED_KEY_AT] === 0x00;
}
