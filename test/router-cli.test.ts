/**
 * The category router through the real `mish` CLI (dist/mish.mjs), as a person or a hook runs
 * it: compound lines switching grammars, interactive programs and dangerous-command questions
 * on a real terminal (a PTY driving `mish`), the same without a terminal (a new session with
 * no controlling tty: `setsid`), bad input, and the large-output cut read back with `mish raw`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodePtyPort } from '../src/main/platform/node-pty-port.js';
import { safeHome, type SafeHome } from './helpers/safe-home.js';
import { itUnless, missing } from './helpers/skip.js';
import { withoutDuration } from './helpers/status-line.js';

const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'dist', 'mish.mjs');
let base: string;
let work: string;
let spoolDir: string;
/** Every run here has a temp HOME with canaries: the dangerous-line tests type `rm -rf *` and `rm -rf ~/*`. */
let safe: SafeHome;

/** SHELL picks the shell of `mish "…"` lines: bash unless a test says zsh, whatever the developer's is. */
const env = (shell = '/bin/bash') => safe.env({ SHELL: shell, MISH_SPOOL_DIR: spoolDir, MISH_AUDIT_LOG: path.join(spoolDir, 'audit.jsonl'), NO_COLOR: '1', TERM: 'xterm-256color' });

/** `mish …` without a controlling terminal (setsid): what an agent's pipe or CI gets. */
function mish(args: string[], opts: { cwd?: string; input?: string; shell?: string } = {}) {
  const r = spawnSync('setsid', ['-w', process.execPath, bundle, ...args], { cwd: opts.cwd ?? work, input: opts.input ?? '', encoding: 'utf8', env: env(opts.shell), timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface Step {
  /** Wait until the screen (everything so far) contains this… */
  when: string;
  /** …then type this. */
  send: string;
}

/** `mish …` on a real terminal: a PTY of 100x30, typing each step's answer when its prompt shows. */
function onTerminal(args: string[], steps: Step[], cwd = work): Promise<{ code: number; screen: string }> {
  return new Promise((resolve, reject) => {
    const p = nodePtyPort.spawn(process.execPath, [bundle, ...args], { cwd, env: env(), cols: 100, rows: 30 });
    let screen = '';
    let next = 0;
    let seenUpTo = 0;
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`timed out; screen so far:\n${screen}`));
    }, 30_000);
    p.onData((d) => {
      screen += Buffer.from(d).toString('utf8');
      const s = steps[next];
      const at = s ? screen.indexOf(s.when, seenUpTo) : -1;
      if (s && at >= 0) {
        next++;
        seenUpTo = at + s.when.length;
        p.write(s.send);
      }
    });
    p.onExit((e) => {
      clearTimeout(timer);
      resolve({ code: e.exitCode, screen });
    });
  });
}

beforeAll(() => {
  // dist/mish.mjs is rebuilt when older than its sources by the vitest global setup (test/helpers/global-setup.ts).
  safe = safeHome('router-cli');
  base = safe.home;
  work = safe.cwd;
  spoolDir = path.join(base, 'spool');
});
afterAll(() => {
  safe.assertCanariesIntact();
  safe.dispose();
});

