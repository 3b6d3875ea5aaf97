/**
 * A pretty-printed JSON document is data, shown in place (pretty-json.ts; adversary pass 61,
 * F48: `"level": "error",` of a Sentry event was lifted to the top of the reply, above the
 * document's `{`). On real recorded output (fixtures/recorded/json-*: `jq .` in a PTY), through
 * the squasher and renderer as sh_run builds its reply (`new Squasher({})`, the built-in
 * always-on grammar); and errors-first still holds where it is meant to (a build log).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PrettyJson } from './pretty-json.js';
import { renderSquash } from './render.js';
import { Squasher } from './squasher.js';
import type { SquashResult } from './types.js';
import { stripAnsi } from './vt-stripper.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const RECORDED = path.join(ROOT, 'fixtures', 'recorded');
const PROJECT = path.join(ROOT, 'fixtures', 'projects', 'json-event');

function squashBytes(bytes: Uint8Array | string): { r: SquashResult; text: string } {
  const sq = new Squasher({ now: () => 0 });
  sq.write(bytes);
  const r = sq.finish({ exitCode: 0 });
  return { r, text: renderSquash(r).text };
}

/** The recorded bytes of a fixture, and its lines as printed (escape sequences removed). */
function fixture(name: string): { raw: Uint8Array; lines: string[] } {
  const raw = readFileSync(path.join(RECORDED, `${name}.raw`));
  const lines = stripAnsi(raw.toString('utf8')).replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  return { raw: new Uint8Array(raw), lines };
}

const FOLD = /^\[\.\.\. .* \.\.\.\]$/;

/** The reply's lines other than fold markers must be the output's lines, in order (a subsequence). */
function expectInOrder(reply: string, output: string[]): void {
  let at = -1;
  for (const line of reply.replace(/\n$/, '').split('\n')) {
    if (FOLD.test(line)) continue;
    const next = output.indexOf(line, at + 1);
    expect(next, `"${line}" after line ${at + 1} of the output`).toBeGreaterThan(at);
    at = next;
  }
}

describe('a pretty-printed JSON document is shown in place', () => {
  it("jq . of a Sentry event (48 lines, folded): `\"level\": \"error\",` stays on line 3, under the `{`; nothing is counted as an error", () => {
    const { raw, lines } = fixture('json-sentry-event-jq');
    expect(lines[2]).toBe('  "level": "error",');
    const { r, text } = squashBytes(raw);
    expect(r.verbatim).toBe(false);
    expect(r.hazards).toEqual([]);
    expect(r.counts.hazard).toBe(0);
    const shown = text.replace(/\n$/, '').split('\n');
    expect(shown.slice(0, 3)).toEqual(lines.slice(0, 3));
    expectInOrder(text, lines);
    // The fold's header is truthful: no error was counted anywhere.
    for (const l of shown.filter((x) => FOLD.test(x))) expect(l).toMatch(/: 0 errors, 0 warnings/);
    expect(shown[shown.length - 1]).toBe('}');
  });

  it('jq --indent 4 . of a log entry (24 lines, nothing folded): the reply is the document, and it parses to the original', () => {
    const { raw, lines } = fixture('json-log-entry-jq');
    expect(lines).toContain('    "severity": "ERROR",');
    const { r, text } = squashBytes(raw);
    expect(r.verbatim).toBe(false); // past the show-whole size: the condensing path
    expect(r.hazards).toEqual([]);
    expect(text.replace(/\n$/, '').split('\n')).toEqual(lines);
    expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(path.join(PROJECT, 'log-entry.json'), 'utf8')));
  });

  it('the same documents fed in odd-sized chunks give the same reply', () => {
    for (const name of ['json-sentry-event-jq', 'json-log-entry-jq']) {
      const { raw } = fixture(name);
      const sq = new Squasher({ now: () => 0 });
      for (let i = 0; i < raw.length; i += 7) sq.write(raw.subarray(i, i + 7));
      expect(renderSquash(sq.finish({ exitCode: 0 })).text).toBe(squashBytes(raw).text);
    }
  });

  it('a long document: an error-level field in the folded middle is kept in place between the markers, not hoisted', () => {
    const events = Array.from({ length: 30 }, (_, i) => ({ id: i, level: i === 15 ? 'error' : 'info', msg: `request ${i} done` }));
    const out = JSON.stringify(events, null, 2) + '\n';
    const { r, text } = squashBytes(out.replace(/\n/g, '\r\n'));
    expect(r.hazards).toEqual([]);
    const lines = out.replace(/\n$/, '').split('\n');
    expectInOrder(text, lines);
    expect(text).toContain('    "level": "error",\n');
    expect(text.startsWith('[\n')).toBe(true);
  });

  it('a stream of documents (jq . of JSON lines): each one in place', () => {
    const docs = Array.from({ length: 6 }, (_, i) => JSON.stringify({ ts: `2026-11-30T22:14:0${i}Z`, severity: i === 4 ? 'ERROR' : 'INFO', message: `step ${i}` }, null, 2)).join('\n') + '\n';
    const { r, text } = squashBytes(docs);
    expect(r.hazards).toEqual([]);
    expectInOrder(text, docs.replace(/\n$/, '').split('\n'));
  });
});

