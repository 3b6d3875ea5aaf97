/**
 * A real Claude Code (the @anthropic-ai/claude-code devDependency, its native binary) in headless
 * mode, in a temp HOME, against a scripted stand-in for the Messages API on 127.0.0.1, with mish's
 * hook installed by `mish init claude-code`. What the stand-in receives as the Bash tool_result is
 * exactly what the model would have read.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { hookDaemonDir, runningDaemon, stopDaemon } from '../../src/main/hooks/hook-daemon-dir.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';
import { itUnless } from '../helpers/skip.js';
import { startStandIn, type StandIn, type ToolStep } from './anthropic-standin.js';
import { autoApprove, OPERATOR_WATCHING_ENV, watchServers } from './operator-watch.js';

const ROOT = path.resolve(__dirname, '../..');
const MISH = path.join(ROOT, 'bin/mish.js');
const CLAUDE = path.join(ROOT, 'node_modules/.bin/claude');
const why = existsSync(CLAUDE) && spawnSync(CLAUDE, ['--version'], { encoding: 'utf8' }).status === 0 ? '' : 'needs @anthropic-ai/claude-code with its platform binary (npm ci)';

let home: SafeHome;
let api: StandIn;

function env(extra: Record<string, string> = {}): Record<string, string> {
  return home.env({
    ...extra,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'sk-ant-standin',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    // bypassPermissions is refused as root outside a sandbox; the temp HOME is this test's sandbox.
    IS_SANDBOX: '1',
    MISH_OPERATOR_DIR: path.join(home.home, '.run', 'ops'),
    // bin/mish-hook.sh (the hook mish init writes) appends who answered each call: its hook daemon (fast) or the node hook.
    MISH_HOOK_FRONT_TRACE: path.join(home.home, 'front-trace'),
  });
}

/** One `claude -p` run that makes Claude Code call Bash with `command`; resolves with the tool_result it sent back. */
async function runClaude(command: string | ToolStep, mode = 'bypassPermissions', extraEnv: Record<string, string> = {}) {
  api.script.push(command);
  const before = api.results.length;
  const child = spawn(CLAUDE, ['-p', 'run the scripted command', '--output-format', 'json', '--permission-mode', mode], { cwd: home.cwd, env: env(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, `claude exited ${code}: ${err.slice(0, 500)}`).toBe(0);
  const json = JSON.parse(out) as { is_error: boolean; num_turns: number; session_id: string };
  const result = api.results[before];
  expect(result, `no tool_result reached the stand-in (claude said ${out.slice(0, 300)})`).toBeDefined();
  return { result, json };
}

/** An operator as the console is one: looks for servers (and so marks itself running), connects to each, records what it is sent. */
function watchAsConsole(dir: string) {
  const servers: { client?: string; sessions: string[]; commands: string[]; replies: string[] }[] = [];
  const watch = watchServers(dir, { name: 'test-console', role: 'console', approvals: true }, (client) => {
    const rec = { client: client.hello.client?.name, sessions: client.hello.sessions.map((x) => x.name), commands: [] as string[], replies: [] as string[] };
    servers.push(rec);
    const take = (m: { type: string; command?: string; reply?: boolean; final?: boolean; lines?: string[] }) => {
      if (m.type === 'command-start' && m.command) rec.commands.push(m.command);
      if (m.type === 'condensed' && m.reply && m.final && m.lines) rec.replies.push(m.lines.join('\n'));
    };
    for (const m of client.hello.recent ?? []) take(m);
    client.on('command-start', take);
    client.on('condensed', take);
  });
  return { servers, stop: watch.stop };
}

describe('Claude Code with mish init claude-code', () => {
  beforeAll(async () => {
    home = safeHome('claude-hook');
    api = await startStandIn();
    const r = spawnSync(process.execPath, [MISH, 'init', 'claude-code'], { env: home.env(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    writeFileSync(path.join(home.cwd, 'build.sh'), 'for i in $(seq 1 400); do echo "warming cache"; done\necho "error: boom" >&2\nexit 3\n');
  });
  afterAll(async () => {
    home.assertCanariesIntact();
    await api?.close();
    // The hook daemon the bash front started for this temp HOME (it would also end once its directory is gone).
    if (home) stopDaemon(home.env());
    home?.dispose();
  });

  itUnless(why)('an allowed command runs through mish: the model receives the condensed text and the exit code; the run is a session of claude-code on the operator wire', async () => {
    const settings = readFileSync(path.join(home.home, '.claude', 'settings.json'), 'utf8');
    expect(settings).toContain('hook claude-code');
    const op = watchAsConsole(path.join(home.home, '.run', 'ops'));
    let ran: Awaited<ReturnType<typeof runClaude>>;
    try {
      ran = await runClaude('sh build.sh');
    } finally {
      await op.stop();
    }
    const { result, json } = ran;
    // What the console is sent: the agent by name, its session id, the command and what the agent received.
    const server = op.servers.find((s) => s.client === 'claude-code');
    expect(server?.sessions).toEqual([json.session_id]);
    expect(server?.commands).toContain('sh build.sh');
    // Claude Code puts "Exit code 3" in front of what the command printed: the rest is mish's reply, exactly.
    expect(server?.replies.length).toBe(1);
    expect(result.content.trim().endsWith(server!.replies[0])).toBe(true);
    expect(result.content).toContain('error: boom');
    expect(result.content).toMatch(/exit 3/);
    // mish's fold of the 398 repeated lines: the host received mish's text, not the 401 raw lines.
    expect(result.content).toMatch(/398 identical lines/);
    expect(result.content.split('\n').length).toBeLessThan(20);
    expect(result.isError).toBe(true);
  }, 120_000);

  itUnless(why)('default permission mode: a command the user\'s own allow rule covers runs through mish; one it does not cover is left to Claude Code (denied in -p)', async () => {
    const file = path.join(home.home, '.claude', 'settings.json');
    const before = readFileSync(file, 'utf8');
    try {
      const settings = JSON.parse(before) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...settings, permissions: { allow: ['Bash(sh build.sh)'] } }));
      const allowed = await runClaude('sh build.sh', 'default');
      expect(allowed.result.content).toMatch(/398 identical lines/);
      const marker = path.join(home.cwd, 'not-allowed-ran');
      const other = await runClaude(`touch ${marker}`, 'default');
      expect(other.result.isError).toBe(true);
      expect(existsSync(marker)).toBe(false);
    } finally {
      writeFileSync(file, before);
    }
  }, 120_000);

  itUnless(why)('bypassPermissions: Claude Code runs a command its hook answered ask for, so an escalation nobody decides is denied there (asked in default mode)', async () => {
    const rc = path.join(home.home, '.bashrc');
    writeFileSync(rc, '');
    // write-startup-file is an ask rule; Claude Code 2.1.332 in bypassPermissions mode ran it on a hook's ask.
    const bypass = await runClaude('echo pwned >> ~/.bashrc');
    expect(bypass.result.isError).toBe(true);
    expect(bypass.result.content).toContain('write-startup-file');
    const asked = await runClaude('echo pwned >> ~/.bashrc', 'default');
    expect(asked.result.isError).toBe(true);
    expect(readFileSync(rc, 'utf8')).toBe('');
  }, 180_000);

  itUnless(why)('the agent cannot switch mish off from its Bash tool: writing its settings is escalated (denied in bypassPermissions with no operator), deleting them and mish init --uninstall are forbidden; the hook stays', async () => {
    const file = path.join(home.home, '.claude', 'settings.json');
    const before = readFileSync(file, 'utf8');
    expect(before).toContain('hook claude-code');
    // bypassPermissions: Claude Code itself would have run all three without asking.
    const emptied = await runClaude(`echo '{}' > ~/.claude/settings.json`);
    expect(emptied.result.content).toContain('mish-hook-config');
    expect(emptied.result.isError).toBe(true);
    const deleted = await runClaude('rm ~/.claude/settings.json');
    expect(deleted.result.isError).toBe(true);
    expect(deleted.result.content).toContain('mish-hook-config');
    const uninstalled = await runClaude(`node ${MISH} init claude-code --uninstall`);
    expect(uninstalled.result.isError).toBe(true);
    expect(uninstalled.result.content).toContain('mish-hook-config');
    expect(uninstalled.result.content).toMatch(/your own terminal/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  }, 180_000);

  itUnless(why)('Claude Code\'s own Write tool goes through the hook too: writing a hook configuration is denied in bypassPermissions (asked in default mode), mish\'s policy is forbidden, any other file is written', async () => {
    const local = path.join(home.cwd, '.claude', 'settings.local.json');
    const bypass = await runClaude({ tool: 'Write', input: { file_path: local, content: '{"disableAllHooks": true}\n' } });
    expect(bypass.result.isError).toBe(true);
    expect(bypass.result.content).toContain('mish-hook-config');
    const asked = await runClaude({ tool: 'Write', input: { file_path: local, content: '{"disableAllHooks": true}\n' } }, 'default');
    expect(asked.result.isError).toBe(true);
    expect(existsSync(local)).toBe(false);
    const policy = path.join(home.home, '.config', 'mish', 'policy.toml');
    const own = await runClaude({ tool: 'Write', input: { file_path: policy, content: '[default]\ndecision = "allow"\n' } });
    expect(own.result.content).toContain('mish-own-files');
    expect(existsSync(policy)).toBe(false);
    const plain = path.join(home.cwd, 'notes.md');
    const written = await runClaude({ tool: 'Write', input: { file_path: plain, content: 'hello\n' } });
    expect(written.result.isError).toBe(false);
    expect(readFileSync(plain, 'utf8')).toBe('hello\n');
  }, 180_000);

  itUnless(why)('a forbidden command is denied and the model receives the rule and the reason', async () => {
    const { result } = await runClaude('rm -rf --no-preserve-root /');
    expect(result.isError).toBe(true);
    expect(result.content).toContain('rm-no-preserve-root');
    expect(result.content).toMatch(/forbidden/);
  }, 120_000);

  itUnless(why)('a dangerous command with no operator attached is not run (ask is a denial in claude -p)', async () => {
    const marker = path.join(home.cwd, 'reset-ran');
    const { result } = await runClaude(`git reset --hard; touch ${marker}`);
    expect(result.isError).toBe(true);
    expect(existsSync(marker)).toBe(false);
  }, 120_000);

  itUnless(why)('a dangerous command reaches the operator over the operator wire; approved, it runs', async () => {
    const marker = path.join(home.cwd, 'approved-ran');
    const dir = path.join(home.home, '.run', 'ops');
    // A minimal approver, as `mish approvals` is: watch the socket directory, approve what arrives.
    const approver = autoApprove(dir, 'test-operator', 50);
    const seen = approver.seen;
    try {
      const { result } = await runClaude(`git reset --hard 2>&1; touch ${marker}; echo approved-and-ran`, undefined, OPERATOR_WATCHING_ENV);
      expect(seen.length).toBe(1);
      expect(seen[0].command).toContain('git reset --hard');
      expect(seen[0].agent).toBe('claude-code');
      expect(seen[0].session).toMatch(/^[0-9a-f-]{36}$/);
      expect(result.content).toContain('approved-and-ran');
      // Through mish (its status line), not as Claude Code would have run it.
      expect(result.content).toContain('[exit 0]');
      expect(existsSync(marker)).toBe(true);
    } finally {
      await approver.stop();
    }
    // The same audit records as mish serve's: requested, then approved by the operator.
    const audit = readFileSync(path.join(home.home, '.state', 'mish', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; decision: string; command?: string; agent?: string; detail?: { operator?: string } });
    const approvals = audit.filter((r) => r.kind === 'approval' && r.command?.includes('approved-and-ran'));
    // Then the approved line ran through mish, which redeemed the hook's one-shot approval token.
    expect(approvals.map((r) => r.decision)).toEqual(['requested', 'approved', 'token-redeemed']);
    expect(approvals[1].detail?.operator).toBe('test-operator');
    expect(approvals.slice(0, 2).every((r) => r.agent === 'claude-code')).toBe(true);
  }, 120_000);

  itUnless(why)('the hook mish init wrote is the bash front: a first call starts the hook daemon, which then answers an allowed command itself (run through mish all the same)', async () => {
    const settings = readFileSync(path.join(home.home, '.claude', 'settings.json'), 'utf8');
    expect(settings).toMatch(/bin\/mish-hook\.sh/);
    const trace = path.join(home.home, 'front-trace');
    if (runningDaemon(hookDaemonDir(env())) === undefined) await runClaude('sh build.sh');
    const end = Date.now() + 15_000;
    while (runningDaemon(hookDaemonDir(env())) === undefined && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    rmSync(trace, { force: true });
    const { result } = await runClaude('sh build.sh');
    expect(result.content).toMatch(/398 identical lines/);
    expect(result.content).toMatch(/exit 3/);
    // Under load the daemon's reply can miss the front's wait once (the node hook then answers the same); one retry.
    let who = readFileSync(trace, 'utf8').trim().split('\n');
    if (!who.includes('fast')) {
      await runClaude('sh build.sh');
      who = readFileSync(trace, 'utf8').trim().split('\n');
    }
    expect(who).toContain('fast');
  }, 180_000);
});
