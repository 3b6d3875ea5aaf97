import { afterAll, describe, expect, it } from 'vitest';
import { compileGrammarSource, formatGrammarError, loadGrammarFile } from './loader.js';
import { selectRules } from './select-rules.js';
import { TempTree } from './test-helpers.js';

const tree = new TempTree();
afterAll(() => tree.dispose());

function errorsOf(source: string, file = '/g/tool.toml') {
  const r = compileGrammarSource(source, file);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
}

describe('compileGrammarSource', () => {
  it('reports a TOML syntax error with file and line', () => {
    const errs = errorsOf('[grammar]\nname = "x"\n\n[[hazard]]\npattern = "unterminated\nseverity = "error"\n');
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ file: '/g/tool.toml', line: 5 });
    expect(errs[0].message).toMatch(/TOML syntax error/);
    expect(formatGrammarError(errs[0])).toMatch(/^\/g\/tool\.toml:5: TOML syntax error/);
  });

  it('names rule id and line for an invalid regular expression, in pattern and continue_pattern', () => {
    const src = [
      '[grammar]', //1
      'name = "t"', //2
      '', //3
      '[[hazard]]', //4
      'id = "fine"', //5
      "pattern = '^ok'", //6
      'severity = "error"', //7
      '', //8
      '[[hazard]]', //9
      'id = "broken"', //10
      'severity = "error"', //11
      "pattern = '(unclosed'", //12
      '', //13
      '[[noise]]', //14
      "pattern = 'x'", //15
      'action = "strip"', //16
      '', //17
      '[[hazard]]', //18
      "pattern = '^tb'", //19
      'severity = "error"', //20
      "continue_pattern = '[z-a]'", //21
    ].join('\n');
    const errs = errorsOf(src);
    expect(errs).toHaveLength(2);
    expect(errs[0]).toMatchObject({ rule: 'broken', line: 12 });
    expect(errs[0].message).toMatch(/invalid regular expression in pattern/);
    expect(errs[1]).toMatchObject({ rule: 'hazard#3', line: 21 });
    expect(errs[1].message).toMatch(/continue_pattern/);
    expect(formatGrammarError(errs[0])).toBe(`/g/tool.toml:12: rule broken: ${errs[0].message}`);
  });

  it('compiles frame_pattern, and names the rule and line of an invalid one', () => {
    const ok = compileGrammarSource("[[hazard]]\nid = 'e'\npattern = '^e: '\nseverity = 'error'\ncontinue_pattern = '^ '\nframe_pattern = '^\\s+\\d+ \\|'\n", '/g/t.toml');
    expect(ok.ok && ok.value.grammar.hazard[0].frameRe?.test('  12 | x')).toBe(true);
    const errs = errorsOf("[[hazard]]\nid = 'e'\npattern = '^e: '\nseverity = 'error'\nframe_pattern = '(unclosed'\n");
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ rule: 'e', line: 5 });
    expect(errs[0].message).toMatch(/frame_pattern/);
  });

  it('compiles frame_focus (only with frame_pattern) and a noise paragraph (only for strip rules), naming rule and line of a misuse', () => {
    const ok = compileGrammarSource(
      "[[hazard]]\nid = 'e'\npattern = '^e: '\nseverity = 'error'\nframe_pattern = '^ {4}'\nframe_focus = '^>'\n\n[[noise]]\nid = 'n'\npattern = '^Hint:'\naction = 'strip'\ncontinue_pattern = '^  '\nend_pattern = 'done\\.$'\n",
      '/g/t.toml',
    );
    expect(ok.ok && ok.value.grammar.hazard[0].focusRe?.test('>   x = 1')).toBe(true);
    expect(ok.ok && ok.value.grammar.noise[0].continueRe?.test('  more')).toBe(true);
    expect(ok.ok && ok.value.grammar.noise[0].endRe?.test('  done.')).toBe(true);
    const noFrame = errorsOf("[[hazard]]\nid = 'e'\npattern = '^e: '\nseverity = 'error'\nframe_focus = '^>'\n");
    expect(noFrame).toHaveLength(1);
    expect(noFrame[0]).toMatchObject({ rule: 'e', line: 5 });
    expect(noFrame[0].message).toMatch(/frame_focus needs frame_pattern/);
    const dedup = errorsOf("[[noise]]\nid = 'n'\npattern = '^x'\naction = 'dedup'\ncontinue_pattern = '^ '\n");
    expect(dedup).toHaveLength(1);
    expect(dedup[0]).toMatchObject({ rule: 'n', line: 5 });
    expect(dedup[0].message).toMatch(/continue_pattern needs action = "strip"/);
    const bad = errorsOf("[[noise]]\nid = 'n'\npattern = '^x'\naction = 'strip'\nend_pattern = '(unclosed'\n");
    expect(bad[0]).toMatchObject({ rule: 'n', line: 5 });
    expect(bad[0].message).toMatch(/end_pattern/);
  });

  it('compiles lead_noise, matched at the line start only, with the rule\'s flags; names the rule and line of an invalid one', () => {
    const ok = compileGrammarSource("[[hazard]]\nid = 'e'\npattern = '^error: '\nseverity = 'error'\nflags = 'i'\nlead_noise = '\\[[=> ]*\\] *\\d+%|x'\n", '/g/t.toml');
    if (!ok.ok) throw new Error(JSON.stringify(ok.errors));
    const lead = ok.value.grammar.hazard[0].leadRe!;
    expect(lead.exec('[==> ] 45%ERROR: x')?.[0]).toBe('[==> ] 45%');
    // A top-level `|` in the lead stays inside it: every branch is anchored at the start.
    expect(lead.test('see [==> ] 45%')).toBe(false);
    expect(lead.test('ax')).toBe(false);
    expect(lead.flags).toBe('i');
    expect(ok.value.grammar.hazard[0].re.source).toBe('^error: ');
    const errs = errorsOf("[[hazard]]\nid = 'e'\npattern = '^e: '\nseverity = 'error'\nlead_noise = '(unclosed'\n");
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ rule: 'e', line: 5 });
    expect(errs[0].message).toMatch(/invalid regular expression in lead_noise/);
    // It escapes no wrapper: a lead that would close the group it is put in is refused as written.
    expect(errorsOf("[[hazard]]\nid = 'e'\npattern = '^e: '\nseverity = 'error'\nlead_noise = 'a)|(b'\n")[0].message).toMatch(/lead_noise/);
    // Hazard rules only.
    expect(errorsOf("[[noise]]\nid = 'n'\npattern = '^x'\naction = 'strip'\nlead_noise = 'y'\n")[0]).toMatchObject({ rule: 'n', line: 5 });
  });

  it('validates the shape: bad enum, unknown key, wrong type, each with rule and line', () => {
    const src = [
      '[grammar]', //1
      'name = "t"', //2
      'category = "loud"', //3
      '[[hazard]]', //4
      'id = "h"', //5
      "pattern = 'x'", //6
      'severity = "fatal"', //7
      '[[outcome]]', //8
      "pattern = 'y'", //9
      'fromat = "{n}"', //10
      '[[noise]]', //11
      'pattern = 3', //12
      'action = "strip"', //13
    ].join('\n');
    const errs = errorsOf(src);
    const by = (rule: string | undefined) => errs.find((e) => e.rule === rule)!;
    expect(by(undefined)).toMatchObject({ line: 3 });
    expect(by(undefined).message).toMatch(/grammar\.category/);
    expect(by('h')).toMatchObject({ line: 7 });
    expect(by('h').message).toMatch(/^severity: /);
    expect(by('outcome#1')).toMatchObject({ line: 10 });
    expect(by('outcome#1').message).toMatch(/fromat/);
    expect(by('noise#1')).toMatchObject({ line: 12 });
  });

  it('rejects g/y flags, unknown action and dialect references, duplicate ids', () => {
    const src = [
      '[detect]',
      'commands = ["t"]',
      'dialects = { a = ["ta"] }',
      '[actions.build]',
      'aliases = ["b"]',
      '[[hazard]]',
      'id = "g"',
      "pattern = 'x'",
      'flags = "g"',
      'severity = "error"',
      '[[hazard]]',
      'id = "act"',
      "pattern = 'x'",
      'actions = ["biuld"]',
      'severity = "error"',
      '[[hazard]]',
      'id = "dia"',
      "pattern = 'x'",
      'dialects = ["zz"]',
      'severity = "error"',
      '[[hazard]]',
      'id = "dia"',
      "pattern = 'y'",
      'severity = "warning"',
    ].join('\n');
    const errs = errorsOf(src);
    // zod stops at the shape error (flags) before semantic checks
    expect(errs.map((e) => e.rule)).toEqual(['g']);
    expect(errs[0].line).toBe(9);
    const errs2 = errorsOf(src.replace('flags = "g"', 'flags = "i"'));
    expect(errs2.map((e) => [e.rule, e.line])).toEqual([
      ['act', 14],
      ['dia', 19],
      ['dia', 21],
    ]);
    expect(errs2[2].message).toMatch(/duplicate hazard rule id/);
  });

  it('compiles actions, dialects, per-action rules, flags and the template form', () => {
    const r = compileGrammarSource(
      [
        '[grammar]',
        'name = "tool"',
        'category = "condense"',
        '[detect]',
        'commands = ["tool"]',
        'dialects = { fast = ["tool-fast"] }',
        'value_flags = ["-C"]',
        '[actions.install]',
        'aliases = ["i", "add"]',
        'quiet_flags = ["--quiet"]',
        '[actions.diff]',
        'category = "passthrough"',
        '[[hazard]]',
        "pattern = '^ERR'",
        'severity = "error"',
        'context_after = 1',
        '[[outcome]]',
        'id = "added"',
        "pattern = '^added (?<n>\\d+)'",
        'format = "+ {n}"',
        'actions = ["install"]',
        '[[noise]]',
        "pattern = '^fast'",
        'action = "dedup"',
        'dialects = ["fast"]',
        'flags = "i"',
      ].join('\n'),
      '/g/tool.toml',
      'project',
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const g = r.value.grammar;
    expect(g).toMatchObject({ name: 'tool', origin: 'project', category: 'condense', commands: ['tool'], dialects: { fast: ['tool-fast'] }, valueFlags: ['-C'] });
    expect(g.actions.install).toEqual({ aliases: ['install', 'i', 'add'], quietFlags: ['--quiet'], category: undefined });
    expect(g.actions.diff.category).toBe('passthrough');
    expect(g.hazard[0]).toMatchObject({ id: 'hazard#1', severity: 'error', contextAfter: 1, source: '/g/tool.toml' });
    expect(g.hazard[0].re.flags).toBe('');
    expect(g.noise[0].re.flags).toBe('i');
    expect(g.noise[0].re.test('FAST x')).toBe(true);

    expect(selectRules(g).outcome).toHaveLength(0); // action-restricted rules need the action
    expect(selectRules(g, 'install').outcome.map((x) => x.id)).toEqual(['added']);
    expect(selectRules(g, 'install')).toBe(selectRules(g, 'install')); // memoised
    expect(selectRules(g, undefined, 'fast').noise).toHaveLength(1);
    expect(selectRules(g).noise).toHaveLength(0);

    const t = compileGrammarSource('[template]\ndescription = "errors only"\ninclude_regex = ["(ERROR|WARN)", "^FAIL"]\ntail_paragraphs = 2\n', '/g/custom-tool.toml');
    if (!t.ok) throw new Error(JSON.stringify(t.errors));
    expect(t.value.grammar.name).toBe('custom-tool');
    expect(t.value.grammar.template).toEqual({ description: 'errors only', tailParagraphs: 2 });
    expect(t.value.grammar.outcome.map((o) => o.id)).toEqual(['template#1', 'template#2']);
    const bad = errorsOf('[template]\ninclude_regex = "(ERROR"\n');
    expect(bad[0]).toMatchObject({ rule: 'template#1', line: 2 });
  });
});

