import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { renderSummary } from './render.js';
import { SILENCE_FLUSH_MS, Squasher } from './squasher.js';
import type { SquashEvent } from './types.js';

/** PTYs turn \n into \r\n; feed what a PTY would deliver. */
const pty = (s: string) => s.replace(/\r?\n/g, '\r\n');

function squash(input: string | Buffer, chunk = 0, exitCode = 0) {
  const sq = new Squasher({ now: () => 0 });
  const bytes = typeof input === 'string' ? Buffer.from(input) : input;
  if (!chunk) sq.write(bytes);
  else for (let i = 0; i < bytes.length; i += chunk) sq.write(bytes.subarray(i, i + chunk));
  const result = sq.finish({ exitCode });
  return { result, text: renderSummary(result) };
}

/** A squasher on a clock the test sets, collecting its live events. */
function live() {
  let t = 0;
  const events: SquashEvent[] = [];
  const sq = new Squasher({ now: () => t, onEvent: (e) => events.push(e) });
  const tickAt = (ms: number) => {
    t = ms;
    sq.tick();
  };
  return { sq, events, tickAt };
}

describe('Squasher: nothing the agent needs is lost', () => {
  it('seq 1 5000 keeps the range: first and last line and an exact count between', () => {
    const out = execFileSync('seq', ['1', '5000']).toString();
    const { result, text } = squash(pty(out));
    expect(result.totalLines).toBe(5000);
    expect(text).toMatch(/^1$/m);
    expect(text).toMatch(/^5000$/m);
    expect(text).toContain('[... 4,998 similar lines ...]');
    expect(text).not.toMatch(/\(x\d+\)/);
  });

  it('a run of identical lines says "identical", a run of different lines of one shape "similar"', () => {
    const same = squash(pty(execFileSync('bash', ['-c', 'yes hello | head -3000']).toString())).text;
    expect(same).toContain('[... 2,998 identical lines ...]');
    // 3,000 lines "item 1" but one "item 7" in the middle: one run by shape, not identical.
    const shaped = squash(pty(execFileSync('bash', ['-c', 'for i in $(seq 3000); do echo "item $((i == 1500 ? 7 : 1))"; done']).toString())).text;
    expect(shaped).toContain('[... 2,998 similar lines ...]');
    expect(shaped).not.toContain('identical');
  });

  it('never merges distinct file names into one line', () => {
    const names = Array.from({ length: 40 }, (_, i) => `report-${String.fromCharCode(97 + (i % 26))}${i}.txt`);
    const { text } = squash(pty(names.join('\n') + '\n'));
    // Names that share a template fold to first … last with a count; no name is replaced by another.
    expect(text).toContain(names[0]);
    expect(text).toContain(names[names.length - 1]);
    expect(text).not.toMatch(/report-a0\.txt \(x/);
  });

  it('keeps coloured compiler diagnostics (colour codes are not overwrites)', () => {
    const gcc =
      '\x1b[01m\x1b[Ksrc/main.c:3:5:\x1b[m\x1b[K \x1b[01;31m\x1b[Kerror: \x1b[m\x1b[K\u2018x\u2019 undeclared\n' +
      '    3 |   x = 1;\n      |   \x1b[01;31m\x1b[K^\x1b[m\x1b[K\n' +
      Array.from({ length: 50 }, (_, i) => `noise line ${i}`).join('\n') +
      '\n/home/u/proj/lib/util.c:10:1: warning: unused variable \u2018y\u2019\n';
    const { result, text } = squash(pty(gcc), 0, 1);
    expect(result.hazards.map((h) => h.severity)).toEqual(['error', 'warning']);
    expect(text).toContain('src/main.c:3:5: error: ‘x’ undeclared');
    expect(text).toContain('    3 |   x = 1;');
    // An absolute path never makes an error disappear.
    expect(text).toContain('/home/u/proj/lib/util.c:10:1: warning: unused variable');
    expect(result.exitCode).toBe(1);
  });

  it('takes bright red (SGR 91) as the colour hint that makes a keyword line a hazard', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `step ${i} done`);
    lines.splice(10, 0, '\x1b[91mbuild failed for target x\x1b[0m');
    const { result } = squash(pty(lines.join('\n') + '\n'), 0, 1);
    expect(result.hazards.map((h) => [h.severity, h.text])).toEqual([['error', 'build failed for target x']]);
  });

  it('does not call "0 errors" a hazard', () => {
    const { result } = squash(pty('Found 0 errors and no warnings.\n'));
    expect(result.hazards).toEqual([]);
  });

  it('gives the same result however the bytes are chunked (deterministic counts)', () => {
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(i % 7 === 0 ? `Compiling crate-${i} v0.${i}.0` : i % 11 === 0 ? `warning: unused import in mod${i}` : `fetch ${i} ok`);
    const input = pty(lines.join('\n') + '\n');
    const whole = squash(input).text;
    for (const chunk of [1, 3, 17, 4096]) expect(squash(input, chunk).text).toBe(whole);
  });

  it('never emits U+FFFD for UTF-8 characters split across reads', () => {
    const input = Buffer.from(pty('héllo wörld — ✓ 日本語 🎉\n'.repeat(3)));
    for (const chunk of [1, 2, 3]) expect(squash(input, chunk).text).not.toContain('\uFFFD');
    expect(squash(input, 1).text).toContain('日本語 🎉');
  });

  it('decodes exactly like one streaming TextDecoder, whatever mix of ASCII and other chunks arrives', () => {
    // ASCII chunks skip the decoder; that must never change a character: a BOM is dropped only
    // at the very start, a character split across chunks survives, invalid bytes give U+FFFD.
    const pieces = ['ab', '\uFEFF', 'é', '✓', '🎉', '\r\n', 'x y'].map((s) => Buffer.from(s));
    pieces.push(Buffer.from([0xe2, 0x9c]), Buffer.from([0xff]), Buffer.from([0x80]));
    const writes = (chunks: Buffer[]) => {
      const sq = new Squasher({ now: () => 0 });
      for (const c of chunks) sq.write(c);
      return sq.finish({ exitCode: 0 }).body.map((b) => (b.type === 'line' ? b.text : ''));
    };
    // A character cut short before an ASCII chunk: U+FFFD stays before that chunk's text.
    expect(writes([Buffer.from('a'), Buffer.from([0xe2, 0x9c]), Buffer.from('b\r\n')])).toEqual(['a\uFFFDb']);
    expect(writes([Buffer.from('a'), Buffer.from([0xe2, 0x9c]), Buffer.from([0x93]), Buffer.from('b\r\n')])).toEqual(['a✓b']);
    expect(writes([Buffer.from('a\r\n'), Buffer.from('\uFEFFb\r\n')])).toEqual(['a', '\uFEFFb']);
    expect(writes([Buffer.from('\uFEFFa\r\n'), Buffer.from('b\r\n')])).toEqual(['a', 'b']);
    let seed = 7;
    const rnd = (k: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k;
    for (let round = 0; round < 300; round++) {
      const parts: Buffer[] = [];
      for (let i = 0, n = 1 + rnd(12); i < n; i++) parts.push(pieces[rnd(pieces.length)]);
      const bytes = Buffer.concat(parts);
      const lines = new TextDecoder().decode(bytes).split('\r\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const sq = new Squasher({ now: () => 0 });
      for (let at = 0; at < bytes.length; ) {
        const n = 1 + rnd(6);
        sq.write(bytes.subarray(at, at + n));
        at += n;
      }
      const body = sq.finish({ exitCode: 0 }).body.map((b) => (b.type === 'line' ? b.text : ''));
      expect(body).toEqual(lines);
    }
  });

  it('gives the lines of the decoded text when chunks of valid UTF-8 are stripped and cut as bytes', () => {
    // Escapes around and inside characters, C1 controls (U+009B is a CSI, U+009C ends a string:
    // bytes C2 9B / C2 9C, while '✜' E2 9C 9C and 'Ŝ' C5 9C only look like them), characters
    // inside sequences (a parameter: one character, two bytes), backspaces over characters,
    // bad bytes, and lines over the length limit in bytes but not in characters.
    const parts: (string | number[])[] = ['ab ', 'é', '✓', '🎉', '⠙', '✜', 'Ŝ', '日本', '╭─', '\r\n', '\n', '\r', 'x'.repeat(300), 'ü'.repeat(200)];
    parts.push('\x1b[31m', '\x1b[1;33mwarn ', '\x1b[0m', '\x1b[1G', '\x1b[2A', '\x1b[B', '\x1b[E', '\x1b[K', '\u009b31m', '\u0085', '\u009c');
    parts.push('\x1b]0;tïtle ✜ Ŝ\x07', '\x1b]8;;http://x/ü\x1b\\', '\x1b]2;a\u009cb', '\x1bé', '\x1b(✓', '\x1b[5\u00a0A', '\x1b[3é', '日\b', '✓\b\b', '\x7f', '\x07');
    parts.push([0xff], [0xe2, 0x9c], [0x80], [0xc2]);
    const bytesOf = (p: string | number[]) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p));
    const run = (feed: (sq: Squasher) => void) => {
      const lines: string[] = [];
      const sq = new Squasher({ now: () => 0, onClassified: (l) => lines.push(`${l.kind} ${l.color} ${l.no} ${l.text}`) });
      feed(sq);
      return { lines, result: sq.finish({ exitCode: 0 }) };
    };
    const check = (bytes: Buffer, sizes: () => number) => {
      const text = new TextDecoder().decode(bytes);
      const asText = run((sq) => sq.write(text));
      const asBytes = run((sq) => {
        for (let at = 0; at < bytes.length; ) {
          const n = sizes();
          sq.write(bytes.subarray(at, at + n));
          at += n;
        }
      });
      expect(asBytes.lines).toEqual(asText.lines);
      // (`bytes` counts what was written: a bad byte is one byte, its U+FFFD three.)
      expect({ ...asBytes.result, bytes: 0 }).toEqual({ ...asText.result, bytes: 0 });
    };
    let seed = 5;
    const rnd = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % k; // (in 32 bits: a float product loses the low bits)
    // Half the rounds without C1 controls and bad bytes, so that most chunks are valid UTF-8 and come as bytes.
    const valid = parts.filter((p) => typeof p === 'string' && !/[\u0080-\u009f]/.test(p));
    for (let round = 0; round < 400; round++) {
      const from = round % 2 ? parts : valid;
      const list: Buffer[] = [Buffer.from('start\r\n')];
      for (let i = 0, n = 1 + rnd(80); i < n; i++) list.push(bytesOf(from[rnd(from.length)]));
      check(Buffer.concat(list), () => (rnd(4) === 0 ? 1 + rnd(9) : 64 + rnd(4096)));
    }
    // Over MAX_LINE_CHARS in bytes only, and in characters too.
    const long = Buffer.from(`start\r\n${'é'.repeat(40_000)}\r\nnext ✓\r\n${'é'.repeat(40_000)}\rdrawn over\r\n${'é'.repeat(70_000)}\r\nlast\r\n`);
    check(long, () => 4096);
    let first = true;
    // (The first write goes through TextDecoder, which drops a BOM only there: later ones may be bytes.)
    check(long, () => (first ? ((first = false), 'start\r\n'.length) : long.length));
  });

  it('reports the exit code and the signal for the status line', () => {
    const sq = new Squasher({ now: () => 0 });
    sq.write(Buffer.from('working\r\n'));
    // The host's status line states them (core/format/render.ts): `[exit 130 SIGINT]`.
    expect(sq.finish({ exitCode: 130, signal: 2 })).toMatchObject({ totalLines: 1, exitCode: 130, signal: 2 });
  });

  it('marks what head+tail truncation left out, with counts of errors and warnings', () => {
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) lines.push(`step ${'abcdefghij'[i % 10]}${'klmnopqrst'[Math.floor(i / 10) % 10]} done`);
    lines.splice(200, 0, 'ERROR: something broke in the middle');
    const { text } = squash(pty(lines.join('\n') + '\n'));
    expect(text).toMatch(/^ERROR: something broke in the middle$/m);
    expect(text).toMatch(/\[\.\.\. [\d,]+ lines omitted \(lines \d+-\d+\): 1 error, 0 warnings \.\.\.\]/);
  });

  it('stays bounded: 200,000 error lines give a result under 64 KB', () => {
    const sq = new Squasher({ now: () => 0 });
    const block = Buffer.from(pty(Array.from({ length: 1000 }, (_, i) => `src/f${i}.c:${i}:1: error: boom ${i}`).join('\n') + '\n'));
    for (let i = 0; i < 200; i++) sq.write(block);
    const result = sq.finish({ exitCode: 1 });
    const text = renderSummary(result);
    expect(Buffer.byteLength(text)).toBeLessThan(64 * 1024);
    expect(result.counts.hazard).toBe(200_000);
    // the block repeats 200 times: a shown error's later copies are counted on it (repeats)
    const repeats = result.hazards.reduce((n, h) => n + (h.repeats ?? 0), 0);
    expect(repeats).toBeGreaterThan(0);
    expect(result.hazardsOmitted.errors + result.hazards.length + repeats).toBe(200_000);
    expect(text).toContain('more errors');
  });

  it('a hazard repeated with the same lines is shown once with a count; one with other context is shown again', () => {
    const block = (indent: string, frame: string) => `${indent}TypeError: boom\n${indent}    at run (/app/${frame}.js:3:9)\n`;
    const filler = Array.from({ length: 30 }, (_, i) => `step ${i}`).join('\n') + '\n';
    const { sq, events } = live();
    // the recap prints the first block again, indented less; the third differs in its frame
    sq.write(Buffer.from(pty(block('  ', 'a') + filler + block('', 'a') + filler + block('', 'b'))));
    const result = sq.finish({ exitCode: 1 });
    expect(result.hazards.map((h) => [h.text, h.context, h.repeats])).toEqual([
      ['  TypeError: boom', ['      at run (/app/a.js:3:9)'], 1],
      ['TypeError: boom', ['    at run (/app/b.js:3:9)'], undefined],
    ]);
    expect(events.filter((e) => e.type === 'hazard')).toHaveLength(2);
    expect(renderSummary(result)).toMatch(/^  TypeError: boom \(x2\)\n/);
  });

  it('a 500,000-character line from a real PTY is one line, cut once with an exact count, its closing error found and shown', () => {
    const tailText = " cat: missing.txt: No such file or directory";
    const js = `for (let i = 0; i < 30; i++) console.log('step ' + i); console.log('data ' + 'x'.repeat(500000) + '${tailText}'); console.log('done')`;
    const bytes = execFileSync('script', ['-qec', `node -e "${js}"`, '/dev/null']);
    const { result, text } = squash(bytes, 4096, 1);
    expect(squash(bytes, 0, 1).text).toBe(text); // the same whatever the chunks
    expect(result.totalLines).toBe(32);
    const longLength = 'data '.length + 500_000 + tailText.length;
    expect(result.hazards.map((h) => h.severity)).toEqual(['error']);
    const shownLine = text.split('\n').find((l) => l.startsWith('✗ '))!;
    expect(shownLine).toMatch(/^✗ data x+… \[\+[\d,]+ chars\] …x+ cat: missing\.txt: No such file or directory$/);
    expect(shownLine.match(/chars\]/g)).toHaveLength(1);
    expect(shownLine).toContain(`… [+${(longLength - 400).toLocaleString('en-US')} chars] …`);
  });

  it('seq counts are the same with a 300,000-character line in the middle: one more line, runs counted exactly', () => {
    const bytes = execFileSync('script', ['-qec', `bash -c 'seq 1 2500; head -c 300000 /dev/zero | tr "\\0" y; echo; seq 2501 5000'`, '/dev/null']);
    const { result, text } = squash(bytes, 4096);
    expect(result.totalLines).toBe(5001);
    expect(text).toMatch(/^1$/m);
    expect(text).toMatch(/^5000$/m);
    expect(text).toContain(`y… [+${(300_000 - 400).toLocaleString('en-US')} chars] …y`);
    // the runs either side of it: what is shown and what is counted is every seq line
    const shownNumbers = text.split('\n').filter((l) => /^\d+$/.test(l)).length;
    const counted = [...text.matchAll(/\[\.\.\. ([\d,]+) similar lines \.\.\.\]/g)].reduce((n, m) => n + Number(m[1].replace(/,/g, '')), 0);
    expect(shownNumbers + counted).toBe(5000);
  });

  it('emits hazards live and detects a prompt on a quiet partial line', () => {
    const { sq, events, tickAt } = live();
    sq.write(Buffer.from('error: first\r\nok\r\nDo you want to continue? [Y/n] '));
    tickAt(600);
    expect(events.map((e) => e.type)).toEqual(['hazard', 'prompt']);
    expect(events[1]).toMatchObject({ type: 'prompt', text: 'Do you want to continue? [Y/n]' });
    const r = sq.finish({ exitCode: 0 });
    expect(r.finalPrompt).toBe('Do you want to continue? [Y/n]');
  });

  it('an error printed under a redrawing display is reported live once the output goes quiet', () => {
    const { sq, events, tickAt } = live();
    // a status line redrawn in place (cursor up), then an error below it
    sq.write(Buffer.from('\x1b[1A\rBuilding 1/2\r\n\x1b[1A\rBuilding 2/2\r\nerror: disk full\r\n'));
    tickAt(100);
    expect(events).toEqual([]); // the rows may still be drawn over
    tickAt(SILENCE_FLUSH_MS + 100);
    expect(events).toMatchObject([{ type: 'hazard', hazard: { text: 'error: disk full' } }]);
    const text = renderSummary(sq.finish({ exitCode: 1 }));
    expect(text).toContain('Building 2/2');
    expect(text).not.toContain('Building 1/2');
  });

  it("keeps each line a tool writes after clearing its spinner (npm pack's result line and details were dropped as spinner frames)", () => {
    // npm's bytes: `⠹ ESC[1G ESC[0K` before each line, the spinner cleared at the end; short and long, whole and byte by byte.
    const spin = '\u2839\x1b[1G\x1b[0K';
    for (const files of [2, 300]) {
      const rows = ['Tarball Contents', ...Array.from({ length: files }, (_, i) => `17B dist/f${i}.js`), 'Tarball Details', 'shasum: e099d7d68b6da0afa7a6bb5da62df4759256a0af'];
      const raw = `\u2819\x1b[1G\x1b[0K${rows.map((r) => `${spin}npm notice ${r}\r\n`).join('')}${spin}acme-ui-3.2.0.tgz\r\n${spin}`;
      for (const chunk of [0, 1]) {
        const { text } = squash(raw, chunk);
        expect(text).toContain('acme-ui-3.2.0.tgz');
        expect(text).toContain('npm notice shasum: e099d7d68b6da0afa7a6bb5da62df4759256a0af');
        expect(text).not.toContain('\u2839');
      }
    }
  });

  it('shows small outputs whole, in order', () => {
    const { result, text } = squash(pty('hello\nworld\n'));
    expect(result.verbatim).toBe(true);
    expect(text).toBe('hello\nworld\n');
  });
});

