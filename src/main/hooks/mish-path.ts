/** How hooks and rewritten commands start this mish: the node running it and the absolute launcher. */
import { spawnSync } from 'node:child_process';
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
 * What an agent's hook runs (`… hook <agent>`): `'<bash>' '<…/bin/mish-hook.sh>' '<node>'`, the
 * bash front that asks this user's hook daemon and runs the node hook for anything else, when a
 * bash 4 or newer is found on PATH; else (macOS's /bin/bash 3.2, no bash) `'<node>'
 * '<…/bin/mish-hook.cjs>'`, the node hook alone (the same decisions, a Node start each time).
 */
export function hookLauncher(env: NodeJS.ProcessEnv = process.env): string {
  const node = `${shellQuote(process.execPath)} ${shellQuote(launcherScript('mish-hook.cjs'))}`;
  const front = launcherScript('mish-hook.sh');
  const bash = bashForFront(env);
  return bash && existsSync(front) ? `${shellQuote(bash)} ${shellQuote(front)} ${shellQuote(process.execPath)}` : node;
}

/** The first bash on PATH that is version 4 or newer (the front's `read -t` takes fractions of a second from 4.0), as an absolute path. */
export function bashForFront(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const d of (env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    if (!path.isAbsolute(d)) continue;
    const b = path.join(d, 'bash');
    if (!existsSync(b)) continue;
    const r = spawnSync(b, ['-c', 'echo "${BASH_VERSINFO[0]}"'], { encoding: 'utf8', timeout: 5_000, env: { PATH: env.PATH ?? '' } });
    if (r.status === 0 && Number(r.stdout.trim()) >= 4) return b;
  }
  return undefined;
}

/** Quotes for bash and zsh alike (as the CLI proxy's). */
export function shellQuote(a: string): string {
  return /^[\w@%+:,./-][\w@%+=:,./-]*$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}
