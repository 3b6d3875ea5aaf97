/**
 * Programs that run other commands, read for the command they run: env, su/runuser, ssh,
 * docker exec, find -exec/-delete, xargs, parallel, watch, tmux/screen. Each returns the
 * program itself and what it runs, resolved further by the walker (resolve.ts).
 */
import { MAX_FANOUT, concat, positionalArgs, literalWords, slice, withEnv, type Base, type Ctx, type ResolvedCommand, type Walker, type Words } from './resolved.js';
import { laterStrings, skipOptions, type PrefixSpec } from './wrappers.js';
import { globToRegex } from './paths.js';
import { DOWNLOADERS } from './feeds.js';
import { projectHookFiles } from '../hook-config-files.js';


/** Hook files a project may hold (`.claude/settings.json`, …): a find that deletes by name may reach them. */
const PROJECT_HOOK_FILES = projectHookFiles();

/** find's -path pattern: `*` and `?` match `/` too. */
function findPathRegex(p: string): RegExp {
  return new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

/** `env [-C DIR] [-u NAME] [NAME=value …] CMD`, `env -S "…"`: the command (and a split string) it runs. */
export function envCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  let dir: { path: string; literal: boolean } | undefined;
  const a = w.argv;
  let j = 1;
  while (j < a.length) {
    const x = a[j];
    if (x === '--') {
      j++;
      break;
    }
    if (x === '-S' || x === '--split-string') {
      const s = a[j + 1];
      if (s === undefined) break;
      return [r.make(w, base, ctx), ...r.parseAndWalk([s, ...a.slice(j + 2)].join(' '), { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'env -S'], outerText: base.text })];
    }
    if (x.startsWith('-S') || x.startsWith('--split-string=')) {
      const s = x.startsWith('-S') ? x.slice(2) : x.slice('--split-string='.length);
      return [r.make(w, base, ctx), ...r.parseAndWalk([s, ...a.slice(j + 1)].join(' '), { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'env -S'], outerText: base.text })];
    }
    if (x === '-C' || x === '--chdir') dir = { path: a[j + 1] ?? '', literal: w.literal[j + 1] ?? false };
    else if (x.startsWith('--chdir=')) dir = { path: x.slice(8), literal: w.literal[j] };
    else if (x.startsWith('-C') && x.length > 2) dir = { path: x.slice(2), literal: w.literal[j] };
    if (x === '-u' || x === '--unset' || x === '-C' || x === '--chdir') {
      j += 2;
      continue;
    }
    if (x.startsWith('-')) {
      j++;
      continue;
    }
    // Any word with `=` is put in the environment (GNU env), `BASH_FUNC_ls%%=() {…}` included.
    if (/^[^=]+=/.test(x)) {
      j++;
      continue;
    }
    break;
  }
  if (j >= a.length) return r.withAssignments(a.slice(1, j), [r.make(w, base, ctx)], base, ctx);
  return r.withAssignments(a.slice(1, j), r.inDir(dir, () => r.expand(slice(w, j), base, { ...withEnv(ctx, a.slice(1, j).filter((x) => /^[^=-][^=]*=/.test(x))), depth: ctx.depth + 1, via: [...ctx.via, 'env'] })), base, ctx);
}


/** `su -c "…"`, `runuser -u USER CMD`: the command run as another user. */
export function suCommand(r: Walker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
  const a = w.argv;
  for (let j = 1; j < a.length; j++) {
    const x = a[j];
    if (x === '-c' || x === '--command' || /^-[a-zA-Z]*c$/.test(x)) {
      const s = a[j + 1];
      if (s === undefined) break;
      return [r.make(w, base, ctx), ...r.parseAndWalk(s, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${name} -c`], outerText: base.text })];
    }
    if (x.startsWith('--command=')) return [r.make(w, base, ctx), ...r.parseAndWalk(x.slice(10), { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${name} -c`], outerText: base.text })];
  }
  if (name === 'runuser') {
    const j = skipOptions(a, { shortValue: 'ugGsw', longValue: ['--user', '--group', '--supp-group', '--shell', '--whitelist-environment'] });
    if (j !== 'query' && j < a.length && a.slice(1, j).some((x) => x === '-u' || x === '--user' || x.startsWith('-u'))) return r.expand(slice(w, j), base, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, name] });
  }
  // `su`, `su -`, `su - root`, `runuser -l user` with no -c: the user's shell reads its commands from stdin.
  if (name === 'su' || a.slice(1).some((x) => x === '-l' || x === '--login' || x === '-')) return [r.make(w, base, ctx), ...r.stdinShell(base, ctx, name)];
  return [r.make(w, base, ctx)];
}


