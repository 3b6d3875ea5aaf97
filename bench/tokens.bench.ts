/**
 * Token figures with honest baselines (issue 14 pt 6, issue 13 "Measure"), o200k_base:
 *  - baselines: (a) the same command through a plain pipe (`<fixture>.piped`, recorded by
 *    `fixtures/record.ts --piped`: what an agent's ordinary shell tool returns) — the targets are
 *    judged against it; (b) the PTY recording with every overwritten frame collapsed (the line
 *    buffer's final screen: complete lines and final frames, no redrawn rows), for every fixture;
 *  - failing fixtures: condensed (CLI summary text) vs piped, each, the median ratio, and the
 *    must-keep facts kept;
 *  - small successful outputs (≤ 20 lines): overhead in tokens over the raw text;
 *  - noisy successful fixtures: reduction against (a) where recorded, else (b), labelled;
 *  - path lists from real programs run now (git ls-files, find, tar tf): reduction and exactness;
 *  - logs (fixtures/recorded/log-*): reduction with every ERROR/WARN line kept.
 * Two condensed texts are measured for every fixture, each through the function its host uses
 * (not a copy): the CLI's (core/format/render.ts `render`, what `mish <cmd>` prints: the summary
 * with paths under the recording's cwd relative, then the status line) and sh_run's (the MCP
 * host's `agentBody` + `runReplyText`: the body, then sh_run's status line), with the recorded
 * duration and a spool id / command id of the real shapes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { loadFixtures } from './squasher.bench.js';
import { median, type BenchFigure, type BenchOutput, type BenchSkip } from './types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** MISH_BENCH_FIXTURES: bench --against points both sides at one checkout's recordings, so only the code differs. */
const RECORDED = process.env.MISH_BENCH_FIXTURES || path.join(ROOT, 'fixtures', 'recorded');
/** Where the PTY recordings were made (their paths start here), see fixtures/README.md: the default when a recording names no checkout. */
const RECORDED_REPO = '/work/main';
/** The checkout a recording (or its piped twin) was made in: fixtures run in `<checkout>/fixtures/.work/run/<name>`. */
const RUN_DIR = /(\/[\w.@+-]+(?:\/[\w.@+-]+)*?)\/fixtures\/\.work\/run\//;
/**
 * The temporary files gcc's driver names at random for each run (`/tmp/ccNm39fX.o` in ld's messages): the piped twin is another
 * run than the PTY recording, so its names are put back to the recording's, in order (a different name cost gcc-link-error a token
 * that was no part of mish's overhead).
 */
const GCC_TEMP = /\/tmp\/cc[A-Za-z0-9]{6}\.[os]\b/g;
/** `piped` with the random temporary names of `raw`, in order. */
function sameTempNames(piped: string, raw: string): string {
  const names = raw.match(GCC_TEMP) ?? [];
  let i = 0;
  return piped.replace(GCC_TEMP, (t) => names[i++] ?? t);
}
/** What a failing run may cost over its piped output: the exit code in the status line (issue 23 pt 4). */
const FAIL_OVER_PIPED_TOKENS = 5;
/** Small outputs: shown whole, so only the overhead is measured. */
const SMALL_LINES = 20;
/** A successful run is "noisy" from this many tokens of (b) on. */
const NOISY_MIN_TOKENS = 500;
/** A log fixture counts for the ≥ 3,000-line target from this many lines on. */
const LOG_MIN_LINES = 3000;
/** How the CLI names the raw output (an id of the same shape as the spool's). */
const SPOOL_REF = 'mish raw x4moz7240';
/** The process-table id sh_run's text names (`read_raw c12`): an id of a session some commands old. */
const COMMAND_ID = 'c12';

type Encode = (text: string) => number[];

/** A clone of this repository as `git clone` from a remote makes one (objects sent as a pack), in a temp dir; or why not. */
function freshClone(): string | { error: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mish-bench-clone-'));
  try {
    execFileSync('git', ['clone', '--quiet', '--no-local', ROOT, path.join(dir, 'repo')], { stdio: ['ignore', 'ignore', 'pipe'] });
    return path.join(dir, 'repo');
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return { error: (e as Error).message.split('\n')[0] };
  }
}

