/**
 * `mish hook <agent>` in-process on the hosts' payloads (fixtures/hooks: recorded from Claude
 * Code, the others from the hosts' documentation), with the real built-in policy: each host's
 * answer shapes, the policy tables (0 dangerous commands let through by any host), and fast-check
 * payloads (0 silent allows).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, loadPolicy } from '../../src/main/core/policy/index.js';
import { runHook, type HookIo } from '../../src/main/hooks/hook-command.js';
import { launcherScript } from '../../src/main/hooks/mish-path.js';
import { HOST_IDS, HOSTS } from '../../src/main/hooks/hosts/index.js';
import type { HostId } from '../../src/main/hooks/hosts/types.js';
import { readTable } from '../policy/tables.js';
import { enterSafeHome, safeHome, type SafeHome } from '../helpers/safe-home.js';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.join(ROOT, 'fixtures/hooks');
let home: SafeHome;
let env: NodeJS.ProcessEnv;
let leave: () => void;

beforeAll(() => {
  home = safeHome('hook');
  // No operator can be attached in these tests: the hook does not wait for one to connect.
  const extra = { MISH_HOOK_OPERATOR_JOIN_MS: '0', MISH_OPERATOR_DIR: path.join(home.home, '.run', 'ops') };
  env = home.env(extra);
  // The audit log of escalations is written under this process's HOME.
  leave = enterSafeHome(home, extra);
});
afterAll(() => {
  leave();
  home.dispose();
});

async function hook(id: HostId, stdin: string, args: string[] = []): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: HookIo = { readStdin: async () => stdin, out: (t) => (out += t), err: (t) => (err += t), env, cwd: () => home.cwd, now: () => Date.now() };
  const code = await runHook([id, ...args], io);
  return { code, out, err };
}

function fixture(id: HostId): Record<string, unknown>[] {
  const dir = path.join(FIXTURES, id);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>);
}

/** The payload of a host's fixture with another command in it. */
function withCommand(id: HostId, command: string, overrides: Record<string, unknown> = {}): string {
  const p = structuredClone(fixture(id)[0]);
  if (id === 'cursor') p.command = command;
  else if (id === 'copilot') p.toolArgs = JSON.stringify({ ...(JSON.parse(p.toolArgs as string) as object), command });
  else (p.tool_input as Record<string, unknown>).command = command;
  p.cwd = home.cwd;
  return JSON.stringify({ ...p, ...overrides });
}

type Verdict = 'pass' | 'rewrite' | 'allow' | 'ask' | 'deny';

/** What a host would do with the hook's answer (its documented semantics). */
function verdictOf(id: HostId, r: { code: number; out: string }): Verdict {
  if (r.code === 2) return 'deny';
  if (r.code !== 0) return 'pass'; // a non-blocking error: every host carries on with the command
  if (r.out.trim() === '') return 'pass';
  const o = JSON.parse(r.out) as Record<string, any>;
  switch (id) {
    case 'claude-code':
    case 'codex': {
      const d = o.hookSpecificOutput?.permissionDecision;
      if (d === 'deny') return 'deny';
      // Codex runs the original command on ask (issue 20): only deny stops it there.
      if (d === 'ask') return id === 'codex' ? 'pass' : 'ask';
      if (o.hookSpecificOutput?.updatedInput) return 'rewrite';
      return d === 'allow' ? 'allow' : 'pass';
    }
    case 'gemini-cli':
      if (o.decision === 'deny' || o.decision === 'block') return 'deny';
      return o.hookSpecificOutput?.tool_input ? 'rewrite' : 'pass';
    case 'cursor':
      return o.permission === 'deny' ? 'deny' : o.permission === 'ask' ? 'ask' : o.permission === 'allow' ? 'allow' : 'pass';
    case 'copilot':
      // Only deny is processed by Copilot CLI (its hooks-configuration reference): ask would let the command run.
      return o.permissionDecision === 'deny' ? 'deny' : o.modifiedArgs ? 'rewrite' : o.permissionDecision === 'allow' ? 'allow' : 'pass';
  }
}

describe('fixtures: each host payload parses to its shell command', () => {
  for (const id of HOST_IDS) {
    it(`${id}`, () => {
      for (const p of fixture(id)) {
        const parsed = HOSTS[id].parse(p, {});
        expect(parsed.kind).toBe('shell');
        const args = (typeof p.toolArgs === 'string' ? JSON.parse(p.toolArgs) : p.toolArgs) as { command?: string } | undefined;
        if (parsed.kind === 'shell') expect(parsed.call.command).toBe((p.tool_input as { command?: string } | undefined)?.command ?? args?.command ?? p.command);
      }
    });
  }
});