/** `ssh HOST CMD…` runs CMD remotely (judged as if here); -o ProxyCommand / LocalCommand run locally. */
export function sshCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const a = w.argv;
  const valued = 'BbcDEeFIiJLlmOoPpQRSWw';
  let j = 1;
  for (; j < a.length; j++) {
    const x = a[j];
    if (x === '--') {
      j++;
      break;
    }
    if (x.startsWith('-') && x.length > 1) {
      const last = x[x.length - 1];
      // -p22 carries its value; -p 22 takes the next word.
      const k = [...x.slice(1)].findIndex((ch) => valued.includes(ch));
      if (k >= 0 && k === x.length - 2 && valued.includes(last)) j++;
      continue;
    }
    break;
  }
  const self = r.make(w, base, ctx);
  const local = laterStrings('ssh', w).flatMap((src) => r.parseAndWalk(src, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'ssh -o'], outerText: base.text, pipeIn: undefined }));
  const rest = j + 1;
  // No remote command: the remote login shell runs what stdin holds (judged as if here).
  if (rest >= a.length) return [self, ...local, ...(base.stdinText ?? ctx.pipeIn?.text ? r.stdinShell(base, ctx, 'ssh') : [])];
  const remote = a.slice(rest).join(' ');
  return [self, ...local, ...r.parseAndWalk(remote, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'ssh'], outerText: base.text, pipeIn: undefined })];
}


