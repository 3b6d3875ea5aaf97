/** How hooks and rewritten commands start this mish: the node running it and the absolute launcher. */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** bin/mish.js of this installation (from dist/ or from the sources); `name`: another launcher in bin/. */
export function launcherScript(name = 'mish.js'): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const rel of [`../bin/${name}`, `../../bin/${name}`, `../../../bin/${name}`]) {
    const p = path.resolve(here, rel);
    if (existsSync(p)) {
      try {
        return realpathSync(p);
      } catch {
        return p;
      }
    }
  }
  return path.resolve(here, `../bin/${name}`);
}

/**
 * `'<node>' '<…/bin/mish.js>'`: absolute, so an agent's shell with another PATH (or none of
 * mish's) runs the same mish, with the node that runs this one.
 */
export function mishLauncher(): string {
  return `${shellQuote(process.execPath)} ${shellQuote(launcherScript())}`;
}

/**
 * `'<node>' '<…/bin/mish-hook.cjs>'`: what an agent's hook runs (`… hook <agent>`), the same
 * bundle as `mish hook` started without Node's ES module loader (it runs before every command).
 */
export function hookLauncher(): string {
  return `${shellQuote(process.execPath)} ${shellQuote(launcherScript('mish-hook.cjs'))}`;
}

/** Quotes for bash and zsh alike (as the CLI proxy's). */
export function shellQuote(a: string): string {
  return /^[\w@%+:,./-][\w@%+=:,./-]*$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}
