/**
 * The screenshots' visual check (e2e/screenshots.ts) fails on a blank or broken page and passes
 * on a drawn one, in Debian's Chromium: a region that is missing, empty, or drawn in its own
 * background colour (styles lost) is named in the error; a region with a line of text passes.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_DRAWN_PIXELS, screenshot } from './screenshots.js';

const CHROMIUM = '/usr/bin/chromium';
/** A region absent from the page is reported after this long (the check's own waits are for real pages). */
const ABSENT_WAIT_MS = 1_000;

describe('screenshot visual check', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install chromium`).toBe(true);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const frame = (inner: string) =>
    page.setContent(`<html><body style="margin:0;background:#1e1e1e;color:#ddd;font:14px monospace">
      <header class="topbar" style="height:40px">${inner.includes('topbar-text') ? 'mish · 2 agents' : ''}</header>
      <nav class="sidebar" style="width:200px;height:400px">${inner}</nav></body></html>`);

  it('passes a page whose regions show text', async () => {
    await frame('<div>topbar-text build · running</div><div>e2e · idle</div>');
    const report = await screenshot(page, 'check-drawn.png', ['header.topbar', 'nav.sidebar']);
    for (const r of report) expect(r.drawnPixels, r.selector).toBeGreaterThanOrEqual(MIN_DRAWN_PIXELS);
  });

  it('fails a blank page, naming the empty regions', async () => {
    await frame('');
    await expect(screenshot(page, 'check-blank.png', ['header.topbar', 'nav.sidebar'])).rejects.toThrow(/nothing drawn in header\.topbar \(0 pixels.*nav\.sidebar \(0 pixels/);
  });

  it('fails text drawn in its own background colour (styles lost)', async () => {
    await frame('<div style="color:#1e1e1e">topbar-text build · running</div>');
    await expect(screenshot(page, 'check-invisible.png', ['nav.sidebar'])).rejects.toThrow(/nothing drawn in nav\.sidebar/);
  });

  it('fails when a region is missing or has no size', async () => {
    await frame('<div>topbar-text</div>');
    await expect(screenshot(page, 'check-missing.png', ['.session-view'], { waitMs: ABSENT_WAIT_MS })).rejects.toThrow(/region \.session-view is not shown/);
    await page.setContent('<div class="flat" style="width:300px;height:2px;background:#f00"></div>');
    await expect(screenshot(page, 'check-flat.png', ['.flat'])).rejects.toThrow(/region \.flat is not shown/);
  });
});