/** `docker exec CONTAINER CMD…`: the command run in the container. */
export function containerExec(r: Walker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
  const a = w.argv;
  const self = r.make(w, base, ctx);
  let j = 1;
  while (j < a.length && a[j].startsWith('-')) j += ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level'].includes(a[j]) ? 2 : 1;
  if (a[j] === 'container' && a[j + 1] === 'exec') j++;
  if (a[j] !== 'exec') return [self];
  j++;
  const valued = ['-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '--detach-keys'];
  while (j < a.length && a[j].startsWith('-')) j += valued.includes(a[j]) ? 2 : 1;
  j++; // the container
  if (j >= a.length) return [self];
  return [self, ...r.expand(slice(w, j), { ...base, stdinOpaque: undefined }, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${name} exec`] })];
}


/** `find START … -exec CMD {} ;` / `-delete`: the command per start point (or what a filter could reach below it). */
export function findCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const a = w.argv;
  const self = r.make(w, base, ctx);
  const starts: string[] = [];
  let i = 1;
  while (i < a.length && ['-H', '-L', '-P'].includes(a[i])) i++;
  if (a[i] === '-D' || a[i] === '-O' || /^-O\d$/.test(a[i] ?? '')) i += a[i] === '-D' ? 2 : 1;
  for (; i < a.length; i++) {
    const x = a[i];
    if (x.startsWith('-') || x === '(' || x === '!' || x === ',') break;
    starts.push(x);
  }
  if (starts.length === 0) starts.push('.');
  const FILTERS = /^-(?:x?type|mindepth|i?name|i?path|i?wholename|i?regex|newer\w*|[amc]time|[amc]min|size|empty|user|group|nouser|nogroup|perm|links|inum|samefile|i?lname|used)$/;
  const filtered = a.slice(i).some((x) => FILTERS.test(x));
  // What `{}` / -delete can reach: the start points themselves, or (with a filter) something below them.
  // Below an absolute or home start, a match can be anything there: `/etc/*` (tested as a glob
  // against the protected paths); below a relative start, something in the project.
  // Only -name / -iname filters, no alternatives: what is matched is named so.
  const rest = a.slice(i);
  const names = rest.some((x) => /^(?:-o|-or|,|-i?path|-i?wholename|-i?regex|-not|!|\()$/.test(x)) ? [] : rest.flatMap((x, k) => (x === '-name' || x === '-iname') && rest[k + 1] !== undefined ? [rest[k + 1]] : []);
  // Below a relative start, what a match can be: a repository's .git when a name filter matches
  // it (-delete removes a folder only once all it holds was matched too: `-name '*'`), anything
  // when no filter names what is matched (`find . -type f -delete` empties the project; -empty
  // and -type d with -delete only remove empty folders), else something in the project.
  const named = rest.some((x) => /^-(?:i?name|i?path|i?wholename|i?regex|samefile|inum|i?lname)$/.test(x));
  const matchesAll = (want: string[]) => names.some((n) => want.every((w) => globToRegex(n).test(w)));
  const pathPatterns = rest.flatMap((x, k) => (/^-i?(?:path|wholename)$/.test(x) && rest[k + 1] !== undefined ? [rest[k + 1]] : []));
  const onlyEmpty = rest.includes('-empty') || rest.some((x, k) => x === '-type' && rest[k + 1] === 'd');
  const relBelow = (s: string, deleting: boolean) => {
    const dir = s.replace(/\/+$/, '');
    if (deleting ? matchesAll(['.git', 'HEAD', 'config']) : matchesAll(['.git'])) return `${dir}/\u2026/.git`;
    // `find . -name settings.json -delete`, `-path '*/.claude/*'`: an agent's hook file in the project is matched too.
    const hook = deleting ? PROJECT_HOOK_FILES.find((rel) => matchesAll([rel.slice(rel.lastIndexOf('/') + 1)]) || pathPatterns.some((p) => findPathRegex(p).test(`${dir}/${rel}`))) : undefined;
    if (hook) return `${dir}/\u2026/${hook}`;
    if (!named && !(deleting && onlyEmpty)) return `${dir}/*`;
    return `${dir}/\u2026/found`;
  };
  const below = (s: string, deleting: boolean) => (/^(?:\/|~|\$HOME|\$\{HOME\})/.test(s) ? `${s.replace(/\/+$/, '')}/*` : relBelow(s, deleting));
  const reachFor = (deleting: boolean) => (filtered ? starts.map((s) => below(s, deleting)) : starts);
  const reach = reachFor(false);
  const mark = (cs: ResolvedCommand[]) => {
    if (names.length) for (const c of cs) c.findNames = names;
    return cs;
  };
  const out: ResolvedCommand[] = [self];
  for (let k = i; k < a.length; k++) {
    const x = a[k];
    if (x === '-exec' || x === '-execdir' || x === '-ok' || x === '-okdir') {
      let e = k + 1;
      while (e < a.length && a[e] !== ';' && a[e] !== '+') e++;
      const inner = slice(w, k + 1, e);
      if (reach.length > MAX_FANOUT) r.tooMany(base.text, `find -exec over ${reach.length} start points`);
      for (const target of reach.slice(0, MAX_FANOUT)) {
        const sub: Words = { ...inner, argv: inner.argv.map((v) => v.replace(/\{\}/g, target)), glob: inner.argv.map((v, k) => inner.glob[k] || (v.includes('{}') && target.endsWith('/*'))) };
        out.push(...mark(r.expand(sub, { ...base, stdinOpaque: undefined }, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `find ${x}`], pipeIn: undefined })));
      }
      k = e;
    } else if (x === '-delete') {
      const rm = literalWords(['rm', '-r', ...reachFor(true)]);
      rm.glob = rm.argv.map((v, k) => k >= 2 && v.endsWith('/*'));
      out.push(...mark(r.expand(rm, base, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'find -delete'], pipeIn: undefined })));
    }
  }
  return out;
}


/** `… | xargs [-I R] CMD`: CMD with the items fed (known text, or what a lister such as `ls ~` prints). */
export function xargsCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const a = w.argv;
  const spec: PrefixSpec = { shortValue: 'adEeIiLlnPs', longValue: ['--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'] };
  let replace: string | undefined;
  for (let k = 1; k < a.length && a[k].startsWith('-'); k++) {
    if (a[k] === '-I' || a[k] === '--replace') replace = a[k + 1];
    else if (a[k].startsWith('-I') && a[k].length > 2) replace = a[k].slice(2);
    else if (a[k] === '-i') replace = '{}';
    else if (a[k].startsWith('--replace=')) replace = a[k].slice(10);
  }
  const j = skipOptions(a, spec, { gluedOnly: 'il' });
  const self = r.make(w, base, ctx);
  const inner = j === 'query' || j >= a.length ? literalWords(['echo']) : slice(w, j);
  const text = base.stdinText ?? ctx.pipeIn?.text;
  const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'xargs'], pipeIn: undefined };
  if (text === undefined) {
    // Items listed from a path (`ls /`, `find ~ -name x`) are somewhere below it.
    const lister = ctx.pipeIn?.producers.find((p) => ['ls', 'find', 'fd', 'locate', 'du', 'tree'].includes(p.name));
    const from = lister ? (positionalArgs(lister.argv.slice(1)).find((x) => !x.startsWith('-')) ?? '.') : undefined;
    if (from !== undefined && /^(?:\/|~|\$HOME|\$\{HOME\})/.test(from)) {
      // find prints whole paths; ls prints names, which a template such as `~/{}` puts back under a path.
      const item = `${from.replace(/\/+$/, '')}/*`;
      const named = lister!.name === 'ls' ? '*' : item;
      const argv = replace !== undefined ? inner.argv.map((v) => v.split(replace!).join(named)) : [...inner.argv, item];
      const glob = replace !== undefined ? inner.argv.map((v, k) => inner.glob[k] || v.includes(replace!)) : [...inner.glob, true];
      return [self, ...r.expand({ argv, literal: argv.map(() => true), glob, raw: argv }, { ...base, stdinText: undefined, stdinOpaque: undefined }, deeper)];
    }
    // Items that cannot be known (`cat list | xargs rm -rf`, `xargs -a list …`, `< list`): the worst
    // case at a destructive position (unknown-target), never assumed safe. Listers of a relative
    // folder and git's file lists print paths inside the project; `< /dev/null` feeds nothing.
    const empty = base.redirects.some((x) => x.op === '<' && x.target === '/dev/null');
    const inProject = from !== undefined || ctx.pipeIn?.producers.some((p) => p.name === 'git') === true;
    if (!empty && !inProject) {
      const unknown = '$XARGS_INPUT';
      const argv = replace !== undefined ? inner.argv.map((v) => v.split(replace!).join(unknown)) : [...inner.argv, unknown];
      const literal = replace !== undefined ? inner.argv.map((v, k) => inner.literal[k] && !v.includes(replace!)) : [...inner.literal, false];
      const glob = replace !== undefined ? inner.glob : [...inner.glob, false];
      return [self, ...r.expand({ argv, literal, glob, raw: argv }, { ...base, stdinText: undefined, stdinOpaque: undefined }, deeper)];
    }
    return [self, ...r.expand(inner, { ...base, stdinText: undefined, stdinOpaque: undefined }, deeper)];
  }
  // With -I an item is a whole input line, leading blanks dropped (`<<< 'rm -rf ~'` is one item);
  // the line's words are judged too (never fewer items than before, so the fan-out cap still holds).
  const nul = a.includes('-0') || a.includes('--null');
  const words = text.split(nul ? /\0/ : /\s+/);
  const lines = replace !== undefined && !nul ? text.split('\n').map((s) => s.replace(/^[ \t]+/, '')).filter((s) => /\s/.test(s.trim())) : [];
  const items = [...new Set([...lines, ...words])].filter((s) => s !== '');
  if (items.length === 0) return [self, ...r.expand(inner, base, deeper)];
  if (replace !== undefined) {
    const rep = replace;
    if (items.length > MAX_FANOUT) r.tooMany(base.text, `xargs -I over ${items.length} inputs`);
    return [self, ...items.slice(0, MAX_FANOUT).flatMap((it) => r.expand({ ...inner, argv: inner.argv.map((v) => v.split(rep).join(it)) }, { ...base, stdinText: undefined }, deeper))];
  }
  const fed = literalWords(items);
  return [self, ...r.expand({ argv: [...inner.argv, ...fed.argv], literal: [...inner.literal, ...fed.literal], glob: [...inner.glob, ...fed.glob], raw: [...inner.raw, ...fed.raw] }, { ...base, stdinText: undefined }, deeper)];
}


/** fd's options that take a value (the next word unless glued: `-e pyc`, `--type=f`). */
const FD_VALUED = new Set(['-e', '--extension', '-t', '--type', '-E', '--exclude', '-d', '--max-depth', '--min-depth', '--exact-depth', '-S', '--size', '--changed-within', '--changed-before', '--change-newer-than', '--change-older-than', '-o', '--owner', '-j', '--threads', '--base-directory', '--search-path', '-c', '--color', '--max-results', '--path-separator', '--ignore-file', '--format', '--batch-size', '--and']);

/**
 * `fd [OPTIONS] [PATTERN] [PATH…] -x|-X CMD …`: CMD runs on what fd finds below each PATH (the
 * current folder by default), `{}` and its variants standing for the match (appended when not
 * written). A match below an absolute or home path can be anything there (`/etc/*`); below a
 * relative one, something in the project — as for find.
 */
export function fdCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const a = w.argv;
  const self = r.make(w, base, ctx);
  const x = a.findIndex((v, k) => k > 0 && (v === '-x' || v === '--exec' || v === '-X' || v === '--exec-batch'));
  if (x < 0 || x === a.length - 1) return [self];
  const pos: string[] = [];
  const paths: string[] = [];
  for (let k = 1; k < x; k++) {
    const v = a[k];
    if (v === '--') continue;
    if (v.startsWith('-')) {
      if (v === '--search-path' && a[k + 1] !== undefined) paths.push(a[k + 1]);
      else if (v.startsWith('--search-path=')) paths.push(v.slice(14));
      if (FD_VALUED.has(v)) k++;
      continue;
    }
    pos.push(v);
  }
  paths.push(...pos.slice(1));
  if (paths.length === 0) paths.push('.');
  // With hidden files searched (-H, -u), a pattern that matches .git finds repositories' histories.
  const hidden = a.slice(1, x).some((v) => /^-[a-zA-Z]*[Hu]/.test(v) || v === '--hidden' || v === '--unrestricted');
  const glob = a.slice(1, x).some((v) => v === '-g' || v === '--glob');
  let gitHit = false;
  if (hidden && pos[0] !== undefined) {
    try {
      gitHit = (glob ? globToRegex(pos[0]) : new RegExp(pos[0])).test('.git');
    } catch {
      gitHit = true;
    }
  }
  const found = (p: string) => (/^(?:\/|~|\$HOME|\$\{HOME\})/.test(p) ? `${p.replace(/\/+$/, '')}/*` : `${p.replace(/\/+$/, '')}/\u2026/${gitHit ? '.git' : 'found'}`);
  let e = x + 1;
  while (e < a.length && a[e] !== ';' && a[e] !== '\\;') e++;
  const inner = slice(w, x + 1, e);
  const out: ResolvedCommand[] = [self];
  if (paths.length > MAX_FANOUT) r.tooMany(base.text, `fd -x over ${paths.length} search paths`);
  for (const p of paths.slice(0, MAX_FANOUT)) {
    const target = found(p);
    const placeholder = /\{(?:\/?\/?\.?)\}/;
    const has = inner.argv.some((v) => placeholder.test(v));
    const argv = has ? inner.argv.map((v) => v.replace(/\{(?:\/?\/?\.?)\}/g, target)) : [...inner.argv, target];
    const glob = has ? inner.argv.map((v, k) => inner.glob[k] || (placeholder.test(v) && target.endsWith('/*'))) : [...inner.glob, target.endsWith('/*')];
    const literal = has ? inner.literal : [...inner.literal, true];
    out.push(...r.expand({ argv, literal, glob, raw: argv }, { ...base, stdinOpaque: undefined }, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `fd ${a[x]}`], pipeIn: undefined }));
  }
  return out;
}

