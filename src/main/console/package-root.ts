import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: the nearest directory above this module with mish's package.json. */
export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pj = path.join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if (JSON.parse(readFileSync(pj, 'utf8')).name === 'mish') return dir;
      } catch {
        // unreadable package.json: keep walking up
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
