/**
 * A long line's cut and the spans it must not split (KeepWhole: the host's secrets). adv142 found a GitHub token cut at the
 * head of a reply's long line showing 39 of its 40 characters, each piece too short for any rule.
 */
import { describe, expect, it } from 'vitest';
import { scanSecrets } from '../redact/scanner.js';
import { MAX_SHOWN_LINE_CHARS, SHOWN_HEAD_CHARS, SHOWN_TAIL_CHARS, shownLine } from './line-cut.js';

const TOKEN = 'ghp_XpEwEvcpNE3EoTfwIgTe8RS0OfRnx1bQ2cD4';
const keep = (line: string) => scanSecrets(line);

/** Every piece of `secret` 8 characters and up that `shown` holds. */
function piecesShown(shown: string, secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) if (shown.includes(secret.slice(i, i + 8))) out.push(secret.slice(i, i + 8));
  return out;
}

describe('shownLine', () => {
  it('shows a short line whole and cuts a long one to head, mark and tail', () => {
    expect(shownLine('a'.repeat(100))).toBe('a'.repeat(100));
    const cut = shownLine(`${'h'.repeat(1000)}${'t'.repeat(1000)}`);
    expect(cut).toBe(`${'h'.repeat(SHOWN_HEAD_CHARS)}… [+${(2000 - MAX_SHOWN_LINE_CHARS).toLocaleString('en-US')} chars] …${'t'.repeat(SHOWN_TAIL_CHARS)}`);
  });

  it('never splits a secret: one across the head cut or the tail cut is left out whole, one inside a side is kept whole', () => {
    for (const at of [SHOWN_HEAD_CHARS - 39, SHOWN_HEAD_CHARS - 20, SHOWN_HEAD_CHARS - 8, SHOWN_HEAD_CHARS - 40]) {
      const line = `${'a '.repeat(at / 2)}${at % 2 ? ' ' : ''}${TOKEN} ${'b '.repeat(500)}end`;
      expect(line.indexOf(TOKEN)).toBe(at);
      const shown = shownLine(line, keep);
      // Without the spans the head shows the token's first characters.
      expect(piecesShown(shownLine(line), TOKEN).length, `at ${at}: the bare cut`).toBeGreaterThan(0);
      expect(piecesShown(shown, TOKEN), `at ${at}`).toEqual([]);
      expect(shown).toMatch(/… \[\+[\d,]+ chars\] …/);
    }
    const tailAt = 1200 - SHOWN_TAIL_CHARS - 10;
    const line = `${'c'.repeat(tailAt)} ${TOKEN} ${'d '.repeat((1200 - tailAt - TOKEN.length) / 2)}`;
    expect(piecesShown(shownLine(line), TOKEN).length).toBeGreaterThan(0);
    expect(piecesShown(shownLine(line, keep), TOKEN)).toEqual([]);
    // A token well inside the head stays there whole (masked later, as any token).
    const inside = `key ${TOKEN} ${'e'.repeat(1000)}`;
    expect(shownLine(inside, keep).startsWith(`key ${TOKEN} `)).toBe(true);
  });
});

describe('a long line cut around a secret with its name (session 31: adv162 F18)', () => {
  it("keeps an option's name with its value, so the masker still reads the value as the option's (or leaves both out)", async () => {
    const { secretSpansWithNames } = await import('../redact/kept-spans.js');
    const { Redactor } = await import('../redact/redactor.js');
    const key = '859d3d3acfd5a2ac9868f8f48b7aadb211e90bea233dca0aac28b89ce04b58b3';
    const line = `+ packager ${'in=ch1_1080p.mp4,stream=video,output=out/video_1080p.mp4 '.repeat(4)}--content_id 819266ff862224f6 --signer widevine_test --aes_signing_key ${key} --aes_signing_iv 78260be690ecb787ab458aa9a1054742 --mpd_output out/manifest.mpd`;
    // The tail's start falls in the option's name: the bare value's span kept the value and cut its name off, and the value
    // was no longer found; with its name the span is left out whole.
    expect(line.length - SHOWN_TAIL_CHARS).toBeLessThan(line.indexOf(key));
    expect(new Redactor().mask(shownLine(line, (l) => scanSecrets(l)))).toContain(key);
    expect(new Redactor().mask(shownLine(line, secretSpansWithNames))).not.toContain(key);
  });
});
