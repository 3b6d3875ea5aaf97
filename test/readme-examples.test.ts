/**
 * The documentation's examples are real: README.md and every page of docs/ are read, and
 *
 * - each `$ mish …` example in a fenced block is re-run with the built CLI in the scenario the
 *   block names (an `<!-- examples: NAME -->` line just above the block: a scratch git repository,
 *   the checkout, a fixture project, …), and its lines must match what the page shows. In the
 *   page's lines `...` (or a line that is only `…`) stands for lines left out, a `…` inside a
 *   line for text left out, `  # …` lines and `  # …` line ends are comments. The run time and
 *   the spool id in a status line (`[exit 2 · 4s · 18 lines · mish raw 3iu4qb44a]`) and the
 *   timestamps Python's logging prints differ on every run and are compared as placeholders.
 * - every other `mish …` / `node bin/mish.js …` command line in a fenced block names a real
 *   subcommand, and each option it uses is in that subcommand's `--help`; the read-only ones
 *   (`mish audit …`, `mish ps …`) also run, in a temp HOME, and must succeed.
 * - every policy file shown in a ```toml block with `[[rule]]` passes `mish policy check`.
 *
 * Catches drift when output, a command or an option changes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { safeHome } from './helpers/safe-home.js';
import { missing, named } from './helpers/skip.js';

const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'dist', 'mish.mjs');
// dist/mish.mjs is rebuilt when older than its sources by the vitest global setup (test/helpers/global-setup.ts).

/** The pages whose examples are tested: the README and every page of docs/. */
const PAGES = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** The examples run with a temp HOME holding canaries: one of them is `mish rm -rf ~/`. */
const safe = safeHome('readme');
const scratch: string[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

interface Example {
  line: string;
  expected: string[];
}

interface Block {
  page: string;
  /** 1-based line of the block's opening fence. */
  at: number;
  lang: string;
  scenario?: string;
  lines: string[];
  examples: Example[];
}

/** Fenced blocks of a page, with the `<!-- examples: NAME -->` line above each when there is one. */
function blocks(page: string): Block[] {
  const text = readFileSync(path.join(root, page), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < text.length; i++) {
    const open = /^```(\w*)\s*$/.exec(text[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < text.length && !text[end].startsWith('```')) end++;
    const above = i > 0 ? /^<!-- examples: ([\w-]+) -->$/.exec(text[i - 1].trim()) : null;
    const lines = text.slice(i + 1, end);
    out.push({ page, at: i + 1, lang: open[1], scenario: above?.[1], lines, examples: examplesOf(lines) });
    i = end;
  }
  return out;
}

/** The `$ mish …` examples of a block with the lines each shows (trailing blank lines dropped). */
function examplesOf(lines: string[]): Example[] {
  const out: Example[] = [];
  for (const line of lines) {
    const cmd = /^\$ (mish .*?)(?:\s{2,}#.*)?$/.exec(line);
    if (cmd) out.push({ line: cmd[1].trim(), expected: [] });
    else if (out.length && !/^\s+#/.test(line)) out[out.length - 1].expected.push(line);
  }
  for (const ex of out) while (ex.expected.length && ex.expected[ex.expected.length - 1].trim() === '') ex.expected.pop();
  return out;
}

/** What differs on every run, as placeholders: run time and spool id in a status line, logging timestamps. */
function normalise(line: string): string {
  let l = line.replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}/g, '<time>');
  if (/^\[exit /.test(l)) l = l.replace(/ · (?:\d+m\d{2}s|\d+(?:\.\d+)?s)(?= · |\])/, '').replace(/mish raw [0-9a-z]+/, 'mish raw <id>');
  return l;
}

/** Does one output line match one page line (`…` inside it matches any text)? */
function lineMatches(actual: string, expected: string): boolean {
  if (!expected.includes('…')) return actual === expected;
  const re = expected.split('…').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${re}$`, 's').test(actual);
}

/** Do the output lines match the page's lines (`...` or a lone `…` matches any run of lines)? */
function matches(actual: string[], expected: string[]): boolean {
  const memo = new Map<string, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let r: boolean;
    if (j === expected.length) r = i === actual.length;
    else if (expected[j].trim() === '...' || expected[j].trim() === '…') {
      r = false;
      for (let k = i; k <= actual.length && !r; k++) r = go(k, j + 1);
    } else r = i < actual.length && lineMatches(actual[i], expected[j]) && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

/** The commit docs/grammars.md's path listings (`git ls-files`, `find`) were recorded at. */
const LISTINGS_COMMIT = '1263df9a23b51d18ed27fbd27d968b51cfa635cf';

const GIT_ENV = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@a', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@a' };

/** Where a block's examples run: each returns the working directory, made fresh for the block. */
const SCENARIOS: Record<string, { why: string; setup: () => string }> = {
  // The scratch repository the router block was recorded in.
  'scratch-repo': {
    why: missing('git'),
    setup: () => {
      const repo = tempDir('mish-readme-');
      const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV } });
      git('init', '-q', '-b', 'master');
      writeFileSync(path.join(repo, 'notes.txt'), 'notes\n');
      git('add', '.');
      git('commit', '-qm', 'notes');
      writeFileSync(path.join(repo, 'notes.txt'), 'notes\nmore\n');
      writeFileSync(path.join(repo, 'new.txt'), 'n\n');
      return repo;
    },
  },
  // A file with two type errors, checked by the checkout's own tsc (node_modules/.bin is on PATH).
  'tsc-main': {
    why: '',
    setup: () => {
      const dir = tempDir('mish-readme-tsc-');
      writeFileSync(path.join(dir, 'main.ts'), 'const count: number = "3";\nconst label = "n";\nconsole.log(lable, count);\n');
      return dir;
    },
  },
  // The checkout's sources as of the commit the listings were recorded at (so a file added
  // later does not change them), in a git repository of its own; the checkout itself when that
  // commit is not in this clone (a shallow one).
  checkout: {
    why: missing('git'),
    setup: () => {
      const inRoot = (...args: string[]) => spawnSync('git', args, { cwd: root, env: { ...process.env, ...GIT_ENV } });
      if (inRoot('cat-file', '-e', `${LISTINGS_COMMIT}^{commit}`).status !== 0) return root;
      const dir = tempDir('mish-readme-checkout-');
      execFileSync('sh', ['-c', `git -C "$1" archive "$2" src fixtures/projects | tar -x -C "$3"`, 'sh', root, LISTINGS_COMMIT, dir]);
      const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV } });
      git('init', '-q', '-b', 'main');
      git('add', '-A');
      git('commit', '-qm', 'sources');
      return dir;
    },
  },
  // The logging fixture project.
  'log-python': { why: missing('python3'), setup: () => path.join(root, 'fixtures/projects/log-python') },
  // An empty directory (commands that only read their arguments, such as mish policy explain).
  empty: { why: '', setup: () => tempDir('mish-readme-empty-') },
};

/** The environment every documented command runs with: temp HOME, spool and audit log, no colour. */
function docEnv(spool: string): Record<string, string> {
  return safe.env({
    ...GIT_ENV,
    NO_COLOR: '1',
    PATH: `${path.join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
    MISH_SPOOL_DIR: spool,
    MISH_AUDIT_LOG: path.join(spool, 'audit.jsonl'),
    MISH_NO_OPERATOR_SOCKET: '1',
  });
}

