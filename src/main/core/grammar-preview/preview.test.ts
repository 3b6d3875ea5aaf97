/**
 * The editor's preview on real recorded outputs: the same summary `mish` prints through the
 * registry (bytes in, file grammars), and raw-line marks that agree with that summary.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GrammarRegistry, detectTool } from '../grammar/index.js';
import { renderSummary } from '../squasher/render.js';
import { Squasher } from '../squasher/squasher.js';
import { LineStatus, mustKeepMisses } from './line-map.js';
import { countRawLines, decodePieces, rawDisplayLines, runPreview, type PreviewOk } from './preview.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const GRAMMARS = path.join(ROOT, 'grammars');
const RECORDED = path.join(ROOT, 'fixtures', 'recorded');
const registry = new GrammarRegistry({ builtinDir: GRAMMARS, userDir: null, projectGrammars: false, revalidateMs: 0 });

const shared = Object.fromEntries(
  readdirSync(path.join(GRAMMARS, '_shared')).map((f) => [`_shared/${f.replace(/\.toml$/, '')}`, readFileSync(path.join(GRAMMARS, '_shared', f), 'utf8')]),
);

function fixture(name: string) {
  const meta = JSON.parse(readFileSync(path.join(RECORDED, `${name}.json`), 'utf8')) as { tool: string; argv: string[]; exitCode: number; durationMs: number };
  const bytes = readFileSync(path.join(RECORDED, `${name}.raw`));
  return { meta, bytes, raw: new TextDecoder().decode(bytes) };
}

/** What `mish` prints for this recording (registry grammars, bytes fed as a PTY gives them). */
function mishSummary(meta: { argv: string[]; exitCode: number; durationMs: number }, bytes: Buffer): string {
  let t = 0;
  const sq = new Squasher({ detection: detectTool(meta.argv, registry), now: () => t });
  sq.write(new Uint8Array(bytes));
  t = meta.durationMs;
  return renderSummary(sq.finish({ exitCode: meta.exitCode }), { color: false });
}

function preview(name: string, text?: string): PreviewOk & { rawText: string[] } {
  const { meta, raw } = fixture(name);
  const file = path.join(GRAMMARS, `${meta.tool}.toml`);
  const r = runPreview({ text: text ?? readFileSync(file, 'utf8'), file, origin: 'builtin', shared, raw: decodePieces(fixture(name).bytes), argv: meta.argv, exitCode: meta.exitCode, durationMs: meta.durationMs });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  return { ...r, rawText: rawDisplayLines(raw) };
}

