/**
 * The CLI's audit records load the scanner only when a record could hold a secret: mish's own category word `passthrough`
 * holds `pass`, and every passthrough command paid ~65 ms of CPU for it.
 */
import { describe, expect, it } from 'vitest';
import { lazyRedactor } from './cli-audit.js';

describe('lazyRedactor', () => {
  it('returns a record as it is when only its category says pass (no scanner loaded)', async () => {
    const record = { kind: 'command', command: 'true', cwd: '/tmp', decision: 'ran', category: 'passthrough', exitCode: 0 };
    expect(await lazyRedactor().redactDeep(record)).toBe(record);
  });

  it('still masks a record whose command holds a secret, whatever its category', async () => {
    const record = { kind: 'command', command: 'mysql -uroot -pS3cr3tPassw0rd db', cwd: '/tmp', decision: 'ran', category: 'passthrough', exitCode: 0 };
    const out = await lazyRedactor().redactDeep(record);
    expect(out.command).not.toContain('S3cr3tPassw0rd');
    expect(out.category).toBe('passthrough');
  });

  it("masks a hooked run's bare recovery phrase, whose words name no secret (a run's output goes through here: agent-output.ts)", async () => {
    // A phrase holding none of the cheap check's words (`key`, `pass`, `sig`, …), as 8 of 10 generated ones: it skipped the scanner.
    const phrase = 'lounge over undo peasant fine doctor rigid mobile fiber arrow hill chronic';
    for (const text of [`${phrase}\n12 words.txt\n`, `${phrase.split(' ').join('\n')}\n`]) {
      const out = await lazyRedactor().redactDeep(text);
      expect(out).toContain('[masked: seed phrase]');
      expect(out).not.toContain('peasant');
    }
  });

  it("masks a hooked run's recovery codes below their label, jasypt's short result and Nagios' macros, whose values hold no word or long run the cheap check looked for (adv194 F40-F42)", async () => {
    const out = await lazyRedactor().redactDeep('Recovery codes:\n\n63a2e-fa11d\nb2f31-17183\n\nBackup codes\n* gcsm-8uhd\n');
    for (const v of ['63a2e-fa11d', 'b2f31-17183', 'gcsm-8uhd']) expect(out).not.toContain(v);
    expect(await lazyRedactor().redactDeep('----OUTPUT----------------------\n\nSwaO9!7\n')).not.toContain('SwaO9!7');
    expect(await lazyRedactor().redactDeep('13:$USER4$=3Slo2lVkFrAub\n')).not.toContain('3Slo2lVkFrAub');
  });

  it("masks a hooked run's hex dump of a one-word password file, the dump's offset first in the output (adv190 F22)", async () => {
    const out = await lazyRedactor().redactDeep('00000000: 456d 6265 7234 3833 2168 6472 0a         Ember483!hdr.\n');
    expect(out).not.toContain('Ember483!hdr');
    expect(out).toContain('[masked: password file]');
  });
});
