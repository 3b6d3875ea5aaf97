/**
 * sh_spawn: start a background process (dev server, watcher, long build) and, with wait_for,
 * block until it is ready — its output matches, it exits, it asks for input, or the timeout
 * passes — so agents never need polling loops.
 */
import path from 'node:path';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SpawnEnvSource, WaitForResult } from '../../core/session/types.js';
import { stripAnsi } from '../../core/yield/prompt-patterns.js';
import { approvalNote, escalationData, operatorConfirm, type EscalationRecord } from '../escalation.js';
import { capReply, describeEntry, readLastLines, readsStdinAdvice, regexArg, reply, sessionNameArg, secondsToMs, startProgress, toolError, truncate, type McpDeps } from '../tool-kit.js';

/** Default wait_for timeout: below the 60 s default request timeout of the official SDK client. */
const DEFAULT_WAIT_S = 30;
/** Longest wait_for: clients that send progress tokens keep the call alive this long. */
const MAX_WAIT_S = 600;
/** Without wait_for, look this long for an immediate failure (command not found, bad flag) before replying. */
const SPAWN_SETTLE_MS = 300;
/** Operator edits of a dangerous line re-checked before giving up (as the router's MAX_EDITS). */
const MAX_EDITS = 5;
/** Last output lines in structuredContent `tail`. */
const TAIL_LINES = 20;
/**
 * Raw lines the reply's condensed view covers: a crash's headline (EADDRINUSE, a missing module)
 * sits above a stack trace longer than TAIL_LINES, and condensing keeps errors wherever they are.
 */
const CONDENSED_LINES = 200;

const inputSchema = {
  cmd: z.string().min(1).describe('Shell command line to start in the background, e.g. "npm run dev".'),
  alias: z.string().min(1).max(64).regex(/^[\w.-]+$/, 'letters, digits, _ . - only').optional().describe('A name to refer to the process in sh_interact, e.g. "web".'),
  wait_for: z.string().optional().describe('Regex; block until the output matches it (e.g. "ready|listening on"), the process exits, it waits for input, or timeout. Matches output already printed too.'),
  timeout: z.number().min(0).max(MAX_WAIT_S).optional().describe(`Seconds to wait for wait_for (default ${DEFAULT_WAIT_S}). The process keeps running when it passes.`),
  session: sessionNameArg()
    .optional()
    .describe(
      'Session whose cwd and current environment the process starts with (default: the "default" session, once it exists; a named session must exist): what sh_run commands exported there (`export PORT=3001`) or unset is seen. While the session is busy with a command, the process gets the environment as last read from it (or as the session was created) and the reply says so. Remote (ssh) sessions: the local server\'s environment.',
    ),
  cwd: z.string().optional().describe("Working directory of the process (default: the session's cwd, or the default session's when no session is named; a relative path starts there). The session itself does not move."),
};

const outputSchema = {
  status: z.enum(['started', 'refused']).describe('refused: the router did not start it (dangerous, or an interactive program nobody could use in the background); the text says what to do instead'),
  category: z.string().optional().describe('refused: dangerous | interactive'),
  dangers: z.array(z.string()).optional().describe('refused as dangerous: the matched pattern ids'),
  escalation: z
    .object({ id: z.string().optional(), outcome: z.string(), rule: z.string(), reason: z.string(), by: z.string().optional(), command: z.string().optional() })
    .optional()
    .describe('a dangerous line went to an operator: approval id, outcome, rule, why, who decided, the edited command'),
  handoff: z.string().optional().describe('it asks for a secret and was handed to a human operator: the handoff id (`mish attach <id>`)'),
  advice: z.string().optional().describe('refused as interactive: the non-interactive way to do it'),
  id: z.string().optional().describe('absent when refused'),
  alias: z.string().optional(),
  pid: z.number().optional(),
  state: z.string().optional().describe('running | waiting-for-input | exited | killed'),
  wait: z.enum(['matched', 'exited', 'timeout', 'waiting-for-input', 'none', 'cancelled']).optional().describe('how the wait ended'),
  match: z.string().optional().describe('the output line that matched wait_for'),
  exit_code: z.number().optional(),
  waiting_for_input: z.object({ prompt: z.string(), secret: z.boolean() }).optional(),
  elapsed_ms: z.number().optional(),
  tail: z.array(z.string()).optional().describe('last output lines (terminal escapes removed)'),
  output: z.string().optional().describe("the output as the text shows it: condensed with the command's grammar (errors and warnings kept)"),
  spool_ref: z.string().optional().describe('`mish raw <id>`: the exact raw output on disk, also readable from the CLI'),
  env_from: z
    .enum(['session', 'session-earlier', 'session-created', 'server'])
    .optional()
    .describe("where the process's environment came from: the session's current one; an earlier reading (the session was busy); the one it was created with; or the server's (no local session)"),
  procs: z.string(),
};