describe('errors-first still holds outside a JSON document', () => {
  const filler = Array.from({ length: 30 }, (_, i) => `compiling module ${i} of the build`);

  it('a build log: the error in the middle is reported first', () => {
    const { r, text } = squashBytes([...filler.slice(0, 15), 'src/a.c:3:5: error: expected ‘;’ before ‘}’ token', ...filler.slice(15)].join('\n') + '\n');
    expect(r.hazards.map((h) => h.text)).toEqual(['src/a.c:3:5: error: expected ‘;’ before ‘}’ token']);
    expect(text.split('\n')[0]).toContain('error: expected');
  });

  it('a one-line JSON log event and a level field outside a document are still errors', () => {
    const line = '{"severity":"ERROR","message":"quota exceeded"}';
    const field = '  "severity": "ERROR",';
    const { r } = squashBytes([...filler, line, field].join('\n') + '\n');
    expect(r.hazards.map((h) => h.text)).toEqual([line, field]);
  });

  it('a real error printed in the middle of a document (not a JSON line) ends it and is still an error', () => {
    const { r } = squashBytes([...filler, '{', '  "id": 1,', "TypeError: Cannot read properties of undefined (reading 'id')", '  "level": "error",', '}'].join('\n') + '\n');
    expect(r.hazards.map((h) => h.text)).toEqual(["TypeError: Cannot read properties of undefined (reading 'id')", '  "level": "error",']);
  });

  it('a diff of objects is no document (node:test / mocha: `{` then `+   food: [],`)', () => {
    const { r } = squashBytes([...filler, '    {', '    +   food: [],', '  "level": "error",'].join('\n') + '\n');
    expect(r.hazards.map((h) => h.text)).toEqual(['  "level": "error",']);
  });
});

describe('PrettyJson', () => {
  const run = (lines: string[]) => {
    const d = new PrettyJson();
    return lines.map((l) => d.step(l, true));
  };

  it('follows nesting to the closing bracket, then is outside', () => {
    expect(run(['{', '  "a": {', '    "b": [', '      1,', '      {}', '    ]', '  },', '  "c": null', '}', '  "d": 1,'])).toEqual([true, true, true, true, true, true, true, true, true, false]);
  });

  it('reads strings whole: brackets, escaped quotes and colons in them are text', () => {
    expect(run(['[', '  "a {",', '  "say \\"hi\\": [",', '  "k: v"', ']', '"x"'])).toEqual([true, true, true, true, true, false]);
  });

  it('ends at a line that is not JSON (blank, prose, unquoted key), and a lone bracket opens another', () => {
    expect(run(['{', '  "a": 1,', '', '  "b": 2'])).toEqual([true, true, false, false]);
    expect(run(['{', '  a: 1,', '[', '  -1.5e3,', '  true', ']'])).toEqual([true, false, true, true, true, true]);
  });

  it('a line with more than a bracket does not open one; a redrawn line ends one', () => {
    expect(run(['Object {', '  "a": 1'])).toEqual([false, false]);
    const d = new PrettyJson();
    expect([d.step('{', true), d.step('  "a": 1,', false), d.step('  "b": 2', true)]).toEqual([true, false, false]);
  });
});