describe.each([
  ['bash', '/bin/bash'],
  ['zsh', '/usr/bin/zsh'],
])('compound lines switch grammars per segment (SHELL=%s)', (name, shell) => {
  const dir = path.join(tmpdir(), `mish-switch-${name}-${process.pid}`);
  beforeAll(() => {
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'Makefile'), 'all:\n\t@echo building\n\t@false\n');
    writeFileSync(path.join(dir, 'bad.c'), 'int main(void) { return undefined_thing; }\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('make, then cc: each segment is classified by its own grammar', () => {
    const r = mish(['--json', 'make; cc -c bad.c'], { cwd: dir, shell });
    const j = JSON.parse(r.out);
    expect(j.category).toBe('condense');
    expect(j.grammars).toEqual(['make', 'c-compiler']);
    // make's failure matched by the make grammar, the compiler error by the c-compiler grammar.
    expect(j.summary.hazards.map((h: { rule: string }) => h.rule)).toEqual(['make-error', 'c-error']);
    expect(r.code).toBe(1);
    const human = mish(['make; cc -c bad.c'], { cwd: dir, shell });
    expect(human.out).toMatch(/bad\.c:1:\d+: error: .undefined_thing. undeclared/);
    expect(human.out).toMatch(/make: \*\*\* \[Makefile:3: all\] Error 1/);
  });

  it('make || cc: both parts of one && / || list switch too (one zsh sublist), exit code of the last', () => {
    const r = mish(['--json', 'make || cc -c bad.c && echo never'], { cwd: dir, shell });
    const j = JSON.parse(r.out);
    expect(j.grammars).toEqual(['make', 'c-compiler']);
    expect(j.summary.hazards.map((h: { rule: string }) => h.rule)).toEqual(['make-error', 'c-error']);
    expect(r.code).toBe(1);
    const ok = mish(['--json', 'make -v | head -1 && cc -c bad.c 2>&1 | cat'], { cwd: dir, shell });
    expect(JSON.parse(ok.out).grammars).toEqual(['make', 'c-compiler']);
    expect(ok.code).toBe(0); // a pipeline's status is its last command's
  });

  it(`subshells, $(…), backticks, heredocs and assignments run as ${name} runs them`, () => {
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'sub/f.txt'), 'inside\n');
    const line = 'X=one; (cd sub && cat f.txt) && echo "$X $(echo two) `echo three`" && cat <<EOF\nfour $X\nEOF';
    const r = mish([line], { cwd: dir, shell });
    const plain = execFileSync(shell, ['-c', line], { cwd: dir, encoding: 'utf8' });
    expect(plain).toBe('inside\none two three\nfour one\n');
    expect(withoutDuration(r.out)).toBe(`${plain}[exit 0]\n`);
    expect(r.code).toBe(0);
  });
});

describe('the shell of a quoted line', () => {
  it('zsh users get zsh: what only zsh understands works; other shells get bash', () => {
    const line = 'x=mish && print -r -- ${(U)x} ${ZSH_VERSION:+zsh}';
    const z = mish([line], { shell: '/usr/bin/zsh' });
    expect(withoutDuration(z.out)).toBe('MISH zsh\n[exit 0]\n');
    expect(z.code).toBe(0);
    for (const shell of ['/bin/bash', '/usr/bin/dash', '/usr/bin/fish']) {
      const r = mish([line], { shell });
      expect(r.out).toMatch(/bad substitution/);
      expect(r.code).toBe(1);
    }
  });

  it('unquoted arguments reach the program as given in zsh too (=x is not a path lookup)', () => {
    const r = mish(['echo', '=x', 'a b'], { shell: '/usr/bin/zsh' });
    expect(withoutDuration(r.out)).toBe('=x a b\n[exit 0]\n');
    expect(r.code).toBe(0);
  });
});

