/**
 * Values known to be secret (what an operator typed at a handoff's password prompt), masked in
 * everything mish shows the agent: exact, base64 (standard and URL-safe, at each of the three
 * alignments a value can have inside a longer encoded string) and URL-encoded forms.
 * In memory only: the values are never written anywhere.
 */

import { anchored, holds, type AnchoredValue } from './rare-anchor.js';

/** What a masked value becomes. */
export const SECRET_MASK = '[masked: typed secret]';
/** Shorter values are not masked: masking "a" or "12" would shred ordinary output. */
export const MIN_SECRET_CHARS = 4;

export class KnownSecrets {
  /** Every form of every value, longest first (so a longer form is replaced before a part of it). */
  private forms: AnchoredValue[] = [];
  private readonly values = new Set<string>();

  /** Adds a value (and its encoded forms). Too short or already known: ignored. */
  add(value: string): void {
    const v = value.replace(/[\r\n]+$/, '');
    if (v.length < MIN_SECRET_CHARS || this.values.has(v)) return;
    this.values.add(v);
    const set = new Set(this.forms.map((f) => f.value));
    for (const f of encodedForms(v)) if (f.length >= MIN_SECRET_CHARS) set.add(f);
    this.forms = [...set].sort((a, b) => b.length - a.length).map(anchored);
  }

  get size(): number {
    return this.values.size;
  }

  /** `text` with every known form replaced by SECRET_MASK. */
  mask(text: string): string {
    if (this.forms.length === 0 || text.length === 0) return text;
    let out = text;
    for (const f of this.forms) if (holds(out, f)) out = out.split(f.value).join(SECRET_MASK);
    return out;
  }
}

/** Percent-encodes every byte outside `keep` (the RFC 3986 unreserved set plus what an encoder leaves alone). */
function percentEncode(value: string, keep: RegExp): string {
  let out = '';
  for (const ch of value) {
    if (keep.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * URL encoders differ in what they leave alone: JavaScript's encodeURIComponent keeps
 * `!'()*`, RFC 3986 strict keeps only `-._~`, Python's quote() keeps `/` too; form encoding
 * writes a space as `+`; some write lowercase hex.
 */
function urlEncodings(value: string): string[] {
  const base = [encodeURIComponent(value), percentEncode(value, /[A-Za-z0-9\-._~]/), percentEncode(value, /[A-Za-z0-9\-._~/]/)];
  const out = new Set<string>();
  for (const b of base) {
    for (const v of [b, b.replace(/%20/g, '+')]) {
      out.add(v);
      out.add(v.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
    }
  }
  return [...out];
}

/**
 * The forms a value takes in output: itself, URL-encoded (urlEncodings),
 * and base64. A value inside a longer base64 string is encoded differently depending on its
 * offset modulo 3, so for each offset the stable middle of its encoding is a form too.
 */
export function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = new Set<string>([value, ...urlEncodings(value)]);
  for (let pad = 0; pad < 3; pad++) {
    const b64 = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    // Characters influenced only by the value: skip the ones mixed with padding bytes at both ends.
    const start = pad === 0 ? 0 : Math.ceil(((pad * 8) / 6));
    const endBits = (pad + bytes.length) * 8;
    const end = Math.floor(endBits / 6);
    const core = b64.slice(start, end);
    if (pad === 0) {
      forms.add(b64);
      forms.add(b64.replace(/=+$/, ''));
    }
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms].filter((f) => f.length > 0);
}