describe('paths under the cwd are shown relative (issue 13 pt 1)', () => {
  it('rewrites path starts under the cwd, leaves other text alone', async () => {
    const { renderSummary } = await import('./render.js');
    const sq = new Squasher({ now: () => 0 });
    const lines = Array.from({ length: 30 }, (_, i) => `compiling /home/me/proj/src/m${i}.c`);
    lines.push('/home/me/proj/src/lib/queue.js:12:5: error: bad thing', 'see "/home/me/proj/README.md" and /home/me/project-two/x.c', 'url file:///home/me/proj/a.js', '    at TestContext.<anonymous> (file:///home/me/proj/test/a.test.js:17:12)');
    sq.write(lines.join('\n') + '\n');
    const text = renderSummary(sq.finish({ exitCode: 1 }), { cwd: '/home/me/proj' });
    expect(text).toMatch(/^src\/lib\/queue.js:12:5: error: bad thing$/m);
    expect(text).toContain('see "README.md" and /home/me/project-two/x.c');
    expect(text).toContain('url file:///home/me/proj/a.js');
    // A stack frame's file URL is a location: relative too (a plain URL above stays a link).
    expect(text).toContain('    at TestContext.<anonymous> (test/a.test.js:17:12)');
    expect(text.split('\n').filter((l) => l.includes('/home/me/proj/'))).toEqual(['url file:///home/me/proj/a.js']);
  });

  it("shows a rule's run of eight or more as three, but keeps a tool's own mask of a value as printed (blind pass 212 L12, 208 L25)", () => {
    const { text } = squash('═══════════════ Failed Tests 1 ═══════════════\n  - Token: gho_************************************\nSettings(secret_key=SecretStr(\'**********\'))\n');
    expect(text).toContain('═══ Failed Tests 1 ═══');
    expect(text).toContain('gho_************************************');
    expect(text).toContain("SecretStr('**********')");
  });

  it("keeps a tool's mask that runs into the value's last characters whole (aws configure list's `****************QIL2`: blind pass 233 L2)", () => {
    const { text } = squash('      Name                    Value             Type    Location\n      ----                    -----             ----    --------\n   access_key     ****************QIL2 shared-credentials-file\n');
    expect(text).toContain('****************QIL2');
  });
});
