import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { capReply, estimateTokens, MAX_REPLY_TOKENS } from './tool-kit.js';

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
    const m = /\n\[mish: reply cut at ~20k tokens: (\d+) more line\(s\), (\d+) chars omitted; read from line (\d+)\]$/.exec(r.text)!;
    expect(m).not.toBeNull();
    const keptLines = r.text.slice(0, m.index).split('\n');
    expect(keptLines.length + Number(m[1])).toBe(20_000);
    expect(Number(m[3])).toBe(keptLines.length + 1);
    expect(text.startsWith(r.text.slice(0, m.index))).toBe(true);
    expect(text.length - m.index).toBe(Number(m[2]));
  });
});