/** `parallel CMD ::: inputs` or fed on stdin: one command line per input. */
export function parallelCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const a = w.argv;
  const self = r.make(w, base, ctx);
  const valued = ['-j', '--jobs', '-S', '--sshlogin', '-N', '-n', '--delay', '--timeout', '--joblog', '--results', '-a', '--arg-file', '--colsep', '-d', '--delimiter', '--tag-string', '--memfree', '--load'];
  let j = 1;
  while (j < a.length && a[j].startsWith('-') && a[j] !== ':::' && a[j] !== '::::') j += valued.includes(a[j]) ? 2 : 1;
  const sep = a.findIndex((x, k) => k >= j && (x === ':::' || x === ':::+'));
  const cmdWords = a.slice(j, sep < 0 ? a.length : sep);
  let inputs: string[] = [];
  if (sep >= 0) inputs = a.slice(sep + 1).filter((x) => x !== ':::' && x !== ':::+' && x !== '::::');
  else {
    const text = base.stdinText ?? ctx.pipeIn?.text;
    if (text !== undefined) inputs = text.split('\n').filter((s) => s.trim() !== '');
  }
  const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'parallel'], outerText: base.text, pipeIn: undefined };
  const out: ResolvedCommand[] = [self];
  const template = cmdWords.join(' ');
  if (inputs.length === 0) {
    if (template) out.push(...r.parseAndWalk(template, deeper));
    return out;
  }
  if (inputs.length > MAX_FANOUT) r.tooMany(base.text, `parallel over ${inputs.length} inputs`);
  for (const input of inputs.slice(0, MAX_FANOUT)) {
    const line = template === '' ? input : template.includes('{}') ? template.split('{}').join(input) : `${template} ${input}`;
    out.push(...r.parseAndWalk(line, deeper));
  }
  return out;
}


