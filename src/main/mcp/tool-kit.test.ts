import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { capReply, estimateTokens, MAX_REPLY_TOKENS, runReplyText, runStatus, type RouteCommandResult } from './tool-kit.js';
import { countTokens } from '../core/format/tokens.js';
import { CommandTimelines } from '../console/command-timeline.js';

function dense(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${i.toString(16)} ${Math.sin(i).toString(36).slice(2)} ${Math.cos(i).toString(36).slice(2)} ${(i * 7919).toString(36)}`);
  return out.join('\n');
}

const samples: Record<string, string> = {
  'random base36': dense(2000),
  'hex dump': Array.from({ length: 2000 }, (_, i) => `${(i * 16).toString(16).padStart(8, '0')}: ${Array.from({ length: 16 }, (_, j) => ((i * 31 + j * 17) % 256).toString(16).padStart(2, '0')).join(' ')}`).join('\n'),
  'typescript source': readFileSync(new URL('./tool-kit.ts', import.meta.url), 'utf8').repeat(5),
  'CJK and emoji': '测试输出内容，包含中文字符。🚀✅❌ '.repeat(2000),
  'json': JSON.stringify(Array.from({ length: 800 }, (_, i) => ({ id: i, name: `item-${i}`, ok: i % 3 === 0, tags: ['a', 'b'] }))),
};

describe('estimateTokens', () => {
  for (const [name, text] of Object.entries(samples)) {
    it(`never underestimates o200k on ${name}`, () => {
      expect(estimateTokens(text)).toBeGreaterThanOrEqual(encode(text).length);
    });
  }
});

describe('capReply', () => {
  it('leaves a small reply alone', () => {
    expect(capReply('a\nb\n', () => 'x')).toEqual({ text: 'a\nb\n', truncated: false });
  });

  it('cuts a huge reply at a line boundary under the token budget with an exact marker', () => {
    const text = dense(20_000);
    const r = capReply(text, (from) => `read from line ${from}`);
    expect(r.truncated).toBe(true);
    expect(encode(r.text).length).toBeLessThanOrEqual(MAX_REPLY_TOKENS);
    const m = /\n\[mish: reply cut at its ~20k-token cap \(a high estimate\): ([\d,]+) tokens of output kept, ([\d,]+) more line\(s\), ([\d,]+) chars omitted; read from line (\d+)\]$/.exec(r.text)!;
    expect(m).not.toBeNull();
    // The kept output's figure is o200k's exact count of it (countTokens, the console's figure), not the cap.
    expect(Number(m[1].replace(/,/g, ''))).toBe(encode(r.text.slice(0, m.index)).length);
    m.splice(1, 1);
    for (const i of [1, 2]) m[i] = m[i].replace(/,/g, '');
    const keptLines = r.text.slice(0, m.index).split('\n');
    expect(keptLines.length + Number(m[1])).toBe(20_000);
    expect(Number(m[3])).toBe(keptLines.length + 1);
    expect(text.startsWith(r.text.slice(0, m.index))).toBe(true);
    expect(text.length - m.index).toBe(Number(m[2]));
  });
});

describe('a cut reply and the console state one figure for what the agent received (session 48)', () => {
  // The hand session's defect: the console showed `53,814 → 14,713 tok` for a reply whose marker
  // said `reply cut at ~20k tokens` (the cap, in the high estimate's units). Prose is where the
  // two measures differ most: the cap's estimate counts it ~2.5× o200k.
  const prose = Array.from({ length: 6000 }, (_, i) => `line ${i + 1}: the quick brown fox jumps over the lazy dog and keeps running past the fence ${i + 1}`).join('\n');

  it('the marker states the kept output in countTokens, the function the console counts the reply with', () => {
    const r = capReply(prose, (from) => `read from line ${from}`);
    expect(r.truncated).toBe(true);
    const m = /\n\[mish: reply cut at its ~20k-token cap \(a high estimate\): ([\d,]+) tokens of output kept, /.exec(r.text);
    expect(m, r.text.slice(-300)).not.toBeNull();
    const kept = Number(m![1].replace(/,/g, ''));
    expect(kept).toBe(countTokens(r.text.slice(0, m!.index)));
    // What the console shows for the same reply (command-timeline.ts): the same function on the whole reply text.
    const timelines = new CommandTimelines(() => {});
    const c = timelines.start('s', 'c1', 'seq 6000', 0);
    timelines.update(c, { agentSaw: r.text });
    expect(c.tokensShown).toBe(countTokens(r.text));
    // The two figures agree (the reply adds only its marker), and neither is the cap's 20k.
    expect(c.tokensShown! - kept).toBeGreaterThan(0);
    expect(c.tokensShown! - kept).toBeLessThan(100);
    expect(c.tokensShown!).toBeLessThan(MAX_REPLY_TOKENS * 0.6);
    // The cap itself is held in its own (high) unit.
    expect(estimateTokens(r.text)).toBeLessThanOrEqual(MAX_REPLY_TOKENS);
  });
});

describe('runStatus: the status line of an sh_run reply', () => {
  const base: RouteCommandResult = { id: 'c7', session: 'default', text: 'ok\n', shown: { hidden: false }, exitCode: 0, category: 'passthrough', cwd: '/w', startCwd: '/w', rawLines: 1, shownLines: 1, durationMs: 40 };

  it('is the exit alone for an output shown whole where the command started', () => {
    expect(runStatus(base)).toBe('[exit 0]');
    expect(runReplyText(base, base.text, { digest: '[procs] 1 running: web(pid 9, 3s)' })).toBe('ok\n[exit 0]\n[procs] 1 running: web(pid 9, 3s)');
  });

  it('names the line count and read_raw <id> when lines were left out, the cwd when the command moved, the duration from 1 s', () => {
    const r = { ...base, shown: { hidden: true, totalLines: 3013 }, cwd: '/w/sub', durationMs: 12_400, exitCode: 1 };
    expect(runStatus(r)).toBe('[exit 1 · 12s · 3,013 lines · read_raw c7 · cwd /w/sub]');
  });

  it('a reply cut at the token cap counts as not whole; an unknown exit is `exit ?`; a signal is named', () => {
    expect(runStatus({ ...base, rawLines: 90_000 }, true)).toBe('[exit 0 · 90,000 lines · read_raw c7]');
    // A failed small output shown in order names only read_raw; cut at the token cap, it states its duration and line count again.
    const small = { ...base, exitCode: 1, durationMs: 4_400, rawLines: 3, shown: { hidden: true, totalLines: 3, inOrder: true } };
    expect(runStatus(small)).toBe('[exit 1 · read_raw c7]');
    expect(runStatus(small, true)).toBe('[exit 1 · 4s · 3 lines · read_raw c7]');
    expect(runStatus({ ...base, exitCode: null })).toBe('[exit ?]');
    expect(runStatus({ ...base, exitCode: 143, signal: 15 })).toBe('[exit 143 SIGTERM]');
  });

  it('a cut marker that names its read_raw call is not repeated by the status line', () => {
    expect(runStatus({ ...base, shown: { hidden: true, totalLines: 50_000, rawNamed: true } })).toBe('[exit 0 · 50,000 lines]');
  });
});