describe('grammar preview', () => {
  for (const name of ['cargo-build-error', 'cargo-build-large', 'npm-install-large', 'pytest-fail', 'tsc-errors-pretty', 'gcc-errors-relative', 'jest-fail', 'yarn-add-404', 'prettier-check-syntax-error', 'cmake-configure-fail']) {
    it(`${name}: the same summary mish prints, and marks that agree with it`, () => {
      const { meta, bytes } = fixture(name);
      const p = preview(name);
      expect(p.summary).toBe(mishSummary(meta, bytes));
      expect(p.detection.matched).toBe(true);
      const out = p.summary.replace(/\n$/, '').split('\n');
      expect(p.map.outputLines).toBe(out.length);
      let kept = 0;
      for (let no = 1; no <= p.rawLines; no++) {
        const s = p.map.status[no - 1];
        const t = p.map.target[no - 1];
        if (s === LineStatus.dropped) expect(t).toBe(-1);
        else expect(t).toBeGreaterThanOrEqual(0);
        if (s === LineStatus.kept) {
          kept++;
          const text = p.rawText[no - 1].trim();
          // A kept line is on its summary line (outcome lines may be reformatted; long lines are cut;
          // a run of one decoration character is shown three long, as mish prints it).
          const squeeze = (x: string) => x.replace(/([_=~*#─━═⎯-])\1{3,}/g, '$1$1$1');
          if (text && !p.map.rules[p.map.ruleOf[no - 1]].startsWith('outcome')) expect(squeeze(out[t])).toContain(squeeze(text).slice(0, 60));
        }
      }
      expect(kept).toBeGreaterThan(0);
    });
  }

  it('a small output: grammar noise is dropped, a repeated noise line folded on its first copy', () => {
    const p = preview('yarn-add-404');
    const marks = p.rawText.map((text, i) => ({ text, status: p.map.status[i], target: p.map.target[i] }));
    const retries = marks.filter((m) => m.text.startsWith('info There appears to be trouble'));
    expect(retries.map((m) => m.status)).toEqual([LineStatus.kept, LineStatus.folded, LineStatus.folded, LineStatus.folded]);
    expect(new Set(retries.map((m) => m.target)).size).toBe(1);
    expect(marks.find((m) => m.text.startsWith('yarn add v'))?.status).toBe(LineStatus.dropped);
    expect(marks.find((m) => m.text.startsWith('error Couldn'))?.status).toBe(LineStatus.kept);
  });

  it('a file name the next hazard line repeats whole is folded into that line', () => {
    const p = preview('prettier-check-syntax-error');
    const at = p.rawText.findIndex((t) => t.trim() === 'broken/bad.js');
    const error = p.rawText.findIndex((t) => t.startsWith('[error] broken/bad.js: SyntaxError'));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(p.map.status[at]).toBe(LineStatus.folded);
    expect(p.map.status[error]).toBe(LineStatus.kept);
    expect(p.map.target[at]).toBe(p.map.target[error]);
  });

  it('decodes every recording into pieces that join to exactly the TextDecoder text', () => {
    for (const f of readdirSync(RECORDED).filter((x) => x.endsWith('.raw'))) {
      const bytes = readFileSync(path.join(RECORDED, f));
      const pieces = decodePieces(bytes);
      expect(pieces.join(''), f).toBe(new TextDecoder().decode(bytes));
      expect(countRawLines(pieces), f).toBe(countRawLines(new TextDecoder().decode(bytes)));
    }
    const odd = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0a, 0x62, 0xc3, 0xa9, 0x0a, 0x63, 0xff, 0x0a, 0x64]);
    expect(decodePieces(odd).join('')).toBe(new TextDecoder().decode(odd));
    expect(decodePieces(new Uint8Array()).join('')).toBe('');
  });

  it('counts raw lines like mish raw --lines', () => {
    expect(countRawLines('a\nb\n')).toBe(2);
    expect(countRawLines(['a\n', 'b'])).toBe(2);
    expect(countRawLines(['a\n', ''])).toBe(1);
    expect(countRawLines('a\nb')).toBe(2);
    expect(countRawLines('')).toBe(0);
  });

  it('a rule edit changes the marks, and a must-keep line it drops is reported', () => {
    const base = preview('cargo-build-error');
    const errorLine = base.rawText.findIndex((l) => /^error\[E0308\]/.test(l.trim())) + 1;
    expect(errorLine).toBeGreaterThan(0);
    expect(base.map.status[errorLine - 1]).toBe(LineStatus.kept);
    expect(mustKeepMisses(base.map, [errorLine])).toEqual([]);
    // The rust-error hazard made to never match, and `error[…]` lines stripped as noise:
    // the must-keep line is no longer shown.
    const cargo = readFileSync(path.join(GRAMMARS, 'cargo.toml'), 'utf8');
    const text = cargo.replace("pattern = '^error(?:\\[(?<code>E\\d+)\\])?: (?<msg>.*)'", () => "pattern = '^never matches$'") + '\n[[noise]]\nid = "drop-errors"\npattern = \'^error\\[\'\naction = "strip"\n';
    expect(text).not.toContain('(?<code>E');
    const edited = preview('cargo-build-error', text);
    expect(edited.summary).not.toBe(base.summary);
    expect(edited.map.status[errorLine - 1]).toBe(LineStatus.dropped);
    expect(edited.map.rules[edited.map.ruleOf[errorLine - 1]]).toBe('noise strip:grammar');
    expect(mustKeepMisses(edited.map, [errorLine, 1])).toContainEqual({ no: errorLine, status: LineStatus.dropped });
  });

  it('reports loader errors with their line and rule', () => {
    const text = '[grammar]\nname = "x"\n[detect]\ncommands = ["x"]\n\n[[hazard]]\nid = "bad"\npattern = "(unclosed"\nseverity = "error"\n';
    const r = runPreview({ text, file: 'x.toml', raw: 'hello\n', argv: ['x'], exitCode: 0, durationMs: 1 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatchObject({ line: 8, rule: 'bad' });
    expect(r.errors[0].message).toMatch(/invalid regular expression/);
  });
});
