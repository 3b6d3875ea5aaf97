import { describe, expect, it } from 'vitest';
import { LearnedSecrets, MAX_LEARNED } from './learned-secrets.js';

const found = (l: LearnedSecrets, text: string) => {
  const out: { start: number; end: number; kind: string }[] = [];
  l.find(text, out);
  return out.map((f) => text.slice(f.start, f.end)).sort();
};

describe('LearnedSecrets', () => {
  it('finds a value learned after its index was built (the index grows, not rebuilt)', () => {
    const l = new LearnedSecrets();
    l.learn('first-secret-1234', 'a');
    expect(found(l, 'x first-secret-1234 y')).toEqual(['first-secret-1234']);
    l.learn('second-secret-5678', 'b');
    expect(found(l, 'first-secret-1234 second-secret-5678')).toEqual(['first-secret-1234', 'second-secret-5678']);
  });

  it('forgets the oldest values past MAX_LEARNED, and finds none of them later (while they are still in the index and after it is rebuilt)', () => {
    const l = new LearnedSecrets();
    const v = (i: number) => `value-${String(i).padStart(4, '0')}-xyzzy`;
    l.learn(v(0), 'k');
    found(l, 'build the index');
    for (let i = 1; i <= MAX_LEARNED + 5; i++) l.learn(v(i), 'k');
    expect(found(l, `${v(0)} ${v(5)} ${v(6)} ${v(MAX_LEARNED + 5)}`)).toEqual([v(6), v(MAX_LEARNED + 5)]);
    for (let i = MAX_LEARNED + 6; i <= 3 * MAX_LEARNED; i++) l.learn(v(i), 'k');
    expect(found(l, `${v(MAX_LEARNED)} ${v(3 * MAX_LEARNED)} ${v(2 * MAX_LEARNED + 1)}`)).toEqual([v(2 * MAX_LEARNED + 1), v(3 * MAX_LEARNED)]);
  });

  it("does not remember a value with no letter or digit (a placeholder: it would cut other placeholders: adversary pass 97's L03)", () => {
    const l = new LearnedSecrets();
    l.learn('****************', 'password');
    l.learn('----------------', 'password');
    l.learn('*****4242*******', 'password');
    expect(found(l, '"api_key": "sk_live_****************4242", rule ----------------, *****4242*******')).toEqual(['*****4242*******']);
  });

  it("a store with no cap keeps every value; values sharing a head (a credentials file's rows) are each found, the longest where one holds another, and by their end", () => {
    const l = new LearnedSecrets(Infinity);
    const v = (i: number) => `Qm7xT2vK${i}pL4wZ8nR2`;
    for (let i = 0; i < 3 * MAX_LEARNED; i++) l.learn(v(i), 'k');
    l.learn('Qm7xT2vK1pL4wZ8nR2-and-more', 'k');
    expect(found(l, `a ${v(0)} b ${v(2 * MAX_LEARNED + 7)} c Qm7xT2vK1pL4wZ8nR2-and-more d Qm7xT2vKnot-one`)).toEqual([v(0), 'Qm7xT2vK1pL4wZ8nR2-and-more', v(2 * MAX_LEARNED + 7)].sort());
    // Found by its last 16 characters where its head was drawn over (a value 24 characters and up).
    const long = 'Qm7xT2vK-9a8b7c6d5e4f3g2h1';
    l.learn(long, 'k');
    expect(found(l, `[bar]${long.slice(6)}`)).toEqual([long.slice(6)]);
  });

  it('a shorter value learned later is found (the window shrinks), and re-learning a forgotten value finds it again', () => {
    const l = new LearnedSecrets();
    l.learn('a-long-value-0000', 'k');
    found(l, 'index');
    l.learn('pw-12345', 'k');
    expect(found(l, 'pw-12345 and a-long-value-0000')).toEqual(['a-long-value-0000', 'pw-12345']);
  });

  it('searches low bytes but reports only the text itself: a value with characters past U+00FF is found, a text whose low bytes only look like a value is not', () => {
    const l = new LearnedSecrets();
    l.learn('пароль-секрет-42', 'k');
    l.learn('plain-secret-99', 'k');
    // U+0170 (low byte 0x70 'p') and U+016C (low byte 0x6c 'l'): the same low bytes as `plain-secret-99`.
    expect(found(l, 'x пароль-секрет-42 y \u0170\u016Cain-secret-99 z')).toEqual(['пароль-секрет-42']);
    expect(found(l, '日本 plain-secret-99')).toEqual(['plain-secret-99']);
  });

  it('a long remembered value of one repeated character is found once, in linear time (hang guard)', () => {
    const l = new LearnedSecrets();
    const value = `[-${'a'.repeat(300_000)}`;
    l.learn(value, 'password');
    const started = process.cpuUsage();
    const out: { start: number; end: number; kind: string }[] = [];
    l.find(`DB_PASSWORD=${value}\n`, out);
    const cpu = process.cpuUsage(started);
    expect(out.some((f) => f.start === 12 && f.end === 12 + value.length)).toBe(true);
    // Hang guard only: it took 162 s when each position compared the whole value again; a few ms now.
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(5_000);
  });
});