/** Baseline (c): a command's piped output as a shell tool returns it, with its exit code. */
function withExitCode(piped: string, exitCode: number): string {
  return `Exit code: ${exitCode}\n${piped}`;
}

interface Facts {
  exitCode: number;
  mustSurvive: string[];
}

/**
 * A fact with an absolute path (or a frame's file URL) under the cwd, as the CLI shows it: relative
 * (a fact that starts inside the cwd path, `run/x/src/a.c:3: error`, counts as `src/a.c:3: error`;
 * one that ends inside it, as far as the path's start).
 */
function relativeFact(x: string, cwd: string | undefined): string {
  if (!cwd) return x;
  const whole = `${cwd}/`;
  // A stack frame's file URL under the cwd is shown as the relative path (squasher/render.ts).
  const out = x.split(`file://${whole}`).join('').split(whole).join('');
  for (let k = 1; k < whole.length; k++) if (whole[k - 1] === '/' && out.startsWith(whole.slice(k))) return out.slice(whole.length - k);
  // A fact cut inside the cwd path (`… at charge (/work/x/fixtures/.work/run/log`) counts up to where the path began.
  for (let k = whole.length - 1; k > 1; k--) if (out.endsWith(whole.slice(0, k))) return out.slice(0, out.length - k);
  return out;
}

