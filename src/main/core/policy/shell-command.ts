/**
 * A shell started by the line (`bash -c '…'`, `sh script.sh`, `bash < x.sh`, `curl … | sh`): the
 * commands it runs are read — its -c string (with its $0, $1, … from the words after it), a
 * script this line wrote, or what its stdin holds; a script whose text is not known here is a
 * fact the rules ask about. Moved out of resolve.ts to keep the walker small.
 */
import { type Base, type Ctx, type ResolvedCommand, type Walker, type Words } from './resolved.js';
import { withPositionals } from './wrappers.js';
import { substituted, unknownFeed } from './feeds.js';
import { rcFileIndex, STARTUP_VARIABLES } from './late-code.js';

/** The walker's parts a shell's reading needs beyond Walker: positionals and `sh < file`. */
export interface ShellWalker extends Walker {
  values: { positional: string[] | null };
  redirectedScript(base: Base, self: ResolvedCommand): string | undefined;
  /** A variable in the environment of the command being expanded (undefined: not set on the line). */
  envValue(name: string): { value: string; literal: boolean } | undefined;
}

/**
 * The file a shell reads before its commands (`BASH_ENV=x bash -c …`, `ENV=x sh -i`, `bash
 * --rcfile x -i`): read as shell when this line wrote it; a file made by a substitution or named
 * by a value not known here is a fact the rules ask about. Its commands are recorded (not direct).
 */
function startupFiles(r: ShellWalker, w: Words, self: ResolvedCommand, ctx: Ctx, name: string): void {
  const rc = rcFileIndex(w.argv);
  const env = STARTUP_VARIABLES.map((v) => r.envValue(v)).filter((x) => x !== undefined && x.value !== '') as Array<{ value: string; literal: boolean }>;
  for (const f of [...(rc > 0 ? [{ value: w.argv[rc], literal: w.literal[rc] && !substituted(w.raw[rc]) }] : []), ...env]) {
    if (!f.literal) {
      self.facts.add('shell-stdin-unknown');
      continue;
    }
    const t = r.scriptWritten(f.value, true);
    if (t === null) self.facts.add(r.unseenScript(f.value));
    else if (t !== undefined) r.parseAndWalk(t, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${name} startup file`], outerText: self.text, pipeIn: undefined });
  }
}

export function shellCommand(r: ShellWalker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
  const a = w.argv;
  let cFlag = false;
  let sFlag = false;
  let j = 1;
  for (; j < a.length; j++) {
    const x = a[j];
    if (x === '--' || x === '-') {
      j++;
      break;
    }
    if (x === '-o' || x === '+o' || x === '-O' || x === '+O' || x === '--rcfile' || x === '--init-file') {
      j++;
      continue;
    }
    if (x.startsWith('--')) {
      if (x === '--command') cFlag = true;
      continue;
    }
    if ((x.startsWith('-') || x.startsWith('+')) && x.length > 1) {
      if (x.slice(1).includes('c')) cFlag = true;
      if (x.slice(1).includes('s')) sFlag = true;
      continue;
    }
    break;
  }
  const self = r.make(w, base, ctx);
  startupFiles(r, w, self, ctx, name);
  const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, cFlag ? `${name} -c` : name], outerText: base.text, pipeIn: undefined };
  if (cFlag) {
    const s = a[j];
    if (s === undefined) return [self];
    // `sh -c 'rm -rf "$1"' _ /`: the words after the string are $0, $1, … — values the outer
    // shell already expanded (`_ ~` is home even where the string quotes "$1"). A word whose
    // value is not known is put in as written instead, so the string reads it as unknown.
    if (w.literal.slice(j + 1).every(Boolean)) {
      const saved = r.values.positional;
      r.values.positional = a.slice(j + 2);
      try {
        return [self, ...r.parseAndWalk(s, deeper)];
      } finally {
        r.values.positional = saved;
      }
    }
    return [self, ...r.parseAndWalk(withPositionals(s, a.slice(j + 1)), deeper)];
  }
  // `bash /dev/stdin <<< …`: the script named is its stdin.
  const stdinScript = j < a.length && /^(?:-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/.test(a[j]) && w.literal[j];
  if (j < a.length && !sFlag && !stdinScript && substituted(w.raw[j])) {
    // `bash <(…)`, `sh "$(…)"`: the script is another command's output.
    self.facts.add(/\b(?:curl|wget|fetch)\b/.test(w.raw[j]) ? 'download-to-shell' : 'shell-stdin-unknown');
    return [self];
  }
  if (j < a.length && !sFlag && !stdinScript) {
    // Runs a script file: opaque like any program — unless this line wrote it.
    const script = r.scriptWritten(a[j], w.literal[j]);
    if (script === undefined) return [self];
    if (script === null) {
      self.facts.add(r.unseenScript(a[j]));
      return [self];
    }
    return [self, ...r.parseAndWalk(script, { ...deeper, via: [...ctx.via, `${name} script`] })];
  }
  // Commands come from stdin.
  self.readsProgramFromStdin = true;
  const text = base.stdinText ?? ctx.pipeIn?.text ?? r.redirectedScript(base, self);
  if (text !== undefined) return [self, ...r.parseAndWalk(text, deeper)];
  if (base.stdinOpaque === 'substitution') self.facts.add('shell-stdin-unknown');
  else if (ctx.pipeIn) {
    const f = unknownFeed(ctx.pipeIn);
    if (f !== 'none') self.facts.add(f);
  }
  return [self];
}
