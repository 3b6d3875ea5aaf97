/**
 * Screenshots of the e2e, and a check that what they show was drawn (issue 22).
 *
 * The tests write their PNGs to a build directory (test-results/screenshots, gitignored; or
 * $MISH_SCREENSHOTS_DIR), never into the repository: `npm test` leaves the tree clean. The
 * documentation's images are refreshed from there only on purpose, by `npm run screenshots`
 * (scripts/screenshots.mjs).
 *
 * Before a screenshot is kept, the page's key regions must be there and drawn: each region is
 * visible with a real size, and in the screenshot its pixels are not one flat colour (a blank
 * page, a region whose styles failed to load, white-on-white text). Tolerant by design: it
 * checks that something is drawn, not that every pixel is as before, so a restyled page passes
 * and a broken one fails.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the e2e write their screenshots. */
export const SHOTS_DIR = process.env.MISH_SCREENSHOTS_DIR || path.join(ROOT, 'test-results', 'screenshots');

/**
 * A region counts as drawn when at least this many of its (device) pixels differ from its most
 * common colour: more than a text cursor (9×17 px) on an empty background, fewer than a dozen
 * characters of text. A terminal showing one prompt line has ~2,000 in these screenshots; a
 * blank region has none.
 */
export const MIN_DRAWN_PIXELS = 300;
/** Smaller than this (CSS px) a region is not shown, whatever its pixels. */
const MIN_REGION_PX = 8;
/** Colour channels are compared after dropping this many low bits: anti-aliasing noise on a flat background is not drawing. */
const COLOUR_QUANTUM_BITS = 3;

/** The console's frame, in every screenshot of the page: the top bar and the sessions list. */
export const CONSOLE_FRAME = ['header.topbar', 'nav.sidebar'];

export interface RegionReport {
  selector: string;
  box: { x: number; y: number; width: number; height: number };
  /** Pixels differing from the region's most common colour. */
  drawnPixels: number;
}

/** How many pixels inside `box` (device px) differ from its most common (quantised) colour. */
export function drawnPixels(png: PNG, box: { x: number; y: number; width: number; height: number }): number {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(png.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(png.height, Math.ceil(box.y + box.height));
  const counts = new Map<number, number>();
  let total = 0;
  const q = COLOUR_QUANTUM_BITS;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * png.width + x) * 4;
      const key = ((png.data[i] >> q) << 16) | ((png.data[i + 1] >> q) << 8) | (png.data[i + 2] >> q);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      total++;
    }
  }
  let top = 0;
  for (const n of counts.values()) top = Math.max(top, n);
  return total - top;
}

/**
 * Saves a screenshot of `page` as `name` in SHOTS_DIR after checking that each of `regions`
 * (CSS selectors; the first match of each) is visible, has a size, and is drawn in the image.
 * Throws naming the region otherwise. Returns what it measured.
 */
export async function screenshot(page: Page, name: string, regions: readonly string[], options: { waitMs?: number } = {}): Promise<RegionReport[]> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const boxes: RegionReport['box'][] = [];
  for (const selector of regions) {
    const loc = page.locator(selector).first();
    await loc.waitFor({ state: 'visible', ...(options.waitMs !== undefined ? { timeout: options.waitMs } : {}) }).catch((e: Error) => {
      throw new Error(`screenshot ${name}: region ${selector} is not shown (${e.message.split('\n')[0]})`);
    });
    const box = await loc.boundingBox();
    if (!box || box.width < MIN_REGION_PX || box.height < MIN_REGION_PX) {
      throw new Error(`screenshot ${name}: region ${selector} is not shown (box ${JSON.stringify(box)})`);
    }
    boxes.push(box);
  }
  const buf = await page.screenshot({ path: path.join(SHOTS_DIR, name) });
  const png = PNG.sync.read(buf);
  const scale = (await page.evaluate('window.devicePixelRatio')) as number;
  const report = regions.map((selector, i) => {
    const b = boxes[i];
    const box = { x: b.x * scale, y: b.y * scale, width: b.width * scale, height: b.height * scale };
    return { selector, box: b, drawnPixels: drawnPixels(png, box) };
  });
  const blank = report.filter((r) => r.drawnPixels < MIN_DRAWN_PIXELS);
  if (blank.length) {
    throw new Error(`screenshot ${name}: nothing drawn in ${blank.map((r) => `${r.selector} (${r.drawnPixels} pixels differ from its background; ${MIN_DRAWN_PIXELS} needed)`).join(', ')}`);
  }
  return report;
}
