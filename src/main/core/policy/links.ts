/**
 * Links the line makes (`ln -s ~/.claude/settings.json x`, `ln ~ h`, `cp -s`, `cp -rs`, `link`)
 * and the later commands that write through them (`echo '{}' > x`, `rm -rf h/`): a write to the
 * link is a write to what it points at, so each such command is also judged with the link's
 * path replaced by its target (a twin command, via `link`). Making the link is judged as before
 * (a link to a guarded file asks); the twin makes the write through it as strict as writing the
 * target directly (forbid where that is forbid).
 *
 * Links are files, not shell state: one made in a subshell or a branch that may not run counts
 * for the rest of the line (the worst case). A destination that may be an existing folder
 * (`ln -s ~ h` where h is a folder makes h/<name>) is recorded both ways.
 */
import path from 'node:path';
import { normalizePath } from './paths.js';
import type { ResolvedCommand } from './resolved.js';

/** Links followed per line before the rest are ignored (a line making thousands costs no more). */
const MAX_LINKS = 64;

/** Options of ln / cp that take a value (their value is not a source or a destination). */
const VALUE_OPTIONS = /^(?:-[tSoO]|--target-directory|--suffix|--options|--types)$/;

export class Links {
  /** Link path (normalised) → what it points at (normalised). */
  private readonly map = new Map<string, string>();

  /** A program copied or linked on the line (`cp /bin/bash b`): the path run → the program it is ('' when not known). */
  private readonly programs = new Map<string, string>();

  /** What a path run as a command is, when the line copied or linked a program there (`./b` after `cp /bin/bash b`). */
  program(file: string, base: string | undefined): string | undefined {
    return this.programs.size ? this.programs.get(normalizePath(file, base)) : undefined;
  }

  /**
   * A command word looked up in a PATH the line set (`ln -s /bin/rm b/ls; PATH=b:$PATH ls`): the
   * program the line copied or linked under that name, '' when one it wrote (`written`, by path)
   * or several are; undefined when the line made no file of that name.
   */
  named(name: string, written: ReadonlyMap<string, string>): string | undefined {
    const hit = (k: string) => k === name || k.endsWith(`/${name}`);
    const progs = new Set([...this.programs].filter(([k]) => hit(k)).map(([, v]) => v));
    if ([...written.keys()].some(hit)) progs.add('');
    return progs.size === 0 ? undefined : progs.size === 1 ? [...progs][0] : '';
  }

  /** Records the links `c` makes. `base`: the directory relative paths are read against (undefined: unknown, nothing recorded). */
  record(c: ResolvedCommand, base: string | undefined): void {
    const a = c.argv;
    if (/^(?:cp|install|ln|link)$/.test(c.name) && c.cwd !== null && this.programs.size < MAX_LINKS) {
      const k = a.map((_x, i) => i).filter((i) => i > 0 && !a[i].startsWith('-'));
      if (k.length === 2) this.programs.set(normalizePath(a[k[1]], c.cwd ?? base), c.literal[k[0]] ? normalizePath(a[k[0]], c.cwd ?? base) : '');
    }
    const symbolic = (x: string) => /^-[a-zA-Z]*s[a-zA-Z]*$/.test(x) || x === '--symbolic' || x === '--symbolic-link';
    // A bind mount (`mount --bind ~ h`, `mount -o bind`, `bindfs ~ h`) shows the same files at another path, as a link does.
    const binds = (c.name === 'mount' && a.some((x, k) => /^(?:--r?bind|-[BR])$/.test(x) || (a[k - 1] === '-o' && /(?:^|,)r?bind(?:,|$)/.test(x)))) || c.name === 'bindfs';
    const makes = binds || c.name === 'link' || c.name === 'ln' || (c.name === 'cp' && a.some((x) => symbolic(x) || /^-[a-zA-Z]*l[a-zA-Z]*$/.test(x) || x === '--link'));
    if (!makes || c.cwd === null || this.map.size >= MAX_LINKS) return;
    const soft = c.name !== 'link' && a.slice(1).some(symbolic);
    const ops: string[] = [];
    let into: string | undefined;
    let done = false;
    for (let i = 1; i < a.length; i++) {
      if (!c.literal[i]) return; // a path not known here: nothing to follow
      const x = a[i];
      if (!done && x === '--') done = true;
      else if (!done && VALUE_OPTIONS.test(x)) {
        if (!binds && /^(?:-t|--target-directory)$/.test(x)) into = a[i + 1];
        i++;
      } else if (!done && x.startsWith('--target-directory=')) into = x.slice(19);
      else if (!done && x.startsWith('-') && x !== '-') continue;
      else ops.push(x);
    }
    if (binds && ops.length !== 2) return;
    const dir = c.cwd ?? base;
    const srcs = into !== undefined ? ops : ops.length > 1 ? ops.slice(0, -1) : ops;
    const dest = into ?? (ops.length > 1 ? ops[ops.length - 1] : '.');
    for (const s of srcs) {
      const d = normalizePath(dest, dir);
      // A symbolic link's relative target is read from the link's own folder; a hard link's from here.
      const target = soft && !s.startsWith('/') && !s.startsWith('~') ? normalizePath(s, path.posix.dirname(d) === '.' ? dir : normalizePath(path.posix.dirname(dest), dir)) : normalizePath(s, dir);
      const name = path.posix.basename(target);
      if (into === undefined && ops.length === 2) this.map.set(d, target);
      this.map.set(normalizePath(`${d}/${name}`), target);
    }
  }

  /** `c` with every path that goes through a link made earlier replaced by the link's target; undefined when none does. */
  through(c: ResolvedCommand, base: string | undefined): ResolvedCommand | undefined {
    if (this.map.size === 0 || c.cwd === null) return undefined;
    const dir = c.cwd ?? base;
    let changed = false;
    const swap = (p: string): string => {
      if (p === '' || p.startsWith('-')) {
        // `--work-tree=h`, `--directory=h`: the value after `=`.
        const eq = p.indexOf('=');
        return eq > 0 && p.startsWith('--') ? `${p.slice(0, eq + 1)}${swap(p.slice(eq + 1))}` : p;
      }
      const n = normalizePath(p, dir);
      for (const [link, target] of this.map) {
        if (n !== link && !n.startsWith(`${link}/`)) continue;
        changed = true;
        const rest = n.slice(link.length);
        return `${target === '/' && rest ? '' : target}${rest}${p.endsWith('/') && !rest.endsWith('/') && target !== '/' ? '/' : ''}`;
      }
      return p;
    };
    // `rm -f x`, `mv x y`, `unlink x` act on the link itself; `x/`, `x/.`, `x/f` go through it.
    const own = /^(?:rm|unlink|mv|rmdir)$/.test(c.name);
    const argv = c.argv.map((x, k) => (k === 0 || !c.literal[k] || (own && !x.endsWith('/') && this.map.has(normalizePath(x, dir))) ? x : swap(x)));
    const redirects = c.redirects.map((r) => (r.literal && !r.op.startsWith('<<') ? { ...r, target: swap(r.target) } : r));
    if (!changed) return undefined;
    return { ...c, argv, redirects, via: [...c.via, 'link'], facts: new Set(c.facts) };
  }
}
