/**
 * sh_session: create, list, close and restart persistent shell sessions (local shells or remote
 * ones over the system ssh client). A "default" session also appears on first use of sh_run.
 */
import { z } from 'zod';
import { decide } from '../../core/policy/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SessionInfo } from '../../core/session/types.js';
import { reply, sessionNameArg, toolError, type McpDeps } from '../tool-kit.js';

const inputSchema = {
  action: z
    .enum(['create', 'list', 'close', 'restart'])
    .describe('create a session, list sessions, close one, or restart one with a fresh shell (same options). close and restart end everything the old shell ran, daemons started with setsid/nohup included (sh_spawn processes stay).'),
  name: sessionNameArg().optional().describe('Session name. create: default "default"; close/restart: required except for "default".'),
  shell: z
    .string()
    .optional()
    .describe(
      'create: bash (default), zsh, dash, sh, fish, or an absolute path to one of them (with ssh: the shell started on the remote host). In a fish session commands run in fish, but every sh_run line is first checked as bash syntax: use forms both read ("it\'s", $(cmd), &&); fish blocks (if/for … end) go in a file you source.',
    ),
  cwd: z.string().optional().describe('create: initial working directory.'),
  env: z.record(z.string(), z.string()).optional().describe('create: extra environment variables.'),
  ssh: z.string().optional().describe('create: "user@host" opens the session on a remote host through ssh.'),
  ssh_args: z
    .array(z.string())
    .optional()
    .describe('create with ssh: options for the ssh client before the destination, e.g. ["-p", "2222", "-i", "/home/me/.ssh/id_deploy"]. Keys must work without a passphrase prompt (BatchMode is not forced).'),
};

const sessionSchema = z.object({
  name: z.string(),
  shell: z.string(),
  integration: z.string(),
  remote: z.string().optional(),
  pid: z.number(),
  cwd: z.string(),
  state: z.string(),
  commands: z.number(),
  last_exit_code: z.number().optional(),
  running: z.string().optional().describe('id of the command running now'),
});

const outputSchema = {
  action: z.string(),
  sessions: z.array(sessionSchema).describe('create/restart: the session; list: all sessions; close: empty.'),
  refused: z.boolean().optional().describe('create: nothing was created — its env or ssh options would run what the policy does not allow'),
  policy: z.object({ decision: z.string(), rule: z.string(), reason: z.string() }).optional().describe('refused: the policy decision, its rule and why'),
};

type SessionOut = z.infer<typeof sessionSchema>;

function toOut(s: SessionInfo): SessionOut {
  return {
    name: s.name,
    shell: s.shell,
    integration: s.integration,
    ...(s.remote ? { remote: s.remote } : {}),
    pid: s.pid,
    cwd: s.cwd,
    state: s.state,
    commands: s.commands,
    ...(s.lastExitCode !== undefined ? { last_exit_code: s.lastExitCode } : {}),
    ...(s.runningCommandId ? { running: s.runningCommandId } : {}),
  };
}

function line(s: SessionInfo): string {
  const where = s.remote ? ` on ${s.remote}` : '';
  const last = s.lastExitCode !== undefined ? `, last exit ${s.lastExitCode}` : '';
  const running = s.runningCommandId ? `, running ${s.runningCommandId}` : '';
  return `${s.name}: ${s.shell}${where} pid ${s.pid} ${s.state} in ${s.cwd} (${s.commands} commands${last}${running})`;
}