describe('answers per host', () => {
  it('Claude Code in bypassPermissions mode: an allowed command is rewritten to run through mish, other input fields kept', async () => {
    const r = await hook('claude-code', readFileSync(path.join(FIXTURES, 'claude-code/recorded-2.1.332-bypass.json'), 'utf8'));
    const o = JSON.parse(r.out);
    expect(o.hookSpecificOutput.permissionDecision).toBe('allow');
    expect(o.hookSpecificOutput.updatedInput.description).toBe('scripted by the test');
    expect(o.hookSpecificOutput.updatedInput.command).toMatch(/^MISH_AGENT=claude-code MISH_AGENT_SESSION=ca2e4226-99e7-46e8-b430-93e8418fee75 .*bin\/mish\.js' -- 'npm test'$|^MISH_AGENT=claude-code MISH_AGENT_SESSION=ca2e4226-99e7-46e8-b430-93e8418fee75 .*bin\/mish\.js -- 'npm test'$/);
  });

  it('Claude Code in default mode: no answer (its own prompt decides the original command; an allow would skip it)', async () => {
    const r = await hook('claude-code', readFileSync(path.join(FIXTURES, 'claude-code/recorded-2.1.332-default.json'), 'utf8'));
    expect(r).toEqual({ code: 0, out: '', err: '' });
  });

  it('Claude Code in default mode: rewritten when the user\'s own allow rule covers the command (Claude Code would not ask), not when a deny or ask rule names the program', async () => {
    const settings = path.join(home.home, '.claude', 'settings.json');
    mkdirSync(path.dirname(settings), { recursive: true });
    try {
      writeFileSync(settings, JSON.stringify({ permissions: { allow: ['Bash(npm test)', 'Bash(make:*)'] } }));
      const payload = (c: string) => withCommand('claude-code', c, { permission_mode: 'default' });
      expect(JSON.parse((await hook('claude-code', payload('npm test'))).out).hookSpecificOutput.updatedInput.command).toContain("-- 'npm test'");
      expect(JSON.parse((await hook('claude-code', payload('make check'))).out).hookSpecificOutput.permissionDecision).toBe('allow');
      // Not covered, or compound: Claude Code's own prompt decides, mish says nothing.
      expect((await hook('claude-code', payload('npm install'))).out).toBe('');
      expect((await hook('claude-code', payload('npm test && make'))).out).toBe('');
      writeFileSync(settings, JSON.stringify({ permissions: { allow: ['Bash(make:*)'], ask: ['Bash(make install)'] } }));
      expect((await hook('claude-code', payload('make check'))).out).toBe('');
    } finally {
      rmSync(settings, { force: true });
    }
  });

  it('Gemini CLI: rewritten through tool_input without a decision (its own confirmation stays)', async () => {
    const o = JSON.parse((await hook('gemini-cli', withCommand('gemini-cli', 'npm test'))).out);
    expect(o.decision).toBeUndefined();
    expect(o.hookSpecificOutput.tool_input.command).toContain("-- 'npm test'");
  });

  it('Codex and Cursor: an allowed command is neither rewritten nor approved', async () => {
    expect((await hook('codex', withCommand('codex', 'npm test'))).out).toBe('');
    expect(JSON.parse((await hook('cursor', withCommand('cursor', 'npm test'))).out)).toEqual({});
  });

  it('Copilot CLI: rewritten through modifiedArgs (every other argument kept) without a decision (its own permission rules judge the new line)', async () => {
    const o = JSON.parse((await hook('copilot', withCommand('copilot', 'npm test'))).out);
    expect(o.permissionDecision).toBeUndefined();
    expect(o.modifiedArgs.description).toBe('Clean build directory');
    expect(o.modifiedArgs.command).toMatch(/^MISH_AGENT=copilot .* -- 'npm test'$/);
  });

  it('Copilot CLI: every answer is JSON with exit 0 (it runs the tool after a failed hook); toolArgs as a JSON text or an object; other tools pass, another shell-like tool does not', async () => {
    const deny = await hook('copilot', withCommand('copilot', 'git push --force origin main'));
    expect(deny.code).toBe(0);
    expect(JSON.parse(deny.out)).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('git-push-force') });
    const asObject = JSON.stringify({ sessionId: 's1', timestamp: 1, cwd: home.cwd, toolName: 'bash', toolArgs: { command: 'rm -rf --no-preserve-root /' } });
    expect(JSON.parse((await hook('copilot', asObject)).out).permissionDecision).toBe('deny');
    const garbage = await hook('copilot', '{"toolName": "bash", "toolArgs": "{not json"}');
    expect(garbage.code).toBe(0);
    expect(JSON.parse(garbage.out).permissionDecision).toBe('deny');
    expect((await hook('copilot', JSON.stringify({ cwd: home.cwd, toolName: 'view', toolArgs: '{"path":"README.md"}' }))).out).toBe('');
    expect(JSON.parse((await hook('copilot', JSON.stringify({ cwd: home.cwd, toolName: 'powershell', toolArgs: '{"command":"Remove-Item -Recurse C:/"}' }))).out).permissionDecision).toBe('deny');
    const notJson = await hook('copilot', 'not json');
    expect(notJson.code).toBe(0);
    expect(JSON.parse(notJson.out).permissionDecision).toBe('deny');
  });

  it('lines that change the agent shell\'s state are not rewritten (cd would be lost in mish\'s child shell)', async () => {
    const r = await hook('claude-code', withCommand('claude-code', 'cd src && ls', { permission_mode: 'bypassPermissions' }));
    expect(r.out).toBe('');
  });

  for (const id of HOST_IDS) {
    it(`${id}: a forbidden command is denied with the rule, the reason and what to do instead`, async () => {
      const r = await hook(id, withCommand(id, 'rm -rf --no-preserve-root /'));
      expect(verdictOf(id, r)).toBe('deny');
      expect(r.out).toContain('rm-no-preserve-root');
      expect(r.out).toMatch(/do the task another way/);
    });
  }

  it('an escalation nobody decides: ask where ask means asking the user (Claude Code, Cursor), deny where it would run (Codex, Copilot CLI) or there is no ask (Gemini CLI)', async () => {
    const got: Record<string, Verdict> = {};
    for (const id of HOST_IDS) got[id] = verdictOf(id, await hook(id, withCommand(id, 'git push --force origin main')));
    expect(got).toEqual({ 'claude-code': 'ask', codex: 'deny', 'gemini-cli': 'deny', cursor: 'ask', copilot: 'deny' });
  });

  it('a hook still deciding near the host timeout answers on its own (stdin that never ends)', async () => {
    let out = '';
    const io: HookIo = { readStdin: () => new Promise(() => {}), out: (t) => (out += t), err: () => {}, env, cwd: () => home.cwd, now: () => Date.now() };
    const started = Date.now();
    const code = await runHook(['codex', '--timeout', '2'], io);
    expect(Date.now() - started).toBeLessThan(1900);
    expect(code).toBe(0);
    expect(JSON.parse(out).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('bad arguments: one line, exit 2', async () => {
    expect(await hook('nope' as HostId, '{}')).toMatchObject({ code: 2, err: expect.stringMatching(/^mish hook: unknown agent 'nope'/) });
  });
});

describe('the agent cannot switch mish off through any host (issue 20)', () => {
  it('emptying a hook configuration is escalated (the host\'s ask or deny), deleting one and mish init --uninstall are denied, in every host', async () => {
    const got: Record<string, Verdict[]> = {};
    for (const id of HOST_IDS) got[id] = [await hook(id, withCommand(id, `echo '{}' > ~/.claude/settings.json`)), await hook(id, withCommand(id, 'rm ~/.codex/hooks.json')), await hook(id, withCommand(id, 'mish init claude-code --uninstall'))].map((r) => verdictOf(id, r));
    expect(got).toEqual({ 'claude-code': ['ask', 'deny', 'deny'], codex: ['deny', 'deny', 'deny'], 'gemini-cli': ['deny', 'deny', 'deny'], cursor: ['ask', 'deny', 'deny'], copilot: ['deny', 'deny', 'deny'] });
    // The launcher this hook was installed as: gone, the agent's hook would exit 127 (ignored by the hosts).
    expect(verdictOf('codex', await hook('codex', withCommand('codex', `rm ${launcherScript('mish-hook.sh')}`)))).toBe('deny');
    const r = await hook('codex', withCommand('codex', 'rm ~/.codex/hooks.json'));
    expect(JSON.parse(r.out).hookSpecificOutput.permissionDecisionReason).toMatch(/mish-hook-config.*switches mish's supervision of the agent off/);
  });

  it('a CDPATH in the agent\'s environment is followed by a relative cd: overwriting mish\'s policy there is escalated, and without it the same line is not', async () => {
    const line = 'cd .config/mish && echo x > policy.toml';
    // The project has a .config/mish of its own: bash's cd searches CDPATH first (~/.config/mish), the cwd only without it.
    mkdirSync(path.join(home.cwd, '.config', 'mish'), { recursive: true });
    const io = (extra: NodeJS.ProcessEnv) => {
      let out = '';
      const hookIo: HookIo = { readStdin: async () => withCommand('claude-code', line), out: (t) => (out += t), err: () => {}, env: { ...env, ...extra }, cwd: () => home.cwd, now: () => Date.now() };
      return { hookIo, out: () => out };
    };
    const withCdpath = io({ CDPATH: home.home });
    expect(await runHook(['claude-code'], withCdpath.hookIo)).toBe(0);
    expect(['ask', 'deny']).toContain(verdictOf('claude-code', { code: 0, out: withCdpath.out() }));
    expect(withCdpath.out()).toContain('policy.toml');
    const without = io({});
    expect(await runHook(['claude-code'], without.hookIo)).toBe(0);
    expect(['pass', 'rewrite']).toContain(verdictOf('claude-code', { code: 0, out: without.out() }));
  });

  it('a project policy that is a FIFO or a link to /dev/zero: the hook answers at once, escalating (held at ask), never hangs past its host\'s timeout', async () => {
    const project = path.join(home.cwd, 'fifo-project');
    const policy = path.join(project, '.mish', 'policy.toml');
    mkdirSync(path.dirname(policy), { recursive: true });
    for (const make of [() => execFileSync('mkfifo', [policy]), () => symlinkSync('/dev/zero', policy)]) {
      rmSync(policy, { force: true });
      make();
      let out = '';
      const io: HookIo = { readStdin: async () => withCommand('claude-code', 'rm -rf ~', { cwd: project }), out: (t) => (out += t), err: () => {}, env, cwd: () => project, now: () => Date.now() };
      const started = Date.now();
      expect(await runHook(['claude-code'], io)).toBe(0);
      expect(['ask', 'deny']).toContain(verdictOf('claude-code', { code: 0, out }));
      // Held at ask: even an ordinary command is not waved through while the policy cannot be read.
      let plain = '';
      await runHook(['claude-code'], { ...io, readStdin: async () => withCommand('claude-code', 'ls', { cwd: project }), out: (t) => (plain += t) });
      expect(verdictOf('claude-code', { code: 0, out: plain }), plain).toBe('ask');
      expect(Date.now() - started).toBeLessThan(30_000);
    }
    rmSync(project, { recursive: true, force: true });
  });

  it('Claude Code in bypassPermissions mode: an escalation nobody decides is denied (Claude Code runs what its hook asks about in that mode)', async () => {
    expect(verdictOf('claude-code', await hook('claude-code', withCommand('claude-code', `echo '{}' > ~/.claude/settings.json`, { permission_mode: 'bypassPermissions' })))).toBe('deny');
    expect(verdictOf('claude-code', await hook('claude-code', withCommand('claude-code', 'git push --force origin main', { permission_mode: 'bypassPermissions' })))).toBe('deny');
    expect(verdictOf('claude-code', await hook('claude-code', withCommand('claude-code', 'git push --force origin main', { permission_mode: 'default' })))).toBe('ask');
  });

  it('a payload mish cannot read (over the cap, not JSON) is denied, never asked: its permission mode is unknown and bypassPermissions runs an ask', async () => {
    const big = withCommand('claude-code', `rm -rf ~ #${'x'.repeat(5 * 1024 * 1024)}`, { permission_mode: 'bypassPermissions' });
    let out = '';
    const io: HookIo = { readStdin: async (max) => (Buffer.byteLength(big) > max ? undefined : big), out: (t) => (out += t), err: () => {}, env, cwd: () => home.cwd, now: () => Date.now() };
    expect(await runHook(['claude-code'], io)).toBe(0);
    expect(verdictOf('claude-code', { code: 0, out })).toBe('deny');
    expect(out).toContain('larger than');
    expect(verdictOf('claude-code', await hook('claude-code', '{"tool_name": "Bash", "permission_mode": "bypassPermissions", "tool_input": {"command": "rm -rf ~"'))).toBe('deny');
  });

  it('Claude Code\'s Edit/Write/MultiEdit/NotebookEdit: mish\'s own files denied, a hook configuration asked (denied where Claude Code would not ask), any other file passes', async () => {
    const edit = (tool: string, input: Record<string, unknown>, mode = 'default') => JSON.stringify({ session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: home.cwd, permission_mode: mode, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input });
    const settings = path.join(home.home, '.claude', 'settings.json');
    const policyFile = path.join(home.home, '.config', 'mish', 'policy.toml');
    const cases: Array<[string, Verdict]> = [
      [edit('Write', { file_path: settings, content: '{}' }), 'ask'],
      [edit('Edit', { file_path: settings, old_string: 'mish', new_string: 'x' }), 'ask'],
      [edit('MultiEdit', { file_path: path.join(home.cwd, '.claude', 'settings.local.json'), edits: [] }), 'ask'],
      [edit('Write', { file_path: settings, content: '{}' }, 'bypassPermissions'), 'deny'],
      [edit('Edit', { file_path: settings, old_string: 'a', new_string: 'b' }, 'acceptEdits'), 'deny'],
      [edit('Write', { file_path: policyFile, content: '' }), 'deny'],
      [edit('Write', { file_path: path.join(home.cwd, '.mish', 'policy.toml'), content: '' }, 'bypassPermissions'), 'deny'],
      [edit('NotebookEdit', { notebook_path: path.join(home.cwd, 'a.ipynb'), new_source: 'x' }), 'pass'],
      [edit('Write', { file_path: path.join(home.cwd, 'src', 'a.ts'), content: 'x' }, 'bypassPermissions'), 'pass'],
      [edit('Write', { file_path: `${settings}.bak`, content: '{}' }), 'pass'],
      // No file named: malformed, the host's ask (never a silent pass).
      [edit('Write', { content: 'x' }), 'ask'],
      // Through a link the agent made (`ln -s ~/.claude link`): the file the filesystem writes is judged too.
      [edit('Write', { file_path: path.join(home.cwd, 'claude-link', 'settings.json'), content: '{}' }, 'bypassPermissions'), 'deny'],
      [edit('Write', { file_path: path.join(home.cwd, 'claude-link', 'notes.md'), content: 'x' }), 'pass'],
    ];
    mkdirSync(path.dirname(settings), { recursive: true });
    rmSync(path.join(home.cwd, 'claude-link'), { force: true });
    symlinkSync(path.dirname(settings), path.join(home.cwd, 'claude-link'));
    const got = [];
    for (const [payload] of cases) got.push(verdictOf('claude-code', await hook('claude-code', payload)));
    expect(got).toEqual(cases.map((c) => c[1]));
  });
});

describe('mish\'s installation and its compiled-policy cache are mish\'s own files (adversary pass 4, H10-H12, H21-H25)', () => {
  // The package root this mish runs from (the checkout under test): emptying dist/hook.cjs or making
  // bin/run-cached.cjs exit 0 would have every later hook call say nothing, which the hosts run.
  const root = path.resolve(__dirname, '../..');
  const edit = (tool: string, input: Record<string, unknown>, mode = 'default') => JSON.stringify({ session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: home.cwd, permission_mode: mode, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input });

  it('shell lines that empty, rewrite or delete the installation or poison the cache are denied in every host; reading, running mish and the sources stay allowed', async () => {
    const denied = [`: > ${root}/dist/hook.cjs`, `echo 'process.exit(0)' > ${root}/bin/run-cached.cjs`, `rm -rf ${root}/node_modules`, `sed -i s/mish/x/ ${root}/package.json`, `sed -i 's/"decision":"[a-z]*"/"decision":"allow"/g' ~/.cache/mish/policy/*.json`];
    for (const id of HOST_IDS) for (const line of denied) expect([id, line, verdictOf(id, await hook(id, withCommand(id, line)))]).toEqual([id, line, 'deny']);
    // A developer of mish with hooks on in the checkout: the sources are not guarded; reading and running the installation is allowed.
    for (const line of [`cat ${root}/dist/hook.cjs`, `ls ~/.cache/mish/policy`, `echo x > ${root}/src/scratch.ts`]) expect([line, verdictOf('codex', await hook('codex', withCommand('codex', line)))]).toEqual([line, 'pass']);
  });

  it('the hosts\' own file edits of the installation or the cache are denied (Claude Code Write/Edit, Codex apply_patch in its tool and in its shell)', async () => {
    const cache = path.join(home.home, '.cache', 'mish', 'policy', 'x.json');
    const cases: Array<[HostId, string, Verdict]> = [
      ['claude-code', edit('Edit', { file_path: `${root}/bin/run-cached.cjs`, old_string: "'use strict';", new_string: "'use strict'; process.exit(0);" }), 'deny'],
      ['claude-code', edit('Write', { file_path: `${root}/dist/hook.cjs`, content: '' }, 'bypassPermissions'), 'deny'],
      ['claude-code', edit('Write', { file_path: cache, content: '{}' }), 'deny'],
      ['claude-code', edit('Write', { file_path: `${root}/src/scratch.ts`, content: 'x' }), 'pass'],
      ['codex', withCommand('codex', `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${root}/dist/hook.cjs\n+// nothing\n*** End Patch\nEOF`), 'deny'],
    ];
    const got: Array<[HostId, string, Verdict]> = [];
    for (const [id, payload] of cases) got.push([id, payload, verdictOf(id, await hook(id, payload))]);
    expect(got).toEqual(cases);
  });
});

/** A recorded file-edit payload (fixtures/hooks/<host>/file-edit/<name>.json) with its input changed and the test's cwd. */
function fileEdit(id: HostId, name: string, change: (p: Record<string, any>) => void): string {
  const p = JSON.parse(readFileSync(path.join(FIXTURES, id, 'file-edit', `${name}.json`), 'utf8')) as Record<string, any>;
  p.cwd = home.cwd;
  change(p);
  return JSON.stringify(p);
}

describe('the other hosts\' file-editing tools (recorded payloads): mish\'s own files and hook configurations denied, any other file passes', () => {
  const patch = (...headers: string[]) => `*** Begin Patch\n${headers.join('\n')}\n*** End Patch\n`;
  /** A link the agent made earlier (`ln -s ~/.codex codex-link`): a patch of codex-link/hooks.json writes Codex's hook file. */
  const codexLink = () => {
    mkdirSync(path.join(home.home, '.codex'), { recursive: true });
    rmSync(path.join(home.cwd, 'codex-link'), { force: true });
    symlinkSync(path.join(home.home, '.codex'), path.join(home.cwd, 'codex-link'));
  };
  async function verdicts(id: HostId, cases: Array<[string, Verdict]>): Promise<void> {
    const got: Array<[string, Verdict]> = [];
    for (const [payload] of cases) got.push([payload, verdictOf(id, await hook(id, payload))]);
    expect(got).toEqual(cases);
  }

  it('the recorded payloads parse as file edits of the files they name', () => {
    const codex = HOSTS.codex.parse(JSON.parse(readFileSync(path.join(FIXTURES, 'codex/file-edit/recorded-0.171.0-apply-patch.json'), 'utf8')), {});
    expect(codex).toMatchObject({ kind: 'file-edit', tool: 'apply_patch', files: ['a.txt', 'b.txt'] });
    const inShell = HOSTS.codex.parse(JSON.parse(readFileSync(path.join(FIXTURES, 'codex/file-edit/recorded-0.171.0-apply-patch-in-shell.json'), 'utf8')), {});
    expect(inShell).toMatchObject({ kind: 'shell', editsFiles: ['a.txt', 'b.txt'] });
    for (const [id, name, tool] of [['gemini-cli', 'recorded-0.61.0-write-file', 'write_file'], ['gemini-cli', 'recorded-0.61.0-replace', 'replace'], ['copilot', 'recorded-1.0.102-create', 'create'], ['copilot', 'recorded-1.0.102-edit', 'edit']] as const) {
      const p = HOSTS[id].parse(JSON.parse(readFileSync(path.join(FIXTURES, id, 'file-edit', `${name}.json`), 'utf8')), {});
      expect(p).toMatchObject({ kind: 'file-edit', tool });
      expect(p.kind === 'file-edit' && p.files.length === 1 && p.files[0].endsWith('.txt')).toBe(true);
    }
  });

  it('Codex apply_patch: any protected file in the patch denies it (Codex\'s ask runs the call), an ordinary patch passes', async () => {
    const ap = (text: string) => fileEdit('codex', 'recorded-0.171.0-apply-patch', (p) => (p.tool_input.command = text));
    const hooks = path.join(home.home, '.codex', 'hooks.json');
    codexLink();
    await verdicts('codex', [
      [ap(patch('*** Update File: a.txt', '@@', '-one', '+two', '*** Add File: src/b.ts', '+x')), 'pass'],
      [ap(patch(`*** Update File: ${hooks}`, '@@', '-"hooks"', '+"x"')), 'deny'],
      [ap(patch('*** Delete File: .codex/hooks.json')), 'deny'],
      [ap(patch('*** Add File: notes.md', '+n', '*** Update File: ../.codex/config.toml', '@@', '-a', '+b')), 'deny'],
      [ap(patch('*** Update File: old.json', `*** Move to: ${hooks}`, '@@', '-a', '+b')), 'deny'],
      [ap(patch('*** Add File: .mish/policy.toml', '+[rules]')), 'deny'],
      [ap(patch('*** Update File: codex-link/hooks.json', '@@', '-a', '+b')), 'deny'],
      [ap(patch(`*** Update File: ${path.join(home.home, '.config', 'mish', 'policy.toml')}`, '@@', '-a', '+b')), 'deny'],
      // Spellings Codex's lenient parser still applies.
      [ap(`*** Begin Patch\r\n  ***   Update File:   ${hooks}  \r\n@@\r\n-a\r\n+b\r\n*** End Patch\r\n`), 'deny'],
      // No file named: cannot be judged, denied (never a silent pass).
      [ap('*** Begin Patch\n*** End Patch\n'), 'deny'],
      [fileEdit('codex', 'recorded-0.171.0-apply-patch', (p) => (p.tool_input = {})), 'deny'],
    ]);
    const r = await hook('codex', ap(patch(`*** Update File: ${hooks}`, '@@', '-a', '+b')));
    expect(JSON.parse(r.out).hookSpecificOutput.permissionDecisionReason).toMatch(/rule mish-hook-config \(ask\): apply_patch changes .*Codex's hooks cannot ask you/);
  });

  it('Codex\'s shell tool with `apply_patch <<EOF` (Codex applies it itself): the patch\'s files are judged too, through links as the filesystem writes them', async () => {
    const sh = (files: string[]) => fileEdit('codex', 'recorded-0.171.0-apply-patch-in-shell', (p) => (p.tool_input.command = `apply_patch <<'EOF'\n${patch(...files.flatMap((f) => [`*** Update File: ${f}`, '@@', '-a', '+b']))}EOF\n`));
    // The line names no hook file; the patch writes one through the link.
    codexLink();
    await verdicts('codex', [
      [sh(['codex-link/hooks.json']), 'deny'],
      [sh(['codex-link/notes.md']), 'pass'],
      [sh(['a.txt']), 'pass'],
      [sh(['a.txt', path.join(home.home, '.codex', 'hooks.json')]), 'deny'],
      [sh(['.claude/settings.json']), 'deny'],
      [sh([path.join(home.home, '.config', 'mish', 'policy.toml')]), 'deny'],
    ]);
  });

  it('Gemini CLI write_file / replace: a hook configuration or mish\'s own file is denied (its hooks have no ask), any other file passes', async () => {
    const w = (file: unknown) => fileEdit('gemini-cli', 'recorded-0.61.0-write-file', (p) => (p.tool_input.file_path = file));
    const r = (file: string) => fileEdit('gemini-cli', 'recorded-0.61.0-replace', (p) => (p.tool_input.file_path = file));
    await verdicts('gemini-cli', [
      [w(path.join(home.cwd, 'b.txt')), 'pass'],
      [r(path.join(home.cwd, 'a.txt')), 'pass'],
      [w(path.join(home.home, '.gemini', 'settings.json')), 'deny'],
      [r('.gemini/settings.json'), 'deny'],
      [r(path.join(home.home, '.claude', 'settings.json')), 'deny'],
      [w(path.join(home.cwd, '.mish', 'policy.toml')), 'deny'],
      [w(undefined), 'deny'],
    ]);
  });

  it('Copilot CLI create / edit: a hook configuration or mish\'s own file is denied, any other file passes (toolArgs as object or as JSON text)', async () => {
    const c = (file: unknown) => fileEdit('copilot', 'recorded-1.0.102-create', (p) => (p.toolArgs.path = file));
    const e = (file: string, asText = false) => fileEdit('copilot', 'recorded-1.0.102-edit', (p) => {
      p.toolArgs.path = file;
      if (asText) p.toolArgs = JSON.stringify(p.toolArgs);
    });
    await verdicts('copilot', [
      [c(path.join(home.cwd, 'b.txt')), 'pass'],
      [e(path.join(home.cwd, 'a.txt')), 'pass'],
      [e(path.join(home.cwd, 'a.txt'), true), 'pass'],
      [c(path.join(home.home, '.copilot', 'hooks', 'mish.json')), 'deny'],
      [e('.github/hooks/mish.json', true), 'deny'],
      [e(path.join(home.home, '.codex', 'hooks.json')), 'deny'],
      [c(path.join(home.home, '.config', 'mish', 'policy.toml')), 'deny'],
      [c(undefined), 'deny'],
    ]);
  });
});

describe('the policy tables through every host (no operator attached)', () => {
  const dangerous = readTable('dangerous.txt');
  it(`0 of ${dangerous.length} dangerous lines pass, are rewritten or allowed, in any host`, async () => {
    const through: string[] = [];
    for (const line of dangerous) {
      for (const id of HOST_IDS) {
        const r = await hook(id, withCommand(id, line, id === 'claude-code' ? { permission_mode: 'bypassPermissions' } : {}));
        const v = verdictOf(id, r);
        if (v !== 'deny' && v !== 'ask') through.push(`${id}: ${line} → ${v}`);
      }
    }
    expect(through).toEqual([]);
  }, 300_000);
});

describe('fast-check: malformed and hostile payloads', () => {
  const policy = () => loadPolicy({ grammarsDir: path.join(ROOT, 'grammars'), cwd: home.cwd, env });
  const dangerous = readTable('dangerous.txt');
  const command = fc.oneof(fc.constantFrom(...dangerous), fc.string(), fc.constantFrom('npm test', 'ls', ''), fc.array(fc.string(), { maxLength: 4 }), fc.anything());
  const payload = (id: HostId) =>
    fc.oneof(
      fc.anything(),
      fc.jsonValue(),
      command.map((c) => JSON.parse(withCommand(id, 'x')) && { ...JSON.parse(withCommand(id, 'x')), ...(id === 'cursor' ? { command: c } : id === 'copilot' ? { toolArgs: JSON.stringify({ command: c }) } : { tool_input: { command: c } }) }),
      command.chain((c) =>
        fc.record({ hook_event_name: fc.constantFrom('PreToolUse', 'BeforeTool', 'beforeShellExecution', 'Other', 7), tool_name: fc.constantFrom('Bash', 'run_shell_command', 'Read', null), toolName: fc.constantFrom('bash', 'Bash', 'view', 'powershell', undefined), toolArgs: fc.oneof(fc.constant(JSON.stringify({ command: c })), fc.constant({ command: c }), fc.anything()), tool_input: fc.oneof(fc.constant({ command: c }), fc.anything()), command: fc.constant(c), permission_mode: fc.constantFrom('bypassPermissions', 'default', undefined), __proto__: fc.anything() }, { requiredKeys: [] }),
      ),
    );
  for (const id of HOST_IDS) {
    it(`${id}: 0 silent allows in 250 payloads (anything that runs was judged allow by the policy, or is not a shell call)`, async () => {
      const p = policy();
      await fc.assert(
        fc.asyncProperty(payload(id), fc.boolean(), async (value, asText) => {
          let text: string;
          try {
            text = asText ? (JSON.stringify(value) ?? 'undefined') : String(value);
          } catch {
            text = '{';
          }
          const r = await hook(id, text);
          const v = verdictOf(id, r);
          if (v === 'deny' || v === 'ask') return;
          let parsedJson: unknown;
          try {
            parsedJson = JSON.parse(text);
          } catch {
            throw new Error(`not JSON, yet ${v}: ${text.slice(0, 100)}`);
          }
          const parsed = HOSTS[id].parse(parsedJson, {});
          if (parsed.kind === 'other') return;
          if (parsed.kind !== 'shell') throw new Error(`malformed, yet ${v}: ${text.slice(0, 100)}`);
          const d = decide(parsed.call.command, p, { cwd: home.cwd });
          if (v === 'allow') throw new Error(`allowed without an operator: ${parsed.call.command}`);
          if (d.decision !== 'allow' && d.decision !== 'confirm') throw new Error(`${d.decision} (${d.rule}), yet ${v}: ${parsed.call.command}`);
        }),
        { numRuns: 250 },
      );
    }, 300_000);
  }
});