type Out = z.infer<z.ZodObject<typeof outputSchema>>;

export function registerShSpawn(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'sh_spawn',
    {
      title: 'Start a background process',
      description:
        'Start a long-running command in the background (dev server, watcher, database) and get its id at once. The line is checked like sh_run: a syntax error is an error naming the position, dangerous commands (rm -rf ~, git push --force, curl … | sh) are refused, and so are interactive programs nobody could use in the background (vim, less, a bare python) — the reply says what to do instead. Pass wait_for (a regex such as "ready on|listening") to block until it is ready: the call returns when the output matches, the process exits (with its exit code and output), it waits for input, or timeout seconds pass. Then use sh_interact with the id or alias to read its output, send input or kill it; every sh_run reply lists it in the [procs] digest.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    async (args, extra) => {
      const waitFor = regexArg('wait_for', args.wait_for, 'pass a valid JavaScript regular expression, e.g. "ready on :\\\\d+"');
      if (waitFor.error) return waitFor.error;
      const pattern = waitFor.re;
      // Where the agent's work is: the session's cwd ("default" when none is named), which a relative cwd starts from too.
      const session = deps.sessions.list().find((x) => x.name === (args.session ?? 'default'));
      if (args.session !== undefined && !session) {
        // Started elsewhere, with another environment, the process would misbehave in ways hard to trace back to a typo.
        const names = deps.sessions.list().map((x) => x.name);
        return toolError(
          `sh_spawn: no session named "${args.session}"; nothing was started`,
          `${names.length ? `sessions: ${names.join(', ')}; ` : ''}create it first (sh_session {action: "create", name: "${args.session}"}, or any sh_run in it), or leave session out`,
        );
      }
      const base = session && !session.remote ? session.cwd : process.cwd();
      const cwd = args.cwd === undefined ? base : path.resolve(base, args.cwd);
      // A dangerous line goes to an operator (escalation.ts), as in sh_run; an edit is checked again.
      const escalations: EscalationRecord[] = [];
      const sessionName = args.session ?? session?.name ?? 'default';
      const confirm = operatorConfirm(deps, { tool: 'sh_spawn', session: sessionName, cwd, extra, signal: extra.signal }, escalations);
      let cmd = args.cmd;
      let verdict = deps.check(cmd, cwd);
      for (let edits = 0; verdict.kind === 'dangerous' && verdict.matches && edits <= MAX_EDITS; edits++) {
        const approvals = deps.operator?.approvalsFor(sessionName);
        if (approvals?.covers(verdict.matches)) break;
        const d = await confirm({ command: cmd, dangers: verdict.matches });
        if (d.kind === 'no') break;
        if (d.kind === 'always') approvals?.approve(verdict.matches.map((m) => m.id));
        if (d.kind === 'yes' || d.kind === 'always') break;
        if (d.kind === 'edit') {
          cmd = d.command;
          verdict = deps.check(cmd, cwd);
        }
      }
      const approved = verdict.kind === 'dangerous' && (escalations.at(-1)?.outcome === 'approved' || escalations.at(-1)?.outcome === 'always' || !!(verdict.matches && deps.operator?.approvalsFor(sessionName).covers(verdict.matches)));
      if (verdict.kind === 'parse-error') return toolError(verdict.text, 'fix the command line at that position and call sh_spawn again');
      if ((verdict.kind === 'dangerous' && !approved) || (verdict.kind === 'interactive' && !verdict.drivable)) {
        const digest = deps.sessions.processes.digest();
        const refusal = verdict.kind === 'dangerous' ? (escalations.at(-1)?.text ?? verdict.text) : verdict.text;
        return reply(`${refusal}\n[not started · category ${verdict.kind}]${digest ? `\n${digest}` : ''}`, {
          status: 'refused',
          category: verdict.kind,
          ...(verdict.kind === 'dangerous' ? { dangers: verdict.dangers } : { advice: verdict.advice }),
          procs: digest,
          ...(escalations.length ? { escalation: escalationData(escalations) as Out['escalation'] } : {}),
        } satisfies Out);
      }
      const approvedNote = approvalNote(escalations);
      const spawned = await deps.sessions.spawn({ cmd, alias: args.alias, cwd, session: args.session ?? session?.name });
      if (!spawned.ok) {
        const next =
          spawned.error.kind === 'alias-taken'
            ? `pick another alias, or stop the existing one with sh_interact {id: "${args.alias}", action: "kill"}`
            : spawned.error.kind === 'bad-cwd'
              ? 'pass an existing directory as cwd'
              : 'check the command line';
        return toolError(`sh_spawn failed (${spawned.error.kind}): ${spawned.error.message}`, next);
      }
      const control = spawned.value;
      const waitMs = pattern ? secondsToMs(args.timeout, DEFAULT_WAIT_S, MAX_WAIT_S) : SPAWN_SETTLE_MS;
      const stopProgress = startProgress(extra, () => {
        const e = control.entry();
        return { progress: e.rawLines, message: `waiting for ${args.wait_for ?? 'start'}: ${describeEntry(e)}` };
      });
      let waited: WaitForResult | { status: 'cancelled' };
      try {
        waited = await Promise.race([
          control.waitFor(pattern, waitMs, { stopOnInput: true }),
          new Promise<{ status: 'cancelled' }>((resolve) => {
            if (extra.signal.aborted) resolve({ status: 'cancelled' });
            extra.signal.addEventListener('abort', () => resolve({ status: 'cancelled' }), { once: true });
          }),
        ]);
      } finally {
        stopProgress();
      }
      if (waited.status === 'cancelled') {
        // The agent withdrew the call that started the process: do not leave it behind.
        await control.kill();
      }
      const e = control.entry();
      const recent = readLastLines(control, CONDENSED_LINES).lines;
      // Colours and cursor moves are noise in text an agent reads (sh_interact read_raw keeps the exact bytes).
      const tail = recent.slice(-TAIL_LINES).map((l) => stripAnsi(l.text).replace(/\r$/, ''));
      const condensed = recent.length ? deps.condense(args.cmd, cwd, recent.map((l) => l.text), recent[0].n).text.replace(/\n+$/, '') : '';
      const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
      let head: string;
      let wait: z.infer<typeof outputSchema.wait>;
      let handoffId: string | undefined;
      switch (waited.status) {
        case 'matched':
          wait = 'matched';
          head = `ready: wait_for matched after ${secs(waited.elapsedMs)}: "${truncate(waited.line, 200)}"`;
          break;
        case 'exited':
          wait = pattern ? 'exited' : 'none';
          head = `it exited with ${waited.exitCode}${waited.signal ? ` (signal ${waited.signal})` : ''} after ${secs(waited.elapsedMs)}${pattern ? ' before wait_for matched' : ''}`;
          break;
        case 'timeout':
          wait = pattern ? 'timeout' : 'none';
          head = pattern
            ? `wait_for /${args.wait_for}/ did not match within ${secs(waited.elapsedMs)}; the process keeps running — check its output below, wait again with sh_interact status/read_tail, or kill it`
            : 'running in the background';
          break;
        case 'waiting-for-input': {
          wait = 'waiting-for-input';
          const handoff = waited.waiting.secret ? deps.operator?.handoffOf(e.id) : undefined;
          if (handoff) {
            handoffId = handoff.id;
            head = `waiting for an operator: handoff ${handoff.id} — it asks for a secret ("${truncate(waited.waiting.prompt, 120)}"), which only a human may type.\nTell the user to run \`mish attach ${handoff.id}\` in a terminal (or use the mish console); you will never see what they type. Until they hand it back, calls to ${e.id} are answered "an operator has this session"; then sh_interact {id: "${e.id}", action: "status", wait: 60} gives the outcome.`;
            break;
          }
          head =
            waited.waiting.prompt === '' && !waited.waiting.secret
              ? `it is waiting for input. ${readsStdinAdvice(e.id)}`
              : `it is waiting for input: "${truncate(waited.waiting.prompt, 200)}"${waited.waiting.secret ? ' (a secret: ask the user, never guess)' : ` — answer with sh_interact {id: "${e.id}", action: "send", text: "…\\n"}`}`;
          break;
        }
        case 'cancelled':
          wait = 'cancelled';
          head = 'the call was cancelled; the process was killed';
          break;
      }
      const skipped = recent.length && recent[0].n > 1 ? `[output lines 1-${recent[0].n - 1} not shown: sh_interact {id: "${e.id}", action: "read_raw"}]\n` : '';
      const shown = condensed ? capReply(condensed, () => `read the rest with sh_interact {id: "${e.id}", action: "read_raw"}`).text : '';
      const tailText = shown ? `\n${skipped}${shown}` : '\n(no output yet)';
      const digest = deps.sessions.processes.digest();
      const envNote = envFallbackNote(control.envSource);
      const text = `started ${e.id}${e.alias ? ` (${e.alias})` : ''} pid ${e.pid}${e.spoolRef ? ` · raw: ${e.spoolRef}` : ''}: \`${truncate(cmd, 200)}\`\n${approvedNote ? `${approvedNote}\n` : ''}${envNote ? `${envNote}\n` : ''}${head}${tailText}${digest ? `\n${digest}` : ''}`;
      return reply(text, {
        status: 'started',
        id: e.id,
        ...(e.alias ? { alias: e.alias } : {}),
        pid: e.pid,
        state: e.state,
        wait,
        ...(waited.status === 'matched' ? { match: waited.line } : {}),
        ...(e.state === 'exited' || e.state === 'killed' ? { exit_code: e.exitCode } : {}),
        ...(e.waiting ? { waiting_for_input: { prompt: e.waiting.prompt, secret: e.waiting.secret } } : {}),
        elapsed_ms: e.elapsedMs,
        tail,
        ...(shown ? { output: shown } : {}),
        ...(e.spoolRef ? { spool_ref: e.spoolRef } : {}),
        env_from: ENV_FROM[control.envSource.kind],
        procs: digest,
        ...(handoffId ? { handoff: handoffId } : {}),
      } satisfies Out);
    },
  );
}

const ENV_FROM: Record<SpawnEnvSource['kind'], NonNullable<Out['env_from']>> = {
  'session-now': 'session',
  'session-earlier': 'session-earlier',
  'session-created': 'session-created',
  manager: 'server',
};

/** When the process could not get the session's current environment: which one it got, and what that misses. */
function envFallbackNote(source: SpawnEnvSource): string | undefined {
  const tip = 'variables exported since are not seen: put them on the command line ("PORT=3001 npm run dev") if it needs them';
  switch (source.kind) {
    case 'session-earlier':
      return `[env: ${source.why}; started with its environment as read ${Math.round((Date.now() - source.at) / 1000)}s ago — ${tip}]`;
    case 'session-created':
      return `[env: ${source.why}; started with the environment it was created with — ${tip}]`;
    default:
      return undefined;
  }
}
