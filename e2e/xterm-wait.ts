/**
 * Waiting on what xterm has parsed, like xterm.js's own TerminalProxy: the buffer only holds
 * data the parser has processed, so polling it (Playwright's rAF-driven waitForFunction) waits
 * exactly as long as needed — no sleeps.
 */
import type { Page } from 'playwright-core';

/** Resolves when the visible terminal's buffer has a line containing `text`. */
export async function waitForTerminalText(page: Page, text: string, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(
    (needle: string) => {
      const term = (globalThis as unknown as { __mishTerm?: { buffer: { active: { length: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined } } } }).__mishTerm;
      if (!term) return false;
      const b = term.buffer.active;
      for (let i = 0; i < b.length; i++) if (b.getLine(i)?.translateToString(true).includes(needle)) return true;
      return false;
    },
    text,
    { timeout: timeoutMs, polling: 'raf' },
  );
}

/** All lines of the visible terminal's buffer (for failure messages). */
export async function terminalText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const term = (globalThis as unknown as { __mishTerm?: { buffer: { active: { length: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined } } } }).__mishTerm;
    if (!term) return '(no terminal)';
    const b = term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < b.length; i++) out.push(b.getLine(i)?.translateToString(true) ?? '');
    return out.join('\n').trimEnd();
  });
}