describe('interactive programs on a real terminal', () => {
  it('less gets the whole terminal, then one summary line', async () => {
    writeFileSync(path.join(work, 'page.txt'), 'first page line\nsecond page line\n');
    const r = await onTerminal(['less', 'page.txt'], [{ when: 'second page line', send: 'q' }]);
    expect(r.code).toBe(0);
    expect(r.screen).toContain('\x1b[?1049h'); // less switched to the alternate screen: it had the terminal
    expect(r.screen).toContain('first page line');
    expect(r.screen).toMatch(/→ less: interactive session [\d.]+s, exit 0\r\n$/);
  });

  it('a python3 REPL answers what is typed, and its exit code is kept', async () => {
    const r = await onTerminal(['python3', '-q'], [
      { when: '>>> ', send: 'print(6*7)\r' },
      { when: '>>> ', send: 'import sys; sys.exit(3)\r' },
    ]);
    expect(r.screen).toContain('42');
    expect(r.screen).toMatch(/→ python3: interactive session [\d.]+s, exit 3\r\n$/);
    expect(r.code).toBe(3);
  });

  it('a program not known to be interactive that takes the full screen is handed the terminal', async () => {
    // tput smcup/rmcup: the alternate-screen switch every full-screen program starts with.
    const line = "sh -c 'tput smcup; echo painted; read answer; echo got $answer; tput rmcup; exit 4'";
    const r = await onTerminal([line], [{ when: 'painted', send: 'yes\r' }]);
    expect(r.screen).toContain('\x1b[?1049h');
    expect(r.screen).toContain('got yes');
    expect(r.screen).toMatch(/→ sh: full-screen session [\d.]+s, exit 4\r\n$/);
    expect(r.code).toBe(4);
    // Without a terminal the same line is condensed as usual.
    const plain = mish([line], { input: 'no\n' });
    expect(plain.out).toMatch(/\n\[exit 4\]\n$/);
    expect(plain.out).toContain('got no');
  });

  it('a script waiting for one key (read -n1: the terminal leaves canonical mode) is handed the terminal', async () => {
    writeFileSync(path.join(work, 'ask.sh'), 'echo preparing\necho "step 2"\nread -n1 -p "Continue? " k\necho\necho "answer was $k"\nexit 3\n');
    const r = await onTerminal(['bash', 'ask.sh'], [{ when: 'Continue? ', send: 'y' }]);
    // The output so far is replayed and the prompt shown as written (not condensed to `? Continue?`).
    expect(r.screen.replace(/\r/g, '')).toContain('preparing\nstep 2\nContinue? y\nanswer was y\n');
    expect(r.screen).not.toContain('? Continue');
    expect(r.screen).toMatch(/→ bash: interactive session [\d.]+s, exit 3\r\n$/);
    expect(r.code).toBe(3);
  });

  it('a raw-mode menu (setRawMode, arrow keys, no alternate screen) is driven by the keyboard', async () => {
    writeFileSync(
      path.join(work, 'menu.js'),
      [
        "const items = ['react', 'vue', 'svelte'];",
        'let at = 0;',
        "const draw = () => items.map((it, k) => `\\x1b[2K${k === at ? '❯' : ' '} ${it}\\n`).join('');",
        'process.stdout.write(`? Select a framework ›\\n${draw()}`);',
        'process.stdin.setRawMode(true);',
        'process.stdin.resume();',
        "process.stdin.on('data', (d) => {",
        '  const key = d.toString();',
        "  if (key === '\\x1b[B' || key === '\\x1b[A') {",
        "    at = (at + (key === '\\x1b[B' ? 1 : items.length - 1)) % items.length;",
        '    process.stdout.write(`\\x1b[${items.length}A${draw()}`);',
        "  } else if (key === '\\r') {",
        '    process.stdin.setRawMode(false);',
        '    process.stdout.write(`chose ${items[at]}\\n`);',
        '    process.exit(0);',
        "  } else if (key === '\\x03') process.exit(130);",
        '});',
      ].join('\n'),
    );
    const r = await onTerminal(['node', 'menu.js'], [
      { when: '  svelte', send: '\x1b[B' }, // arrow down: the selection moves from react to vue
      { when: '❯ vue', send: '\r' },
    ]);
    expect(r.screen).toContain('? Select a framework ›');
    expect(r.screen).toContain('chose vue');
    expect(r.screen).toMatch(/→ node: interactive session [\d.]+s, exit 0\r\n$/);
    expect(r.code).toBe(0);
  });

  it('a password prompt (read -s: echo off, still canonical) stays condensed, the secret forwarded and never shown', async () => {
    const r = await onTerminal(['read -s -p "Password: " pw; echo; echo "length ${#pw}"'], [{ when: 'Password:', send: 'hunter22\r' }]);
    expect(r.screen).toContain('? Password:'); // the condensed path's prompt line
    expect(r.screen).toMatch(/\[exit 0\]/);
    expect(r.screen).toContain('length 8');
    expect(r.screen).not.toContain('hunter22');
    expect(r.screen).not.toContain('interactive session');
    expect(r.code).toBe(0);
  });

  it('a question of no known shape is shown while the command reads the answer; a quiet line that asks nothing is not', async () => {
    const ask = "a = input('package name: (demo) '); b = input('version: (1.0.0) '); print('answers', a, b or 'default')";
    const r = await onTerminal(['python3', '-c', ask], [
      { when: '? package name: (demo)', send: 'web\r' },
      { when: '? version: (1.0.0)', send: '\r' },
    ]);
    expect(r.screen.match(/\? package name/g)).toHaveLength(1);
    // The answer appears as it is typed (the tty's echo), before the next question, and once in the summary.
    expect(r.screen.replace(/\r+\n/g, '\n')).toContain('? package name: (demo)\nweb\n? version: (1.0.0)\n\npackage name: (demo) web\n');
    expect(r.screen.match(/web/g)).toHaveLength(3); // live echo, the summary's prompt line, `answers web`
    expect(r.screen).toContain('answers web default');
    expect(r.code).toBe(0);
    const quiet = await onTerminal(['python3', '-c', "import sys, time; sys.stdout.write('Downloading... '); sys.stdout.flush(); time.sleep(1.2); print('done')"], []);
    expect(quiet.screen).toContain('Downloading... done');
    expect(quiet.screen).not.toContain('? Downloading');
  });

  it('a noisy command that pauses (terminal mode probed in each pause, still canonical) stays condensed', async () => {
    const r = await onTerminal(['for i in 1 2 3; do seq 500; sleep 0.5; done'], []);
    expect(r.screen).toMatch(/\[exit 0 (?:· \d+s )?· 1,500 lines · mish raw \w+\]/);
    expect(r.screen).not.toContain('\n250\r'); // the numbers were condensed, not passed through
    expect(r.screen).not.toContain('interactive session');
    expect(r.code).toBe(0);
  });

  it('a program in raw mode that is quiet because it computes (a spinner discarding keys) stays condensed', async () => {
    // What ora's stdin discarder does around a synchronous build step: raw mode, output, then busy and silent.
    const busy = 'process.stdin.setRawMode(true); for (let r = 0; r < 3; r++) { for (let i = 1; i <= 300; i++) console.log(`row ${r} ${i}`); const end = Date.now() + 600; while (Date.now() < end); } process.stdin.setRawMode(false); console.log("built")';
    writeFileSync(path.join(work, 'busy.js'), busy);
    const r = await onTerminal(['node', 'busy.js'], []);
    expect(r.screen).toMatch(/\[exit 0 (?:· \d+s )?· 901 lines · mish raw \w+\]/);
    expect(r.screen).not.toContain('row 1 150');
    expect(r.screen).not.toContain('interactive session');
    expect(r.code).toBe(0);
  });

  it('without a terminal: refused with advice, nothing runs', () => {
    const r = mish(['vim', 'notes.txt']);
    expect(r.code).toBe(126);
    expect(r.err).toBe('refused: vim is interactive and there is no terminal\ninstead: edit files non-interactively (sed -i, a heredoc `cat > file <<EOF`, or your own file-edit tool)\n');
    expect(existsSync(path.join(work, 'notes.txt'))).toBe(false);
  });
});