/** `watch [-x] CMD`: the command it repeats. */
export function watchCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const a = w.argv;
  const self = r.make(w, base, ctx);
  let exec = false;
  let j = 1;
  for (; j < a.length && a[j].startsWith('-'); j++) {
    if (a[j] === '--') {
      j++;
      break;
    }
    if (a[j] === '-n' || a[j] === '--interval' || a[j] === '-q' || a[j] === '--equexit') j++;
    if (a[j] === '-x' || a[j] === '--exec') exec = true;
  }
  if (j >= a.length) return [self];
  const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'watch'], outerText: base.text, pipeIn: undefined };
  if (exec) return [self, ...r.expand(slice(w, j), base, deeper)];
  return [self, ...r.parseAndWalk(a.slice(j).join(' '), deeper)];
}


/** What runs the lines a command was handed (tar's exec options, less's `!`, a makefile's recipes), one level deeper. */
function runLines(r: Walker, lines: readonly string[], base: Base, ctx: Ctx, label: string, keepStdin = false): ResolvedCommand[] {
  const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, label], outerText: base.text, pipeIn: keepStdin ? ctx.pipeIn : undefined };
  return lines.flatMap((line) => r.parseAndWalk(line, deeper));
}

/** `script -c CMD` (util-linux): the command it records. */
export function scriptCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const a = w.argv.slice(1);
  const c = a.findIndex((x) => x === '-c' || x === '--command' || /^-[a-zA-Z]*c$/.test(x));
  // No -c: the shell it starts reads its commands from stdin.
  return [r.make(w, base, ctx), ...(c >= 0 && a[c + 1] !== undefined ? runLines(r, [a[c + 1]], base, ctx, 'script -c', true) : r.stdinShell(base, ctx, 'script'))];
}

/** tar's options whose value it runs as a command (GTFOBins: `--checkpoint-action=exec=…`, `--to-command`, `-I`, `-F`). */
export function tarCommand(r: Walker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
  const a = w.argv;
  const run: string[] = [];
  for (let k = 1; k < a.length; k++) {
    const m = /^--(?:checkpoint-action=exec|to-command|use-compress-program|info-script|new-volume-script)=(.*)$/s.exec(a[k]);
    if (m) run.push(m[1]);
    else if (/^--(?:to-command|use-compress-program|info-script|new-volume-script)$/.test(a[k]) && a[k + 1] !== undefined) run.push(a[++k]);
    else if ((a[k] === '-I' || a[k] === '-F') && a[k + 1] !== undefined) run.push(a[++k]);
  }
  return [r.make(w, base, ctx), ...runLines(r, run, base, ctx, `${name} exec`)];
}

/** `less +'!CMD'` runs CMD at start (its `!` command); the rest of a pager only reads. */
export function pagerCommand(r: Walker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
  const bang = w.argv.slice(1).map((x) => /^\+:?!(.+)$/s.exec(x)?.[1]).filter((x): x is string => x !== undefined);
  return [r.make(w, base, ctx), ...runLines(r, bang, base, ctx, `${name} !`)];
}

