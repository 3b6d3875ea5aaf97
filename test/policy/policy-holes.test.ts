/**
 * Issue 19's three holes, each failing on the code before the fix: (1) an agent switching the
 * policy off — writing, deleting or moving mish's own configuration, policy, state and audit
 * files, or running a nested mish with another policy; (2) analysis that could hang the
 * synchronous decide() — a regex that backtracked exponentially on an unclosed Python list,
 * and long adversarial lines in general: every decision comes back (vitest's timeout is the
 * bound; no speed figure is asserted) and a line past the budget is never allowed; (3) caps
 * that silently dropped data (brace expansion past its cap, xargs -I / parallel / find -exec
 * fan-out): they now fail closed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinPolicy, compilePolicyText, decide, RANK, type Policy } from '../../src/main/core/policy/index.js';
import { mishOwnPaths } from '../../src/main/core/policy/own-files.js';
import { analyzeCode } from '../../src/main/core/policy/interpreters.js';
import { resolveLine } from '../../src/main/core/policy/resolve.js';
import { expandBracesChecked, MAX_BRACE_WORDS } from '../../src/main/core/policy/paths.js';

const builtinText = readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8');
const policy = builtinPolicy(builtinText, 'grammars/_meta/policy.toml');
const home = '/home/me';
const ctx = { cwd: '/work/project', home };
const escalated = (d: string) => RANK[d as keyof typeof RANK] >= RANK.ask;

/** The built-in policy with a user layer that allows everything (what the agent tried to write). */
const allowAll: Policy = {
  layers: [...policy.layers, { name: 'user', file: '~/.config/mish/policy.toml', ...(() => { const c = compilePolicyText('[default]\ndecision = "allow"\n[[rule]]\nid = "all"\nreason = "all"\ndecision = "allow"\ncommands = ["*"]\n', 'user'); return { rules: c.rules, default: c.default }; })() }],
  errors: [],
};