describe('dangerous lines ask on a real terminal', () => {
  const QUESTION = 'run it? [y]es / [n]o / [e]dit / [a]lways this session: ';
  const fresh = (name: string) => {
    const d = path.join(work, name);
    mkdirSync(d);
    for (const f of ['a', 'b']) writeFileSync(path.join(d, f), f);
    return d;
  };

  it('[y]es runs it', async () => {
    const d = fresh('yes');
    const r = await onTerminal(['rm -rf *'], [{ when: QUESTION, send: 'y\r' }], d);
    expect(r.screen).toMatch(/⚠ dangerous: rm -rf \*\r\n {2}- recursive delete of \/, the home directory[^\r]* \[rm-recursive-root-or-home\]: rm -rf \*\r\n/);
    expect(r.screen).toContain('→ rm: removed from ./: a, b\r\n');
    expect(r.code).toBe(0);
    expect(existsSync(path.join(d, 'a'))).toBe(false);
  });

  it('--raw asks the same question (it used to skip every check): [n]o runs nothing, [y]es runs it raw', async () => {
    const d = fresh('raw');
    const no = await onTerminal(['--raw', 'rm -rf *'], [{ when: QUESTION, send: 'n\r' }], d);
    expect(no.screen).toContain('[rm-recursive-root-or-home]: rm -rf *');
    expect(no.code).toBe(126);
    expect(existsSync(path.join(d, 'a'))).toBe(true);
    const yes = await onTerminal(['--raw', 'rm -rf * && echo raw-done'], [{ when: QUESTION, send: 'y\r' }], d);
    expect(yes.screen).toContain('raw-done');
    expect(yes.screen).not.toContain('→ rm:');
    expect(yes.code).toBe(0);
    expect(existsSync(path.join(d, 'a'))).toBe(false);
  });

  it('[n]o refuses, exit 126, nothing runs', async () => {
    const d = fresh('no');
    const r = await onTerminal(['rm -rf *'], [{ when: QUESTION, send: 'n\r' }], d);
    // The warning is shown once, at the question; the answer gets one short line.
    expect(r.screen.split('⚠ dangerous').length - 1).toBe(1);
    expect(r.screen).toMatch(/this session: n\r\nrefused by the user; nothing was run\r\n$/);
    expect(r.code).toBe(126);
    expect(existsSync(path.join(d, 'a'))).toBe(true);
  });

  it('[e]dit runs the edited line, checked again', async () => {
    const d = fresh('edit');
    const r = await onTerminal(
      ['rm -rf *'],
      [
        { when: QUESTION, send: 'e\r' },
        { when: 'new command (empty keeps it): ', send: 'rm -rf ..\r' }, // still dangerous: asked again (~/* is forbid: it holds mish's own files)
        { when: QUESTION, send: 'e\r' },
        { when: 'new command (empty keeps it): ', send: 'rm -f a\r' },
      ],
      d,
    );
    expect(r.screen).toContain('⚠ dangerous: rm -rf ..');
    safe.assertCanariesIntact();
    expect(r.screen).toContain('→ rm: 1 file (1B)\r\n');
    expect(r.code).toBe(0);
    expect(existsSync(path.join(d, 'a'))).toBe(false);
    expect(existsSync(path.join(d, 'b'))).toBe(true);
  });

  it('[e]dit left unchanged asks the question again, not the whole warning', async () => {
    const d = fresh('edit-same');
    const r = await onTerminal(
      ['rm -rf *'],
      [
        { when: QUESTION, send: 'e\r' },
        { when: 'new command (empty keeps it): ', send: '\r' },
        { when: QUESTION, send: 'n\r' },
      ],
      d,
    );
    expect(r.screen.split('⚠ dangerous').length - 1).toBe(1);
    expect(r.code).toBe(126);
    expect(existsSync(path.join(d, 'a'))).toBe(true);
  });

  it('[a]lways runs it (approval kept in memory for this session only)', async () => {
    const d = fresh('always');
    const r = await onTerminal(['rm -rf *'], [{ when: QUESTION, send: 'a\r' }], d);
    expect(r.screen.split(QUESTION).length - 1).toBe(1);
    expect(r.screen).toContain('→ rm: removed from ./: a, b\r\n');
    expect(r.code).toBe(0);
    expect(existsSync(path.join(d, 'b'))).toBe(false);
    // The next `mish` is another session: the approval is gone, the same line is asked about again.
    const d2 = fresh('always-next');
    const next = await onTerminal(['rm -rf *'], [{ when: QUESTION, send: 'n\r' }], d2);
    expect(next.screen.split(QUESTION).length - 1).toBe(1);
    expect(next.screen).toMatch(/refused by the user; nothing was run\r\n$/);
    expect(next.code).toBe(126);
    expect(existsSync(path.join(d2, 'a'))).toBe(true);
  });

  it('an unknown answer asks again briefly', async () => {
    const d = fresh('again');
    const r = await onTerminal(['rm -rf *'], [{ when: QUESTION, send: 'maybe\r' }, { when: 'please answer y, n, e or a: ', send: 'n\r' }], d);
    expect(r.screen.split('⚠ dangerous').length - 1).toBe(1);
    expect(r.code).toBe(126);
    expect(existsSync(path.join(d, 'a'))).toBe(true);
  });

  it('without a terminal: refused with a clear message, exit 126, nothing runs', () => {
    const d = fresh('noterm');
    const r = mish([`rm -rf * ; echo ran > ${path.join(d, 'marker')}`], { cwd: d });
    expect(r.code).toBe(126);
    expect(r.err).toMatch(/^⚠ dangerous: rm -rf \* ; echo ran > .*\n {2}- recursive delete of .*\nrefused: policy says ask \(rule rm-recursive-root-or-home\); there is no terminal to ask for confirmation\n$/);
    expect(r.out).toBe('');
    expect(existsSync(path.join(d, 'a'))).toBe(true);
    expect(existsSync(path.join(d, 'marker'))).toBe(false);
  });
});