describe('loadGrammarFile includes', () => {
  it('merges included rules after the grammar’s own, recursively, once per include', () => {
    const dir = tree.path('inc');
    tree.write('inc/_shared/a.toml', "[grammar]\ninclude = [\"_shared/b\"]\n[[hazard]]\nid = \"a-h\"\npattern = 'A'\nseverity = \"error\"\n");
    tree.write('inc/_shared/b.toml', "[[noise]]\nid = \"b-n\"\npattern = 'B'\naction = \"strip\"\n");
    const f = tree.write('inc/tool.toml', "[grammar]\nname = \"tool\"\ninclude = [\"_shared/a\", \"_shared/b\"]\n[[hazard]]\nid = \"own\"\npattern = 'O'\nseverity = \"warning\"\n");
    const r = loadGrammarFile(f, { includeDirs: [dir] });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.value.hazard.map((h) => h.id)).toEqual(['own', 'a-h']);
    expect(r.value.noise.map((h) => h.id)).toEqual(['b-n']);
    expect(r.value.includes).toEqual(['_shared/a', '_shared/b']);
    expect(r.value.hazard[1].source).toBe(tree.path('inc/_shared/a.toml'));
  });

  it('reports include cycles and missing includes naming the file and the include line', () => {
    tree.write('cyc/_shared/x.toml', '[grammar]\ninclude = ["_shared/y"]\n');
    tree.write('cyc/_shared/y.toml', '[grammar]\ninclude = ["_shared/x"]\n');
    const f = tree.write('cyc/tool.toml', '[grammar]\nname = "tool"\ninclude = ["_shared/x"]\n');
    const r = loadGrammarFile(f);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const msg = r.errors.map((e) => formatGrammarError(e)).join('\n');
    expect(msg).toContain('include cycle: tool → _shared/x → _shared/y → _shared/x');
    expect(msg).toContain(`${tree.path('cyc/_shared/y.toml')}:2:`);

    const m = tree.write('cyc/missing.toml', '\n[grammar]\nname = "m"\ninclude = ["_shared/nope"]\n');
    const r2 = loadGrammarFile(m);
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.errors[0]).toMatchObject({ file: m, line: 4, message: "include '_shared/nope' not found" });

    const esc = tree.write('cyc/escape.toml', '[grammar]\ninclude = ["../../etc/passwd"]\n');
    expect(loadGrammarFile(esc).ok).toBe(false);
  });
});