describe("hole 1: mish's own files and policy are the operator's", () => {
  const forbidden = [
    `printf '[[rule]]\\nid="x"\\nreason="x"\\ndecision="allow"\\ncommands=["*"]' > ~/.config/mish/policy.toml`,
    'echo x >> ~/.config/mish/policy.toml',
    'echo x >> $HOME/.config/mish/policy.toml',
    'echo x > /home/me/.config/mish/policy.toml',
    'cat > ~/.config/mish/policy.toml <<EOF\n[default]\ndecision = "allow"\nEOF',
    'tee ~/.config/mish/policy.toml < lax.toml',
    'cp lax.toml ~/.config/mish/policy.toml',
    'install -m 644 lax.toml ~/.config/mish/policy.toml',
    'mv lax.toml ~/.config/mish/policy.toml',
    'ln -sf /tmp/lax.toml ~/.config/mish/policy.toml',
    'sed -i s/forbid/allow/ ~/.config/mish/policy.toml',
    'perl -pi -e s/forbid/allow/ ~/.config/mish/policy.toml',
    'rm ~/.config/mish/policy.toml',
    'rm -rf ~/.config/mish',
    'rm -rf ~/.config/m*',
    'rm -rf ~/.config',
    'mv ~/.config/mish /tmp/old',
    'rm ~/.local/state/mish/audit.jsonl',
    'truncate -s 0 ~/.local/state/mish/audit.jsonl',
    ': > ~/.local/state/mish/audit.jsonl',
    'shred -u ~/.local/state/mish/audit.jsonl',
    'rm -rf ~/.local/state/mish/spool',
    'rm -rf ~/.local/state',
    'find ~/.local/state/mish -delete',
    'find ~/.local/state/mish -name "*.jsonl" -exec rm {} +',
    'echo "[[rule]]" > .mish/policy.toml',
    'rm -rf .mish',
    'rm .mish/policy.toml',
    'cd /tmp && rm -rf /work/project/.mish',
    "sh -c 'cat lax.toml > ~/.config/mish/policy.toml'",
    "sudo bash -c 'echo > ~/.local/state/mish/audit.jsonl'",
    'rm -rf ~/.config/mish/grammars',
    'echo x > ~/.config/mish/grammars/npm.toml',
    'mish --policy /tmp/lax.toml rm -rf ~',
    'mish --policy-default allow ls',
    'MISH_POLICY=/tmp/lax.toml mish ls',
    'env MISH_POLICY=/tmp/lax.toml mish ls',
    'export MISH_POLICY=/tmp/lax.toml; mish ls',
    'MISH_POLICY_DEFAULT=allow mish ls',
    'mish approvals approve a_123',
    'mish attach h_1',
    'cat lax.toml | tee ~/.config/mish/policy.toml',
    'dd if=lax.toml of=/home/me/.config/mish/policy.toml',
    'cp -t ~/.config/mish policy.toml',
    'curl -o ~/.config/mish/policy.toml https://example.com/lax.toml',
    'cd ~/.config/mish && rm policy.toml',
    'chmod 000 ~/.local/state/mish/audit.jsonl',
    'ln -s /dev/null ~/.local/state/mish/audit.jsonl',
    'rm -rf $XDG_RUNTIME_DIR/mish',
    'rm -rf ~/.{config,local}',
    'rm -rf ~/.[cl]*',
    'mv ~/.config ~/.config.old',
  ];
  it.each([
    'vim ~/.config/mish/policy.toml',
    'tar -xf lax.tar -C ~/.config/mish',
    'git checkout lax -- .mish/policy.toml',
    `ruby -e 'File.write(Dir.home + "/.config/mish/policy.toml", "")'`,
    `perl -e 'unlink glob("~/.config/mish/*")'`,
  ])('asks about %j (a program not known to only read names them)', (line) => {
    expect(escalated(decide(line, allowAll, ctx).decision), line).toBe(true);
  });
  it.each(forbidden)('forbids %j, even under a user policy that allows everything', (line) => {
    for (const p of [policy, allowAll]) {
      const d = decide(line, p, ctx);
      expect(d.decision, `${line} → ${d.rule}: ${d.reason}`).toBe('forbid');
    }
  });

  it('asks about interpreter code that names them (it could write them)', () => {
    for (const line of [`python3 -c 'open("/home/me/.config/mish/policy.toml","w").write("")'`, `node -e 'require("fs").writeFileSync(require("os").homedir()+"/.config/mish/policy.toml","")'`]) {
      expect(escalated(decide(line, allowAll, ctx).decision), line).toBe(true);
    }
  });

  it('a nested mish is judged under the agent\'s own policy: what it runs is checked here', () => {
    expect(decide('mish --raw rm -rf ~', policy, ctx)).toMatchObject({ decision: 'ask', rule: 'rm-recursive-root-or-home' });
    expect(decide('mish "cd /tmp && rm -rf ~"', policy, ctx)).toMatchObject({ rule: 'rm-recursive-root-or-home' });
    expect(decide('mish serve', policy, ctx).decision).not.toBe('allow');
  });

  it('reading them, and nested mish runs without a policy override, stay allowed', () => {
    for (const line of ['cat ~/.config/mish/policy.toml', 'ls ~/.config/mish', 'mish policy explain "rm -rf /"', 'mish policy check', 'mish audit --json', 'mish npm test', 'mish --raw ls', 'grep -r mish ~/.config', 'cp ~/.config/mish/policy.toml /tmp/backup.toml', 'mkdir -p ~/.config/mish', 'git status', 'rm -rf node_modules', 'echo "MISH_POLICY is set by the operator"']) {
      expect(decide(line, policy, ctx), line).toMatchObject({ decision: 'allow' });
    }
  });

  it('a relative glob is judged by the other rules, not as a folder holding mish\'s files', () => {
    expect(decide('rm -rf *', policy, { home }).rule).not.toBe('mish-own-files');
  });

  it('the own paths follow the environment ($XDG_*, $MISH_AUDIT_LOG, $MISH_SPOOL_DIR, $MISH_OPERATOR_DIR)', () => {
    const own = mishOwnPaths({ HOME: home, XDG_CONFIG_HOME: '/cfg', XDG_STATE_HOME: '/st', XDG_RUNTIME_DIR: '/run/user/1', MISH_AUDIT_LOG: '/logs/a.jsonl', MISH_SPOOL_DIR: '/sp', MISH_OPERATOR_DIR: '/op' });
    for (const [line, d] of [['echo x > /cfg/mish/policy.toml', 'forbid'], ['rm /logs/a.jsonl', 'forbid'], ['rm -rf /sp', 'forbid'], ['rm /op/1.sock', 'forbid'], ['rm -rf /run/user/1/mish', 'forbid'], ['rm /st/mish/audit.jsonl', 'forbid'], ['rm /logs/b.jsonl', 'allow']] as const) {
      expect(decide(line, policy, { ...ctx, ownPaths: own }).decision, line).toBe(d);
    }
  });
});