describe('^C on a terminal', () => {
  it("the tty's ^C echo is shown once, live, and is not counted as the command's output", async () => {
    // A command reading the terminal: its question is shown live, so the test knows when to press ^C.
    const r = await onTerminal([`read -p 'go on? ' x`], [{ when: '? go on?', send: '\x03' }]);
    expect(r.code).toBe(130);
    expect(r.screen).toContain('? go on?\r\n^C\r\n');
    expect(r.screen.split('^C').length - 1).toBe(1);
    // The summary: the one line the command printed (shown whole, so no raw reference), then the exit and the signal.
    expect(r.screen).toContain('^C\r\ngo on? \r\n[exit 130 SIGINT]\r\n');
  });
});

describe('redirections to a device are not file operations', () => {
  it('echo x > /dev/null says nothing about files; a real file redirection still narrates', () => {
    const devnull = mish(['echo x > /dev/null']);
    expect(devnull.code).toBe(0);
    expect(withoutDuration(devnull.out)).toBe('[exit 0]\n');
    const fd = mish(['echo hi > /dev/fd/2']);
    expect(fd.out).not.toContain('file changes');
    expect(fd.out).not.toContain('wrote');
    const cp = mish(['echo a > src.txt && cp src.txt dst.txt > /dev/null']);
    expect(cp.out).toContain('→ wrote src.txt (2B)');
    expect(cp.out).toContain('→ cp: src.txt → dst.txt (2B)');
    expect(cp.out).not.toContain('/dev/null');
  });
});