describe('grammars/README.md', () => {
  it('its format example and template example compile', async () => {
    const { readFileSync } = await import('node:fs');
    const { findBuiltinGrammarDir } = await import('./registry.js');
    const readme = readFileSync(`${findBuiltinGrammarDir()}/README.md`, 'utf8');
    const blocks = [...readme.matchAll(/```toml\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const b of blocks) {
      // the format example includes shared files: compile only (linking is tested above)
      const r = compileGrammarSource(b, '/README.toml');
      expect(r.ok ? [] : r.errors.map((e) => formatGrammarError(e))).toEqual([]);
    }
  });
});

describe('[grammar] presentation_env', () => {
  it('takes presentation-only variables, and refuses anything else with the file and line', () => {
    const ok = compileGrammarSource('[grammar]\nname = "t"\npresentation_env = { NO_COLOR = "1", FORCE_COLOR = "0" }\n', '/g/t.toml');
    expect(ok.ok && ok.value.grammar.presentationEnv).toEqual({ NO_COLOR: '1', FORCE_COLOR: '0' });
    const bad = compileGrammarSource('[grammar]\nname = "t"\npresentation_env = { LD_PRELOAD = "/tmp/x.so" }\n', '/g/t.toml');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]).toMatchObject({ file: '/g/t.toml', line: 3 });
    const long = compileGrammarSource('[grammar]\nname = "t"\npresentation_env = { NO_COLOR = "1; rm -rf /" }\n', '/g/t.toml');
    expect(long.ok).toBe(false);
  });
});