/**
 * Run a documented command line as bash would, `mish` being the built CLI. No controlling
 * terminal (setsid): the dangerous and interactive examples are the refusals.
 */
function runLine(line: string, cwd: string, spool: string): { out: string[]; status: number | null } {
  const script = `mish() { "$MISH_DOC_NODE" "$MISH_DOC_BUNDLE" "$@"; }\n${line}`;
  const r = spawnSync('setsid', ['-w', 'bash', '-c', script], {
    cwd,
    encoding: 'utf8',
    env: { ...docEnv(spool), MISH_DOC_NODE: process.execPath, MISH_DOC_BUNDLE: bundle },
    timeout: 120_000,
  });
  return { out: `${r.stdout}${r.stderr}`.replace(/\n$/, '').split('\n'), status: r.status };
}

const ALL = PAGES.flatMap(blocks);
const WITH_EXAMPLES = ALL.filter((b) => b.examples.length > 0);

afterAll(() => {
  safe.dispose();
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe('documentation examples', () => {
  it('every docs page is read, and the README links to each', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const docs = PAGES.filter((p) => p.startsWith('docs/'));
    expect(docs.length).toBeGreaterThanOrEqual(11);
    for (const p of docs) expect(readme, `README.md links to ${p}`).toContain(`](${p})`);
    expect(readme.split('\n').length, 'README.md is the front door: at most 200 lines').toBeLessThanOrEqual(200);
  });

  it('every block of `$ mish` examples names a scenario the test knows', () => {
    for (const b of WITH_EXAMPLES) expect(Object.keys(SCENARIOS), `${b.page}:${b.at} needs <!-- examples: NAME --> above it`).toContain(b.scenario);
  });

  it('the router block shows every category (what the README tested before the split)', () => {
    const router = WITH_EXAMPLES.find((b) => b.page === 'docs/cli.md' && b.scenario === 'scratch-repo' && b.examples.some((e) => e.line === 'mish rm -rf ~/'));
    expect(router?.examples.map((e) => e.line)).toEqual(['mish cp notes.txt backup.txt', 'mish git status', 'mish git diff', 'mish cat missing.txt', 'mish rm -rf ~/', 'mish vim notes.txt']);
  });

  for (const page of PAGES) {
    const mine = WITH_EXAMPLES.filter((b) => b.page === page);
    if (mine.length === 0) continue;
    const why = mine.map((b) => SCENARIOS[b.scenario ?? '']?.why ?? '').find((w) => w !== '') ?? '';
    it.skipIf(why !== '')(named(`${page}: every \`$ mish\` example matches what mish prints today`, why), () => {
      for (const b of mine) {
        const cwd = SCENARIOS[b.scenario!].setup();
        const spool = tempDir('mish-readme-spool-');
        for (const ex of b.examples) {
          const actual = runLine(ex.line, cwd, spool).out.map(normalise);
          const expected = ex.expected.map((l) => normalise(l.replaceAll('/root/', `${safe.home}/`)));
          expect(matches(actual, expected), `${page}:${b.at} $ ${ex.line}\n--- page\n${expected.join('\n')}\n--- actual\n${actual.join('\n')}`).toBe(true);
        }
      }
      safe.assertCanariesIntact();
    }, 240_000);
  }
});

/** A documented command line's mish arguments: after `node …bin/mish.js` or the last word `mish`, its comment dropped. */
function mishArgs(line: string): string[] | undefined {
  if (line.startsWith('$ ') || /^\s*#/.test(line)) return undefined;
  const code = line.replace(/\s+#\s.*$/, '');
  const node = /\bnode \S*bin\/mish\.js((?:\s+\S+)*)$/.exec(code);
  const bare = /(?:^|\s)mish((?:\s+\S+)+)$/.exec(code);
  const m = node ?? bare;
  if (!m) return undefined;
  const args = m[1].trim().split(/\s+/);
  // `claude mcp add --scope user mish -- mish serve`: the last `mish` is the command.
  const last = args.lastIndexOf('mish');
  return !node && last >= 0 ? args.slice(last + 1) : args;
}

const SUBCOMMANDS = ['serve', 'console', 'ps', 'raw', 'policy', 'approvals', 'attach', 'audit', 'init', 'doctor', 'hook'];
/** Subcommands that only read, run for real in a temp HOME. */
const READ_ONLY = new Set(['audit', 'ps']);

describe('documented command lines', () => {
  const commands = ALL.filter((b) => ['sh', ''].includes(b.lang)).flatMap((b) =>
    b.lines.flatMap((l) => {
      const args = mishArgs(l);
      return args ? [{ where: `${b.page}:${b.at}`, line: l, args }] : [];
    }),
  );

  it('name a real subcommand, with options its --help lists', () => {
    expect(commands.length).toBeGreaterThan(10);
    const spool = tempDir('mish-readme-spool-');
    const helps = new Map<string, string>();
    const help = (sub: string[]): string => {
      const key = sub.join(' ');
      if (!helps.has(key)) {
        const r = runLine(`mish ${key} --help`, root, spool);
        expect(r.status, `mish ${key} --help\n${r.out.join('\n')}`).toBe(0);
        helps.set(key, r.out.join('\n'));
      }
      return helps.get(key)!;
    };
    for (const c of commands) {
      const sub = SUBCOMMANDS.includes(c.args[0]) ? c.args.slice(0, c.args[0] === 'audit' && c.args[1] === 'verify' ? 2 : 1) : [];
      const text = help(sub);
      const options = sub.length ? c.args.slice(sub.length) : c.args.slice(0, c.args.findIndex((a) => !a.startsWith('-')));
      for (const o of options.filter((a) => /^--?[a-z]/.test(a))) {
        const flag = o.replace(/^\[/, '').replace(/[\]=].*$/, '');
        expect(text, `${c.where}: ${c.line}: ${flag} is not in mish ${sub.join(' ')} --help`).toContain(flag);
      }
    }
  });

  it('the read-only ones (mish audit …, mish ps …) run and succeed', () => {
    const spool = tempDir('mish-readme-spool-');
    // An optional `[--json]` runs both ways: without it and with it.
    const ran = commands
      .filter((c) => READ_ONLY.has(c.args[0]) && !c.args.some((a) => a.includes('<')))
      .flatMap((c) => [c.args.filter((a) => !a.startsWith('[')), c.args.map((a) => a.replace(/^\[(.*)\]$/, '$1'))].map((args) => ({ ...c, args })));
    const lines = new Set(ran.map((c) => c.args.join(' ')));
    expect([...lines]).toEqual(expect.arrayContaining(['audit', 'audit verify', 'ps', 'ps --json']));
    for (const c of ran) {
      const r = runLine(`mish ${c.args.join(' ')}`, root, spool);
      expect(r.status, `${c.where}: mish ${c.args.join(' ')}\n${r.out.join('\n')}`).toBe(0);
    }
  });

  it('the policy files shown pass mish policy check', () => {
    const files = ALL.filter((b) => b.lang === 'toml' && b.lines.some((l) => l.startsWith('[[rule]]')));
    expect(files.length).toBeGreaterThan(0);
    const spool = tempDir('mish-readme-spool-');
    for (const b of files) {
      const file = path.join(spool, `policy-${b.at}.toml`);
      writeFileSync(file, `${b.lines.join('\n')}\n`);
      const r = runLine(`mish policy check '${file}'`, root, spool);
      expect(r.status, `${b.page}:${b.at}\n${r.out.join('\n')}`).toBe(0);
    }
  });
});