/** A makefile read from stdin (`make -f - <<< …`, `-f /dev/stdin`): its recipe lines are what runs; unknown stdin asks. */
export function makeCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const a = w.argv.slice(1);
  const self = r.make(w, base, ctx);
  // `make --eval=$'all:\n\trm -rf ~'` / `-E TEXT`: the text is read as makefile lines.
  const evals = a.flatMap((x, k) => ((x === '-E' || x === '--eval') && a[k + 1] !== undefined ? [a[k + 1]] : /^(?:--eval=|-E)(.+)$/s.exec(x)?.slice(1) ?? []));
  const evalRecipes = runLines(r, evals.flatMap(recipeLines), base, ctx, 'make --eval');
  const fromStdin = a.some((x, k) => (x === '-f' || x === '--file' || x === '--makefile') && (a[k + 1] === '-' || a[k + 1] === '/dev/stdin')) || a.some((x) => /^(?:-f|--file=|--makefile=)(?:-|\/dev\/stdin)$/.test(x));
  if (!fromStdin) {
    // `make -f <(printf 'all:\n\trm -rf ~')`: the makefile is another command's output (`-f "$(pwd)/Makefile"` only names a file).
    const k = a.findIndex((x) => x === '-f' || x === '--file' || x === '--makefile');
    const raw = k >= 0 ? w.raw[k + 2] : w.raw.slice(1).find((x) => /^(?:-f|--file=|--makefile=)<\(/.test(x));
    if (raw !== undefined && /^(?:-f|--file=|--makefile=)?<\(/.test(raw)) self.facts.add('shell-stdin-unknown');
    // A makefile this line wrote (`echo 'all: ; rm -rf ~' > Makefile; make`): its recipes are read.
    const named = k >= 0 ? a[k + 1] : a.find((x) => /^(?:--file=|--makefile=)/.test(x))?.replace(/^[^=]*=/, '');
    for (const f of named !== undefined ? [named] : ['GNUmakefile', 'makefile', 'Makefile']) {
      const t = r.scriptWritten(f, true);
      if (t === null) self.facts.add(r.unseenScript(f));
      if (typeof t === 'string') return [self, ...evalRecipes, ...runLines(r, recipeLines(t), base, ctx, 'make recipe')];
    }
    return [self, ...evalRecipes];
  }
  const text = base.stdinText ?? ctx.pipeIn?.text;
  if (text === undefined) {
    self.facts.add('shell-stdin-unknown');
    return [self, ...evalRecipes];
  }
  return [self, ...evalRecipes, ...runLines(r, recipeLines(text), base, ctx, 'make recipe')];
}

/** A makefile's recipe lines: tab-led lines and what follows `;` on a rule line (`all: ; cmd`), without the @ + - prefixes. */
function recipeLines(text: string): string[] {
  return text.split('\n').flatMap((l) => {
    if (l.startsWith('\t')) return [l.slice(1)];
    const m = /^[^\t#=;]*[^:=]:(?!=)[^=;]*;(.*)$/.exec(l);
    return m ? [m[1]] : [];
  }).map((l) => l.replace(/^\s*[@+-]+/, ''));
}

/** `tmux new-session CMD`, `tmux send-keys "…" Enter`, `screen -dm CMD`: the command started in a pane. */
export function multiplexerCommand(r: Walker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
  const a = w.argv;
  const self = r.make(w, base, ctx);
  const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, name], outerText: base.text, pipeIn: undefined };
  if (name === 'tmux') {
    const sub = a.findIndex((x, k) => k > 0 && !x.startsWith('-'));
    if (sub < 0) return [self];
    const s = a[sub];
    if (s === 'send-keys' || s === 'send') {
      const keys = positionalArgs(a.slice(sub + 1), ['-t', '-N', '-c']).filter((k) => !/^(?:Enter|C-m|KPEnter)$/.test(k));
      return keys.length ? [self, ...r.parseAndWalk(keys.join(' '), deeper)] : [self];
    }
    if (/^(?:new-session|new|new-window|neww|split-window|splitw|respawn-pane|respawnp|respawn-window|respawnw|run-shell|run)$/.test(s)) {
      const pos = positionalArgs(a.slice(sub + 1), ['-t', '-s', '-n', '-c', '-F', '-x', '-y', '-e', '-l', '-f', '-L', '-S']);
      return pos.length ? [self, ...r.parseAndWalk(pos.join(' '), deeper)] : [self];
    }
    return [self];
  }
  // screen [-dmS name] cmd args
  let j = 1;
  while (j < a.length && a[j].startsWith('-')) j += /^-[a-zA-Z]*[ScehpTtX]$/.test(a[j]) ? 2 : 1;
  return j < a.length ? [self, ...r.expand(slice(w, j), base, deeper)] : [self];
}


const deeperCtx = (ctx: Ctx, label: string): Ctx => ({ ...ctx, depth: ctx.depth + 1, via: [...ctx.via, label] });