describe('bad input', () => {
  it('a line that does not parse: the position, exit 2, and nothing runs', () => {
    const r = mish([`touch made && echo "oops`]);
    expect(r.code).toBe(2);
    expect(r.err).toBe('mish: syntax error at line 1, column 20: unterminated double quote\ntouch made && echo "oops\n                   ^\nnothing was run\n');
    expect(existsSync(path.join(work, 'made'))).toBe(false);
    const pipe = mish(['touch made2 | | wc']);
    expect(pipe.code).toBe(2);
    expect(pipe.err).toContain("column 15: expected command after '|'");
    expect(existsSync(path.join(work, 'made2'))).toBe(false);
  });
});

describe('clients without their server', () => {
  itUnless(missing('docker'))('docker without a daemon: its error, exit 1', () => {
    const r = spawnSync('setsid', ['-w', process.execPath, bundle, 'docker', 'ps'], { cwd: work, encoding: 'utf8', env: { ...env(), DOCKER_HOST: `unix://${base}/none.sock` } });
    expect(r.status).toBe(1);
    expect(withoutDuration(r.stdout)).toBe(`Cannot connect to the Docker daemon at unix://${base}/none.sock. Is the docker daemon running?\n[exit 1]\n`);
  });
});

describe('large passthrough output', () => {
  it('is cut head + tail, and `mish raw` returns exactly the omitted lines', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i + 1}`);
    writeFileSync(path.join(work, 'big.log'), `${lines.join('\n')}\n`);
    const r = mish(['cat', 'big.log']);
    expect(r.code).toBe(0);
    const m = /\n\[mish: lines 1001-49000 omitted \(48000 lines, [\d.]+KB\); read them: mish raw (\w+) --lines 1001-49000\]\n/.exec(r.out);
    expect(m).not.toBeNull();
    expect(r.out.startsWith(`${lines.slice(0, 1000).join('\n')}\n[mish: lines`)).toBe(true);
    // The marker names the raw output; the status line does not again.
    expect(withoutDuration(r.out).endsWith(`]\n${lines.slice(-1000).join('\n')}\n[exit 0 · 50,000 lines]\n`)).toBe(true);
    const omitted = mish(['raw', m![1], '--lines', '1001-49000']);
    expect(omitted.out).toBe(`${lines.slice(1000, 49_000).join('\n')}\n`);
  });
});

describe('CLI on a terminal: hazards printed live are not repeated in the summary', () => {
  for (const color of [true, false]) {
    it(`${color ? 'with' : 'without'} colour, a repeated error (x2) included`, async () => {
      const args = [...(color ? ['--color'] : []), 'bash', '-c', 'echo "error: first"; seq 30; for i in 1 2; do echo "error: boom"; seq 30; done; exit 1'];
      const r = await onTerminal(args, []);
      // eslint-disable-next-line no-control-regex
      const screen = r.screen.replace(/\x1b\[[0-9;]*m/g, '');
      expect(screen.split('\n').filter((l) => l.includes('error: boom'))).toHaveLength(1);
      expect(screen.split('\n').filter((l) => l.includes('error: first'))).toHaveLength(1);
      expect(withoutDuration(screen)).toMatch(/\[exit 1 · 93 lines · 2 shown above · mish raw \w+\]/);
      expect(r.code).toBe(1);
    });
  }
});