export function registerShSession(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'sh_session',
    {
      title: 'Manage shell sessions',
      description:
        'Create, list, close or restart persistent shell sessions. Each session is a real shell whose cwd and environment persist between sh_run calls; use separate sessions for independent work (e.g. one per repository) or ssh: "user@host" for a remote shell. A "default" session is created automatically on first use, so you only need this tool for extra sessions, a different shell, or a fresh start (restart).',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    async (args) => {
      const { sessions } = deps;
      switch (args.action) {
        case 'list': {
          const all = sessions.list();
          const text = all.length ? all.map(line).join('\n') : 'no sessions yet (sh_run creates "default" on first use)';
          return reply(text, { action: 'list', sessions: all.map(toOut) });
        }
        case 'create': {
          if (args.ssh_args && !args.ssh) return toolError('ssh_args without ssh', 'pass ssh: "user@host" with them, or leave ssh_args out for a local session');
          // The new shell's environment (PROMPT_COMMAND, BASH_ENV, LD_PRELOAD…) and ssh options (ProxyCommand) run
          // commands too: the policy judges them as the line that would set them.
          const policy = deps.policy?.();
          if (policy) {
            const q = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
            const lines = [
              ...(args.env && Object.keys(args.env).length ? [`env ${Object.entries(args.env).map(([k, v]) => `${k}=${q(v)}`).join(' ')} true`] : []),
              ...(args.ssh ? [`ssh ${(args.ssh_args ?? []).map(q).join(' ')} ${q(args.ssh)}`] : []),
            ];
            for (const l of lines) {
              const d = decide(l, policy, { cwd: args.cwd, session: args.name });
              if (d.decision !== 'allow' && d.decision !== 'confirm') {
                return reply(`refused: the session's ${l.startsWith('env') ? 'environment' : 'ssh options'} would run what the policy does not allow; nothing was created\npolicy says ${d.decision} (rule ${d.rule}): ${d.reason}`, {
                  action: 'create',
                  sessions: [],
                  refused: true,
                  policy: { decision: d.decision, rule: d.rule, reason: d.reason },
                });
              }
            }
          }
          const created = await sessions.create({ name: args.name, shell: args.shell, cwd: args.cwd, env: args.env, ssh: args.ssh, ...(args.ssh_args ? { sshArgs: args.ssh_args } : {}) });
          if (!created.ok) {
            const next =
              created.error.kind === 'exists'
                ? `use it as is (sh_run {session: "${args.name ?? 'default'}"}), or restart it, or pick another name`
                : created.error.kind === 'bad-cwd'
                  ? 'pass an existing directory as cwd'
                  : created.error.kind === 'bad-shell'
                    ? 'use bash, zsh, dash, sh, fish or an absolute path to an installed one of them'
                    : created.error.kind === 'bad-ssh'
                      ? 'pass a plain host or user@host, and only connection options (-p, -i, -l, -J, -o Port=…); options that run or load anything locally are refused — put such settings in your own ~/.ssh/config'
                      : 'check the shell/ssh settings; the message above says what failed';
            return toolError(`sh_session create failed (${created.error.kind}): ${created.error.message}`, next);
          }
          return reply(`created ${line(created.value)}`, { action: 'create', sessions: [toOut(created.value)] });
        }
        case 'close': {
          const name = args.name ?? 'default';
          const closed = await sessions.close(name);
          if (!closed) {
            const names = sessions.list().map((x) => x.name);
            return toolError(`no session named "${name}"`, names.length ? `sessions: ${names.join(', ')}` : 'there are no sessions (sh_run creates "default" on first use)');
          }
          return reply(`closed session ${name}; everything it ran was ended (daemons started with setsid/nohup too)`, { action: 'close', sessions: [] });
        }
        case 'restart': {
          const name = args.name ?? 'default';
          // "default" is created on first use anyway; another unknown name is likely a typo, and a restart that quietly creates it hides that.
          if (name !== 'default' && !sessions.list().some((x) => x.name === name)) {
            const names = sessions.list().map((x) => x.name);
            return toolError(`no session named "${name}" to restart`, `${names.length ? `sessions: ${names.join(', ')}; ` : ''}create it with sh_session {action: "create", name: "${name}"}`);
          }
          const restarted = await sessions.restart(name);
          if (!restarted.ok) return toolError(`sh_session restart failed (${restarted.error.kind}): ${restarted.error.message}`, 'call sh_session {action: "list"}, or create the session anew');
          return reply(`restarted ${line(restarted.value)} (fresh shell: cwd and env reset; what the old shell ran was ended, daemons included)`, { action: 'restart', sessions: [toOut(restarted.value)] });
        }
      }
    },
  );
}