/** `source FILE` / `. FILE`: stdin (`source /dev/stdin <<< …`) is read; a file named by a substitution or a descriptor is not known. */
export function sourceCommand(r: Walker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
  const self = r.make(w, base, ctx);
  const file = w.argv[1];
  // A script this line wrote (`echo 'rm -rf ~' > x.sh; . x.sh`) is read.
  const written = file === undefined ? undefined : r.scriptWritten(file, w.literal[1]);
  if (written === null) self.facts.add(r.unseenScript(file!));
  if (typeof written === 'string') return [self, ...r.parseAndWalk(written, { ...deeperCtx(ctx, `${name} script`), outerText: base.text })];
  if (file !== undefined && (!w.literal[1] || file === '/dev/stdin' || file === '-' || /^\/dev\/fd\//.test(file) || /^\/proc\/self\/fd\//.test(file))) {
    const text = base.stdinText ?? ctx.pipeIn?.text;
    if (text !== undefined && (file === '/dev/stdin' || file === '-')) return [self, ...r.parseAndWalk(text, { ...deeperCtx(ctx, name), outerText: base.text })];
    self.facts.add(/\b(?:curl|wget|fetch)\b/.test(w.raw[1] ?? '') || ctx.pipeIn?.producers.some((p) => DOWNLOADERS.has(p.name)) ? 'download-to-shell' : 'shell-stdin-unknown');
  }
  return [self];
}

/** `sg GROUP 'command line'`: run through /bin/sh; `sg GROUP -c 'line'` alike. */
export function sgCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const self = r.make(w, base, ctx);
  const rest = w.argv.slice(2).filter((x, k) => !(k === 0 && x === '-c'));
  return rest.length ? [self, ...r.parseAndWalk(rest.join(' '), { ...deeperCtx(ctx, 'sg'), outerText: base.text })] : [self];
}

/** `npm exec -- rimraf x`, `npm x rimraf`, `pnpm dlx …`, `yarn dlx …`, `bun x …`: the package's command runs (undefined: not such a call). */
export function packageExec(r: Walker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] | undefined {
  const k = w.argv.findIndex((x, i) => i > 0 && !x.startsWith('-'));
  if (k > 0 && /^(?:exec|x|dlx)$/.test(w.argv[k])) {
    // `npm exec -c 'line'` / `--call`, `pnpm exec|dlx -c 'line'` (--shell-mode), `yarn exec line`: a shell reads the line.
    const line = shellLine(w.argv.slice(k + 1), name === 'npm' ? 'call' : name === 'pnpm' ? 'shell' : name === 'yarn' && w.argv[k] === 'exec' ? 'all' : 'none');
    if (line !== undefined) return [r.make(w, base, ctx), ...r.parseAndWalk(line, { ...deeperCtx(ctx, `${name} ${w.argv[k]}`), outerText: base.text, pipeIn: undefined })];
    let j = k + 1;
    while (j < w.argv.length && w.argv[j].startsWith('-')) j += /^(?:-p|--package|-c|--call)$/.test(w.argv[j]) ? 2 : 1;
    if (j < w.argv.length) return [r.make(w, base, ctx), ...r.expand(slice(w, j), base, deeperCtx(ctx, `${name} ${w.argv[k]}`))];
  }
  return undefined;
}

/**
 * The line a package runner hands a shell: npm/npx's `-c LINE` / `--call LINE` / `--call=LINE`
 * ('call'), pnpm's `-c` / `--shell-mode` flag before the command words ('shell'), yarn exec's
 * words ('all'); undefined when there is none.
 */
function shellLine(args: readonly string[], kind: 'call' | 'shell' | 'all' | 'none'): string | undefined {
  if (kind === 'all') return args.length ? args.join(' ') : undefined;
  for (let j = 0; j < args.length && args[j].startsWith('-'); j++) {
    const x = args[j];
    if (kind === 'call' && (x === '-c' || x === '--call')) return args[j + 1];
    if (kind === 'call' && x.startsWith('--call=')) return x.slice(7);
    if (kind === 'shell' && (x === '-c' || x === '--shell-mode')) return args.slice(j + 1).filter((y) => !y.startsWith('-')).join(' ') || undefined;
    if (/^(?:-p|--package)$/.test(x)) j++;
  }
  return undefined;
}

/** `flock LOCK -c 'line'`, `flock LOCK CMD…`: the command run under the lock. */
export function flockCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const self = r.make(w, base, ctx);
  const c = w.argv.findIndex((x, k) => k > 0 && (x === '-c' || x === '--command'));
  if (c > 0 && w.argv[c + 1] !== undefined) return [self, ...r.parseAndWalk(w.argv[c + 1], { ...deeperCtx(ctx, 'flock -c'), outerText: base.text })];
  const j = skipOptions(w.argv, { shortValue: 'wE', longValue: ['--timeout', '--wait', '--conflict-exit-code'], positional: 1 });
  return j !== 'query' && j < w.argv.length ? [self, ...r.expand(slice(w, j), base, deeperCtx(ctx, 'flock'))] : [self];
}