export async function benchTokens(): Promise<BenchOutput> {
  const figures: BenchFigure[] = [];
  const skipped: BenchSkip[] = [];
  let encode: Encode;
  try {
    ({ encode } = await import('gpt-tokenizer/encoding/o200k_base'));
  } catch (e) {
    return { figures, skipped: [{ name: 'tokens', reason: `gpt-tokenizer o200k_base not importable: ${(e as Error).message}` }] };
  }
  const tok = (s: string) => encode(s).length;
  const S = await import('../src/main/core/squasher/squasher.js');
  const { render } = await import('../src/main/core/format/render.js');
  const { agentBody } = await import('../src/main/mcp/engine-wiring.js');
  const { runReplyText } = await import('../src/main/mcp/tool-kit.js');
  const { LineBuffer } = await import('../src/main/core/squasher/line-buffer.js');
  const { VtStripper } = await import('../src/main/core/squasher/vt-stripper.js');
  const { GrammarRegistry, detectTool } = await import('../src/main/core/grammar/index.js');
  const registry = new GrammarRegistry({ builtinDir: path.join(ROOT, 'grammars'), userDir: null, projectGrammars: false, revalidateMs: 0 });

  /** (b): the recording as its final screen: complete lines and final frames, redrawn rows dropped. */
  const collapsed = (raw: Buffer): string => {
    const out: string[] = [];
    const lb = new LineBuffer((l) => {
      if (l.kind === 'complete' || l.kind === 'overwrite') out.push(l.text);
    });
    const vt = new VtStripper();
    lb.ingest(vt.process(raw.toString('utf8')));
    lb.end();
    return out.join('\n') + '\n';
  };
  type Run = { argv: string[]; raw: Buffer; exitCode: number; cwd?: string; durationMs: number };
  const runInput = (f: Run) => {
    const sq = new S.Squasher({ detection: detectTool(f.argv, registry), now: () => 0 });
    sq.write(new Uint8Array(f.raw));
    const squash = sq.finish({ exitCode: f.exitCode });
    return { command: f.argv.join(' '), report: { category: 'condense' as const, squash }, facts: { exitCode: f.exitCode, durationMs: f.durationMs, spoolRef: SPOOL_REF, enrichment: [] }, ...(f.cwd ? { cwd: f.cwd } : {}) };
  };
  /** What `mish <cmd>` prints (no colour). */
  const condensed = (f: Run): string => render(runInput(f), 'human', false);
  /** The text of sh_run's reply (no [procs] digest: nothing else runs). */
  const shRun = (f: Run): string => {
    const input = runInput(f);
    const body = agentBody(input, COMMAND_ID);
    const rawLines = input.report.squash.totalLines;
    return runReplyText({ id: COMMAND_ID, session: 'default', text: body.text, shown: body.shown, exitCode: f.exitCode, category: 'condense', cwd: f.cwd, startCwd: f.cwd, rawLines, shownLines: body.text.split('\n').length - 1, durationMs: f.durationMs, spoolRef: SPOOL_REF }, body.text);
  };

  const fixtures = loadFixtures().map((f) => {
    const meta = JSON.parse(readFileSync(path.join(RECORDED, `${f.name}.json`), 'utf8')) as { cwd?: string; durationMs?: number };
    const pipedFile = path.join(RECORDED, `${f.name}.piped`);
    const factsFile = path.join(RECORDED, `${f.name}.facts.json`);
    // Fixtures are recorded in whichever checkout (worktree) re-recorded them: the cwd the CLI
    // shows paths relative to is the one the recording names, and the piped twin's paths (maybe
    // recorded in yet another checkout) are put back to it.
    const root = RUN_DIR.exec(f.raw.toString('utf8'))?.[1] ?? RECORDED_REPO;
    const pipedText = existsSync(pipedFile) ? readFileSync(pipedFile, 'utf8') : undefined;
    const pipedRoot = pipedText === undefined ? undefined : (RUN_DIR.exec(pipedText)?.[1] ?? path.resolve(ROOT));
    return {
      ...f,
      cwd: meta.cwd ? path.join(root, meta.cwd) : undefined,
      durationMs: meta.durationMs ?? 0,
      piped: pipedText === undefined ? undefined : sameTempNames(pipedText.split(`${pipedRoot}/`).join(`${root}/`), f.raw.toString('utf8')),
      facts: existsSync(factsFile) ? (JSON.parse(readFileSync(factsFile, 'utf8')) as Facts) : undefined,
    };
  });

  // Failing fixtures: condensed (CLI and sh_run) vs piped.
  const ratios: number[] = [];
  const mcpRatios: number[] = [];
  /** The same against (c): the piped output with its exit code, as a shell tool reports it. */
  const withExitRatios: number[] = [];
  let biggerThanWithExit = 0;
  /** Ratios of the fixtures mish condenses, and of those it shows whole (small: the text is the output and the status line). */
  const condensedRatios: number[] = [];
  const wholeRatios: number[] = [];
  let bigger = 0;
  let mcpBigger = 0;
  let factsTotal = 0;
  let factsKept = 0;
  const noPiped: string[] = [];
  for (const f of fixtures.filter((x) => x.exitCode !== 0 && x.facts && !x.name.startsWith('log-'))) {
    const texts = [condensed(f), shRun(f)];
    // A fact with an absolute path (or a frame's file URL) under the cwd counts in its relative form too (the CLI shows it so).
    // (a fact that starts inside the cwd path, `run/x/src/a.c:3: error`, counts as `src/a.c:3: error`).
    const rel = (x: string) => relativeFact(x, f.cwd);
    // Each fact in each text, and the exit code in each text's status line (its last line).
    for (const text of texts) {
      factsTotal += f.facts!.mustSurvive.length + 1;
      const status = text.replace(/\n$/, '').split('\n').pop() ?? '';
      factsKept += f.facts!.mustSurvive.filter((x) => text.includes(x) || text.includes(rel(x))).length + (new RegExp(`\\bexit ${f.exitCode}\\b`).test(status) ? 1 : 0);
    }
    if (f.piped === undefined) {
      noPiped.push(f.name);
      continue;
    }
    const [c, m] = texts.map(tok);
    const p = tok(f.piped);
    const pe = tok(withExitCode(f.piped, f.exitCode));
    withExitRatios.push(Math.max(c, m) / pe);
    if (Math.max(c, m) > pe) biggerThanWithExit++;
    (runInput(f).report.squash.verbatim ? wholeRatios : condensedRatios).push(c / p);
    const b = tok(collapsed(f.raw));
    ratios.push(c / p);
    mcpRatios.push(m / p);
    if (c > p + FAIL_OVER_PIPED_TOKENS) bigger++;
    if (m > p + FAIL_OVER_PIPED_TOKENS) mcpBigger++;
    figures.push({ name: `failing: ${f.name}: CLI condensed / piped (${c} / ${p} tokens; sh_run text ${m}; PTY collapsed ${b})`, value: c / p, unit: 'x', target: { op: '<=', value: (p + FAIL_OVER_PIPED_TOKENS) / p } });
  }
  if (ratios.length) {
    figures.push({ name: `failing: median CLI condensed / piped over ${ratios.length} fixtures`, value: median(ratios), unit: 'x', target: '<= 0.6', note: `o200k_base; CLI = what mish prints (summary with paths under the cwd relative, status line); piped = the command through a plain pipe (stdout+stderr), recorded by fixtures/record.ts --piped${noPiped.length ? `; no piped recording (not re-runnable here): ${noPiped.join(', ')}` : ''}` });
    figures.push({ name: `failing: median sh_run text / piped over ${mcpRatios.length} fixtures`, value: median(mcpRatios), unit: 'x', target: '<= 0.6', note: "sh_run's text content: the same body, sh_run's status line (no [procs] digest)" });
    figures.push({ name: `failing: fixtures whose CLI text has more tokens than piped + ${FAIL_OVER_PIPED_TOKENS}`, value: bigger, unit: `of ${ratios.length}`, target: '<= 0', note: 'issue 23: a failing run costs at most the piped output and its exit code (~5 tokens); hints are not counted here (enrichment off: the recorded trees are gone)' });
    figures.push({ name: `failing: fixtures whose sh_run text has more tokens than piped + ${FAIL_OVER_PIPED_TOKENS}`, value: mcpBigger, unit: `of ${mcpRatios.length}`, target: '<= 0' });
    figures.push({ name: `failing: median CLI condensed / piped over the ${condensedRatios.length} fixtures mish condenses`, value: median(condensedRatios), unit: 'x', note: 'the rest are small and shown whole' });
    figures.push({ name: `failing: median CLI / piped over the ${wholeRatios.length} fixtures shown whole (the output, as printed under a PTY, and the status line)`, value: median(wholeRatios), unit: 'x' });
    figures.push({ name: 'failing: fixtures whose CLI or sh_run text has more tokens than piped with its exit code (c)', value: biggerThanWithExit, unit: `of ${withExitRatios.length}`, note: `(c) = the piped output and "${withExitCode('', 1).trim()}": the least a shell tool tells an agent (Codex CLI's shell output starts so); the exit code is a must-keep fact the plain pipe (a) does not carry` });
    figures.push({ name: 'failing: median of the larger of CLI and sh_run / piped with its exit code (c)', value: median(withExitRatios), unit: 'x' });
  } else skipped.push({ name: 'failing vs piped', reason: 'no <fixture>.piped recorded (npx tsx fixtures/record.ts --piped <names>)' });
  if (factsTotal) figures.push({ name: 'failing: must-keep facts kept in the CLI and sh_run texts (errors with locations, failing tests, counts, exit code)', value: (100 * factsKept) / factsTotal, unit: '%', target: '>= 100', note: `${factsKept} of ${factsTotal} (fixtures' facts files + the exit code in the status line, each in both texts)` });

  // Small successful outputs: overhead over the raw text.
  const overheads: number[] = [];
  const mcpOverheads: number[] = [];
  for (const f of fixtures.filter((x) => x.exitCode === 0 && !x.large)) {
    const screen = collapsed(f.raw);
    if (screen.split('\n').length - 1 > SMALL_LINES) continue;
    overheads.push(tok(condensed(f)) - tok(screen));
    mcpOverheads.push(tok(shRun(f)) - tok(screen));
  }
  if (overheads.length) {
    const note = 'text tokens minus the raw text (final screen) tokens; recorded durations (the status line names one from 1 s on)';
    figures.push({ name: `small successful (<= ${SMALL_LINES} lines): median CLI overhead over ${overheads.length} fixtures`, value: median(overheads), unit: 'tokens', target: '<= 10', note });
    figures.push({ name: 'small successful: largest CLI overhead', value: Math.max(...overheads), unit: 'tokens', target: '<= 10' });
    figures.push({ name: `small successful (<= ${SMALL_LINES} lines): median sh_run overhead over ${mcpOverheads.length} fixtures`, value: median(mcpOverheads), unit: 'tokens', target: '<= 10', note });
    figures.push({ name: 'small successful: largest sh_run overhead', value: Math.max(...mcpOverheads), unit: 'tokens', target: '<= 10' });
  }

  // Noisy successful fixtures: reduction against (a) where recorded, else (b).
  const vsPiped: number[] = [];
  const vsCollapsed: number[] = [];
  for (const f of fixtures.filter((x) => x.exitCode === 0 && !x.name.startsWith('log-'))) {
    const screen = collapsed(f.raw);
    if (tok(screen) < NOISY_MIN_TOKENS) continue;
    const c = tok(condensed(f));
    const rawTok = tok(stripVTControlCharacters(f.raw.toString('utf8')));
    const b = 100 * (1 - c / tok(screen));
    vsCollapsed.push(b);
    if (f.piped !== undefined) vsPiped.push(100 * (1 - c / tok(f.piped)));
    figures.push({ name: `noisy: ${f.name}: reduction vs ${f.piped !== undefined ? `piped ${tok(f.piped)}` : 'PTY collapsed (no piped recording)'} → ${c} tokens (PTY collapsed ${tok(screen)}, PTY with frames ${rawTok})`, value: f.piped !== undefined ? 100 * (1 - c / tok(f.piped)) : b, unit: '%' });
  }
  if (vsCollapsed.length) {
    figures.push({ name: `noisy: median reduction vs PTY collapsed (b), ${vsCollapsed.length} fixtures`, value: median(vsCollapsed), unit: '%', note: 'baseline (b): the PTY recording with overwritten frames collapsed (the line buffer\'s final screen)' });
    if (vsPiped.length) figures.push({ name: `noisy: median reduction vs piped (a), ${vsPiped.length} fixtures with a piped recording`, value: median(vsPiped), unit: '%', target: '>= 92' });
    else skipped.push({ name: 'noisy vs piped', reason: 'no noisy successful fixture has a piped recording (the large ones take minutes to rebuild; docker needs its daemon)' });
  }

  // Path lists: real programs, run now.
  const { compactPaths, expandPaths, expandPathLine } = await import('../src/main/core/compact/path-list.js');
  const { pathListLegend } = await import('../src/main/core/handlers/list-view.js');
  // `find .` in a clone as a user gets one (`git clone` from a remote: the objects in one pack), not
  // in this checkout: a worktree's .git is a file, a long-used clone's holds thousands of loose
  // objects (hashed names no notation shortens), so the figure would say where the bench ran.
  const clone = freshClone();
  if (typeof clone !== 'string') skipped.push({ name: 'path list: find . in a fresh clone', reason: clone.error });
  const lists: [string, string[], string][] = [
    ['git ls-files (this repository)', ['git', 'ls-files'], ROOT],
    ...(typeof clone === 'string' ? [['find . in a fresh clone of this repository (.git included: git clone --no-local)', ['find', '.'], clone] as [string, string[], string]] : []),
    ['find node_modules -maxdepth 3', ['find', 'node_modules', '-maxdepth', '3'], ROOT],
    ['find fixtures/projects', ['find', 'fixtures/projects'], ROOT],
    ['find node_modules/typescript', ['find', 'node_modules/typescript'], ROOT],
    ['find node_modules/@types', ['find', 'node_modules/@types'], ROOT],
    ['tar tf of fixtures/projects', ['sh', '-c', 'tar cf - fixtures/projects | tar tf -'], ROOT],
  ];
  const listReductions: number[] = [];
  let inexact = 0;
  let notAlone = 0;
  for (const [name, argv, cwd] of lists) {
    let out: string;
    try {
      out = execFileSync(argv[0], argv.slice(1), { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
    } catch (e) {
      skipped.push({ name: `path list: ${name}`, reason: (e as Error).message.split('\n')[0] });
      continue;
    }
    const paths = out.replace(/\n$/, '').split('\n');
    const compact = compactPaths(paths);
    if (JSON.stringify(expandPaths(compact)) !== JSON.stringify(paths)) inexact++;
    // Issue 23: each path's directory and name on one line (each line read alone gives the list).
    if (JSON.stringify(compact.split('\n').flatMap((l: string) => expandPathLine(l))) !== JSON.stringify(paths)) notAlone++;
    // What the agent reads: the legend line (it says the list is complete and how to read it), then the list.
    const shown = `${pathListLegend(paths.length, compact)}\n${compact}\n`;
    const pct = 100 * (1 - tok(shown) / tok(out));
    listReductions.push(pct);
    figures.push({ name: `path list: ${name} (${paths.length} paths, ${tok(out)} → ${tok(shown)} tokens with the legend)`, value: pct, unit: '%' });
  }
  if (typeof clone === 'string') rmSync(path.dirname(clone), { recursive: true, force: true });
  // Loose objects, for the record (not in the median): what `find .` adds in a clone used for a while.
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const out = execFileSync('find', ['objects', '-path', 'objects/pack', '-prune', '-o', '-path', 'objects/info', '-prune', '-o', '-print'], { cwd: common, encoding: 'utf8', maxBuffer: 1 << 30 });
    const paths = out.replace(/\n$/, '').split('\n');
    const compact = compactPaths(paths);
    const shown = `${pathListLegend(paths.length, compact)}\n${compact}\n`;
    if (paths.length > 1) figures.push({ name: `path list (not in the median): find objects in this repository's .git (${paths.length} loose objects and their directories, ${tok(out)} → ${tok(shown)} tokens: 38 hex digits a name)`, value: 100 * (1 - tok(shown) / tok(out)), unit: '%' });
  } catch (e) {
    skipped.push({ name: 'path list: loose objects', reason: (e as Error).message.split('\n')[0] });
  }
  if (listReductions.length) {
    figures.push({ name: `path lists: median reduction over ${listReductions.length} lists`, value: median(listReductions), unit: '%', target: '>= 60', note: 'compact path notation (src/main/core/compact/path-list.ts) with its one-line legend vs the plain list, the programs run at bench time' });
    figures.push({ name: 'path lists not recovered exactly by expandPaths', value: inexact, unit: `of ${listReductions.length}`, target: '<= 0' });
    figures.push({ name: 'path lists with a path not readable from its own line', value: notAlone, unit: `of ${listReductions.length}`, target: '<= 0', note: 'every line expanded alone (expandPathLine): the lines\' paths in order must be the list' });
  }

  // Logs.
  const logReductions: number[] = [];
  let levelLines = 0;
  let levelKept = 0;
  for (const f of fixtures.filter((x) => x.name.startsWith('log-'))) {
    const text = condensed(f);
    const base = f.piped ?? collapsed(f.raw);
    const lines = base.split('\n').length - 1;
    const pct = 100 * (1 - tok(text) / tok(base));
    const facts = f.facts?.mustSurvive ?? [];
    levelLines += facts.length;
    levelKept += facts.filter((x) => text.includes(x) || text.includes(relativeFact(x, f.cwd))).length;
    if (lines >= LOG_MIN_LINES) logReductions.push(pct);
    figures.push({ name: `log: ${f.name} (${lines} lines, ${tok(base)} → ${tok(text)} tokens vs ${f.piped !== undefined ? 'piped' : 'PTY collapsed'})`, value: pct, unit: '%' });
  }
  if (logReductions.length) figures.push({ name: `logs of >= ${LOG_MIN_LINES} lines: median reduction over ${logReductions.length}`, value: median(logReductions), unit: '%', target: '>= 95' });
  if (levelLines) figures.push({ name: 'logs: ERROR/WARN lines (and the INFO line with an error word) kept', value: (100 * levelKept) / levelLines, unit: '%', target: '>= 100', note: `${levelKept} of ${levelLines}` });
  return { figures, skipped };
}
