/** How hooks and rewritten commands start this mish: the node running it and the absolute launcher. */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** bin/mish.js of this installation (from dist/ or from the sources). */
export function launcherScript(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const rel of ['../bin/mish.js', '../../bin/mish.js', '../../../bin/mish.js']) {
    const p = path.resolve(here, rel);
    if (existsSync(p)) {
      try {
        return realpathSync(p);
      } catch {
        return p;
      }
    }
  }
  return path.resolve(here, '../bin/mish.js');
}

/**
 * `'<node>' '<…/bin/mish.js>'`: absolute, so an agent's shell with another PATH (or none of
 * mish's) runs the same mish, with the node that runs this one.
 */
export function mishLauncher(): string {
  return `${shellQuote(process.execPath)} ${shellQuote(launcherScript())}`;
}

/** Quotes for bash and zsh alike (as the CLI proxy's). */
export function shellQuote(a: string): string {
  return /^[\w@%+:,./-][\w@%+=:,./-]*$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}