/** `kubectl exec POD -- CMD…`: the command run in the pod. */
export function kubectlExec(r: Walker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
  const self = r.make(w, base, ctx);
  const args = w.argv.slice(1);
  const dd = args.indexOf('--');
  if (args.includes('exec') && dd >= 0 && dd < args.length - 1) return [self, ...r.expand(slice(w, dd + 2), base, deeperCtx(ctx, `${name} exec`))];
  return [self];
}

/** `at TIME <<< 'line'`, `echo line | batch`: the job's commands, read from stdin. */
export function atCommand(r: Walker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
  const self = r.make(w, base, ctx);
  const text = base.stdinText ?? ctx.pipeIn?.text;
  if (text !== undefined) return [self, ...r.parseAndWalk(text, { ...deeperCtx(ctx, name), outerText: base.text })];
  if (ctx.pipeIn || base.stdinOpaque === 'substitution') self.facts.add('shell-stdin-unknown');
  return [self];
}

/** `entr -s 'make && ./a.out'`, `npx -c 'line'`: the string is run by a shell, read like sh -c's (undefined: no such option); bwrap and start-stop-daemon: sandboxCommand. */
export function entrShell(r: Walker, w: Words, base: Base, ctx: Ctx, name = 'entr'): ResolvedCommand[] | undefined {
  if (name === 'bwrap' || name === 'start-stop-daemon') return sandboxCommand(r, w, base, ctx, name);
  if (name === 'npx') {
    const line = shellLine(w.argv.slice(1), 'call');
    return line === undefined ? undefined : [r.make(w, base, ctx), ...r.parseAndWalk(line, { ...deeperCtx(ctx, 'npx -c'), outerText: base.text, pipeIn: undefined })];
  }
  const j = w.argv.findIndex((x, k) => k > 0 && !x.startsWith('-'));
  if (j > 0 && w.argv.slice(1, j).some((x) => /^-[a-z]*s/.test(x))) return [r.make(w, base, ctx), ...r.parseAndWalk(w.argv[j], { ...deeperCtx(ctx, 'entr -s'), outerText: base.text, pipeIn: undefined })];
  return undefined;
}

/** `eval WORDS…`: the words joined are read as a line (its pipe input stays its own). */
export function evalCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const self = r.make(w, base, ctx);
  if (w.argv.length < 2) return [self];
  return [self, ...r.parseAndWalk(w.argv.slice(1).join(' '), { ...deeperCtx(ctx, 'eval'), outerText: base.text, pipeIn: ctx.pipeIn })];
}


/** bubblewrap's options by how many words they take (the rest take none); its command follows them. */
const BWRAP_ARITY: Record<string, number> = Object.fromEntries([
  ...['--args', '--argv0', '--userns', '--userns2', '--pidns', '--uid', '--gid', '--hostname', '--chdir', '--unsetenv', '--lock-file', '--sync-fd', '--remount-ro', '--proc', '--dev', '--tmpfs', '--mqueue', '--dir', '--seccomp', '--add-seccomp-fd', '--exec-label', '--file-label', '--block-fd', '--userns-block-fd', '--info-fd', '--json-status-fd', '--cap-add', '--cap-drop', '--perms', '--size', '--overlay-src', '--tmp-overlay', '--ro-overlay'].map((o) => [o, 1]),
  ...['--setenv', '--bind', '--bind-try', '--dev-bind', '--dev-bind-try', '--ro-bind', '--ro-bind-try', '--file', '--bind-data', '--ro-bind-data', '--symlink', '--chmod', '--bind-fd', '--ro-bind-fd', '--overlay'].map((o) => [o, 2]),
]);

/**
 * `bwrap [OPTIONS] CMD…` (the command runs in the sandbox, judged as if here: its binds can
 * expose anything), `start-stop-daemon --start --exec|--startas PROG -- ARGS` (PROG runs with ARGS).
 */
export function sandboxCommand(r: Walker, w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
  const a = w.argv;
  const self = r.make(w, base, ctx);
  if (name === 'bwrap') {
    let j = 1;
    while (j < a.length && a[j].startsWith('--')) {
      if (a[j] === '--') {
        j++;
        break;
      }
      j += 1 + (BWRAP_ARITY[a[j]] ?? 0);
    }
    return j < a.length ? [self, ...r.expand(slice(w, j), base, deeperCtx(ctx, name))] : [self];
  }
  let prog: number | undefined;
  let starting = false;
  let k = 1;
  for (; k < a.length && a[k] !== '--'; k++) {
    if (a[k] === '-S' || a[k] === '--start') starting = true;
    if (['-x', '--exec', '-a', '--startas'].includes(a[k]) && a[k + 1] !== undefined && (prog === undefined || a[k] === '-a' || a[k] === '--startas')) prog = ++k;
  }
  if (!starting || prog === undefined) return [self];
  return [self, ...r.expand(concat(slice(w, prog, prog + 1), slice(w, Math.min(k + 1, a.length))), base, deeperCtx(ctx, name))];
}