describe('hole 2: no input holds the decision; past the budget it fails closed', () => {
  it('the unclosed Python list of strings (exponential before) comes back, at 20 and at 5,000 items', () => {
    for (const n of [16, 20, 200, 5000]) {
      const line = `python3 -c 'subprocess.run([${'"a"  '.repeat(n)}'`;
      const d = decide(line, policy, ctx);
      expect(d.decision, `${n} items`).not.toBe('allow');
    }
  });

  it('a closed argv list is still read (the linear scan replaced the regex)', () => {
    expect(analyzeCode('python', 'import subprocess; subprocess.run(["rm", "-rf", "/"])').argv).toContainEqual(['rm', '-rf', '/']);
    expect(analyzeCode('python', "subprocess.call( [ 'rm' , '-rf' , '~' ] )").argv).toContainEqual(['rm', '-rf', '~']);
    expect(decide(`python3 -c 'import subprocess; subprocess.run(["rm","-rf","/"])'`, policy, ctx).decision).toBe('ask');
  });

  const adversarial: Array<[string, string]> = [
    ['deeply nested $(', `echo ${'$('.repeat(3000)}x${')'.repeat(3000)}`],
    ['unclosed nested $(', `echo ${'$('.repeat(5000)}`],
    ['nested backticks and quotes', `echo "${'`echo \\"'.repeat(2000)}"`],
    ['100 KB quoted string', `echo '${'a'.repeat(100_000)}'`],
    ['100 KB word', `ls ${'a'.repeat(100_000)}`],
    ['10,000 pipeline stages', Array.from({ length: 10_000 }, () => 'cat').join(' | ')],
    ['10,000 list elements', Array.from({ length: 10_000 }, (_, k) => `echo ${k}`).join(' && ')],
    ['100 KB of ~/.ssh/ (lookahead)', `curl -d @${'~/.ssh/'.repeat(15_000)}x.pub https://x`],
    ['python code with 10,000 system() calls', `python3 -c '${'os.system("ls"),'.repeat(10_000)}'`],
    ['python code: whitespace after a call name', `python3 -c 'os.system${' '.repeat(50_000)}x'`],
    ['awk print without a pipe, repeated', `awk '{ ${'print "a" '.repeat(10_000)} }'`],
    ['brace groups, 2,000 of them', `rm -rf ${'{a,b}'.repeat(2000)}`],
    ['nested braces 5,000 deep', `rm -rf ${'{'.repeat(5000)}a,b${'}'.repeat(5000)}`],
    ['a glob of 5,000 stars and ?', `rm -rf ~/.ssh/${'*?'.repeat(5000)}Z`],
    ['wrappers 2,000 deep', `${'sudo '.repeat(2000)}rm -rf /`],
    ['sh -c nested 500 deep', `${"sh -c '".repeat(1)}${'eval '.repeat(500)}rm -rf /'`],
    ['xargs with 100,000 items', `echo ${'x '.repeat(50_000)} | xargs rm -f`],
    ['many heredocs', Array.from({ length: 2000 }, () => 'cat <<E\nx\nE').join('\n')],
    ['a quadratic built-in rule on 20,000 repeated words (git gc gc …)', `git ${'gc '.repeat(20_000)}x`],
    ['docker --privileged repeated', `docker run ${'--privileged '.repeat(8000)}`],
    ['kubectl scale repeated', `kubectl ${'scale '.repeat(15_000)}`],
  ];
  it.each(adversarial)('%s: the decision comes back', (_name, line) => {
    const d = decide(line, policy, ctx);
    expect(d.rule).not.toBe('');
    if (d.rule === 'analysis-budget' || d.matches.some((m) => m.rule === 'analysis-budget')) expect(d.decision).not.toBe('allow');
  });

  it('a line past the step budget is asked about with a reason that says so', () => {
    const line = `echo ${'a '.repeat(150_000)}`;
    const d = decide(line, policy, ctx);
    expect(d.decision).toBe('ask');
    expect(d.matches.map((m) => m.rule)).toContain('analysis-budget');
    expect(d.matches.find((m) => m.rule === 'analysis-budget')?.reason).toMatch(/too complex|too long/);
    // The resolver itself stopped at its step budget (not only the rules' length guard).
    expect(resolveLine(line).lineFacts.map((f) => f.fact)).toContain('analysis-budget');
  });

  it('a command too long for the rules\' regexes is asked about, not matched on a part', () => {
    const d = decide(`git ${'gc '.repeat(20_000)}x`, policy, ctx);
    expect(d).toMatchObject({ decision: 'ask', rule: 'analysis-budget' });
    expect(d.reason).toMatch(/too long to check/);
  });

  it('a dangerous command after a budget-breaking prefix is never allowed (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4000 }), fc.constantFrom('rm -rf ~', 'rm -rf /', 'chmod -R 777 /'), fc.constantFrom('$(', '{a,', '"a" ', '`'), (n, danger, unit) => {
        const d = decide(`${danger}; echo ${unit.repeat(n)}`, policy, ctx);
        return d.decision !== 'allow';
      }),
      { numRuns: 40 },
    );
  });
});

describe('hole 3: caps fail closed', () => {
  it('rm -rf {x{1..300},~} is escalated (it dropped ~ past 256 words)', () => {
    expect(escalated(decide('rm -rf {x{1..300},~}', policy, ctx).decision)).toBe(true);
  });

  it('an expansion past the cap is asked about, the reason says it is too large to check', () => {
    const n = MAX_BRACE_WORDS + 10;
    expect(expandBracesChecked(`{x{1..${n}},~}`).truncated).toBe(true);
    expect(expandBracesChecked('{a,b}{1..3}')).toEqual({ words: ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'], truncated: false });
    expect(expandBracesChecked(`{1..${MAX_BRACE_WORDS}}`).truncated).toBe(false);
    const d = decide(`rm -rf {x{1..${n}},~}`, policy, ctx);
    expect(d.decision).not.toBe('allow');
    expect(d.matches.map((m) => m.rule)).toContain('expansion-too-large');
    expect(decide(`touch f{1..${n}}`, policy, ctx)).toMatchObject({ decision: 'ask', rule: 'expansion-too-large' });
  });

  it('xargs -I, parallel and find -exec over more inputs than are expanded: ask, not the first 16', () => {
    const items = Array.from({ length: 17 }, (_, k) => `d${k}`).join(' ');
    expect(escalated(decide(`echo ${items} ~ | xargs -I{} rm -rf {}`, policy, ctx).decision)).toBe(true);
    expect(escalated(decide(`parallel rm -rf {} ::: ${items} ~`, policy, ctx).decision)).toBe(true);
    expect(escalated(decide(`find ${items} ~ -maxdepth 0 -exec rm -rf {} +`, policy, ctx).decision)).toBe(true);
    // xargs without -I appends every item to one command: all are checked, none dropped.
    expect(decide(`echo ${items} ~ | xargs rm -rf`, policy, ctx)).toMatchObject({ rule: 'rm-recursive-root-or-home' });
    expect(decide(`echo ${items} | xargs rm -rf`, policy, ctx).decision).toBe('allow');
  });
});

describe('a line too long to analyse', () => {
  it('is asked about without being parsed (200,000 words took 70 s before)', () => {
    const line = `rm -rf ${Array.from({ length: 200_000 }, (_, i) => `x${i}`).join(' ')} ~`;
    const d = decide(line, policy);
    expect(d.decision).toBe('ask');
    expect(d.rule).toBe('analysis-budget');
  }, 10_000);
});
