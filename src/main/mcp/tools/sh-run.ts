/**
 * sh_run: run a command line to completion in a persistent session, through the category
 * router (condense / narrate / passthrough / structured; interactive and dangerous commands are
 * refused with what to do instead). A command that outlives its timeout, or stops to ask for
 * input, keeps running in the background and the reply says so with its id.
 */
import path from 'node:path';
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isDirectory } from '../../core/fs/tolerant-fs.js';
import type { WaitingForInput } from '../../core/session/types.js';
import { isYesNoPrompt, stripAnsi } from '../../core/yield/prompt-patterns.js';
import { decide } from '../../core/policy/index.js';
import { approvalNote, escalationData, operatorConfirm, type EscalationRecord } from '../escalation.js';
import { capReply, countLines, describeEntry, escalationOutput, policyOutput, readLastLines, readsStdinAdvice, reply, runReplyText, secondsToMs, sessionNameArg, startProgress, toolError, truncate, withTimeout, type McpDeps, type RouteCommandResult } from '../tool-kit.js';

/** Default timeout: below the 60 s default request timeout of the official SDK client, so its callers get our answer, not theirs. */
const DEFAULT_TIMEOUT_S = 50;
/** Longest timeout: clients that send progress tokens keep a call alive this long. */
const MAX_TIMEOUT_S = 3_600;
/** After a cancel, how long to wait for the router to report the interrupted command. */
const CANCEL_REPORT_MS = 2_000;
/** How long a call waits for a busy session's command to end before refusing (covers an interrupt in progress). */
const BUSY_GRACE_MS = 2_000;
/** Lines of output shown when a command goes to the background. */
const BACKGROUND_TAIL_LINES = 20;
/**
 * The router checks every line as bash (its danger and interactive checks read the bash parse), so
 * fish-only syntax in a fish session is refused before it runs: say how to write it instead.
 */
const FISH_PARSE_HINT =
  'this session runs fish, but mish checks each line as bash syntax before running it: write it so bash can parse it too — quotes without \\\' inside (use "it\'s"), $(cmd) instead of (cmd), && / || / ; — and put fish blocks (if/for/while/function … end) in a file and run `source file.fish` (keeps the session\'s variables) or `fish file.fish`';
/** Prompts that look like a password's: worth waiting SECRET_UPGRADE_WAIT_MS for the terminal's echo-off to be seen. */
const PASSWORD_PROMPT = /pass(?:word|phrase)|\bPIN\b|secret|token/i;
/** Covers the yield engine's re-looks at the terminal mode (SECRET_RECHECKS × YIELD_RECHECK_MS). */
const SECRET_UPGRADE_WAIT_MS = 1_200;
/** A prompt that asks for commands, not an answer: `user@host:~$`, `bash-5.2#`, `>>>`, `mysql>`. */
const SHELL_LIKE_PROMPT = /(?:[$#%>]|>>>)\s*$/;

const inputSchema = {
  cmd: z.string().min(1).describe('The command line, e.g. "npm test", "make && ./run.sh", "cd src && ls". Runs in bash (or the session\'s shell).'),
  cwd: z
    .string()
    .optional()
    .describe(
      "Directory to run in (absolute, or relative to the session's cwd). Like cd: the session moves there first and stays there for later calls (structuredContent.cwd is where the session is after each call). A directory that does not exist fails the call and nothing runs. No env argument: `export VAR=value` in cmd keeps a variable for later calls, `VAR=value cmd` sets it for one command.",
    ),
  session: sessionNameArg().optional().describe('Session name (default "default", created on first use). Use sh_session to manage sessions.'),
  timeout: z.number().min(0).max(MAX_TIMEOUT_S).optional().describe(`Seconds to wait (default ${DEFAULT_TIMEOUT_S}). When it passes the command keeps running in the background; the reply gives its id for sh_interact.`),
};

const outputSchema = {
  id: z.string().optional().describe('process-table id of the command ("c<N>"); its exact raw output: sh_interact {id, action: "read_raw"}'),
  session: z.string(),
  status: z.enum(['exited', 'running', 'waiting-for-input', 'refused', 'cancelled']).describe('exited: finished; running: timeout passed, still running in the background; waiting-for-input: it asks something (answer with sh_interact send); refused: the router did not run it (dangerous or interactive; the text says what to do instead). A line that does not parse is an isError result naming the position, not a status'),
  exit_code: z.number().nullable().describe('null unless status is exited'),
  category: z.string().optional().describe('router category: condense | narrate | passthrough | structured | interactive | dangerous'),
  cwd: z.string().optional().describe("the session's cwd after the command (the text names it only when the command ended in another directory than it started in)"),
  signal: z.number().optional().describe('the signal that ended the command (the text names it: "exit 137 SIGKILL")'),
  raw_lines: z.number().describe('lines of raw output'),
  shown_lines: z.number().describe('lines shown in this reply'),
  complete: z.boolean().optional().describe('the text shows the output whole (nothing folded, cut or reordered); when false the status line names the line count and read_raw <id>'),
  truncated: z.boolean().describe('the reply hit the ~20k token cap (the marker says how to read the rest)'),
  duration_ms: z.number(),
  shell_exited: z.boolean().optional().describe('the command ended the shell (e.g. "exit 3"); the next call starts a fresh one'),
  fresh_shell: z.string().optional().describe('this command ran in a freshly started shell (cwd/env were reset) and why'),
  waiting_for_input: z.object({ prompt: z.string(), secret: z.boolean() }).optional(),
  spool: z.string().optional().describe('how to read the raw output over MCP'),
  spool_ref: z.string().optional().describe('`mish raw <id>`: the same exact raw output on disk, readable from the CLI'),
  procs: z.string().describe('process-table digest ("[procs] …"), empty when nothing runs'),
  policy: policyOutput().describe('refused by the policy engine: the decision, the rule that made it and why'),
  escalation: escalationOutput(),
  handoff: z.string().optional().describe('a secret prompt was handed to a human operator: the handoff id (`mish attach <id>`)'),
};

type Out = z.infer<z.ZodObject<typeof outputSchema>>;

export function registerShRun(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'sh_run',
    {
      title: 'Run a shell command',
      description:
        'Run a shell command to completion in a persistent shell session (cwd and env persist between calls) and get condensed output: every error, warning, failing test, count and the exit code are kept, noise (progress bars, repeated lines) is collapsed, file operations are narrated, and content you act on (cat, git diff) passes unchanged. The reply ends with one status line — `[exit 0]` when the output is shown whole; `[exit 1 · 3,013 lines · read_raw c7]` when something was folded or cut (sh_interact {id: "c7", action: "read_raw"} returns the exact lines; fold markers give raw line numbers); the duration from 1 s on; the cwd when the command ended in another directory — and a [procs] digest of background processes; every fact (cwd, line counts, id, spool: `mish raw <id>` in a terminal) is also in structuredContent. Dangerous commands (rm -rf ~, git push --force, curl … | sh) wait for the decision of a human operator and are refused (with the rule and why) when none is attached; you cannot approve them yourself. Interactive programs (vim, less, a bare python) are refused with what to do instead; a line that does not parse is an error naming the line and column, and nothing runs. Long or hanging commands: past `timeout` seconds they keep running in the background and the reply gives the id. Prompts ("[Y/n]") end the call with "waiting for input"; answer with sh_interact send. A password prompt is handed to a human ("waiting for an operator: handoff h_…"): ask the user to run `mish attach h_…`; you never see the secret. For servers and watchers use sh_spawn instead.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    async (args, extra) => {
      const sessionName = args.session ?? 'default';
      const busyNow = () => deps.sessions.list().find((s) => s.name === sessionName && s.state === 'busy' && s.runningCommandId);
      let busy = busyNow();
      // A command being interrupted (a cancelled call) usually ends within moments: wait a little before refusing.
      // One the agent was handed as backgrounded (timeout, prompt) is known to be still at work: refuse at once.
      if (busy && !deps.runs.get(busy.runningCommandId!)) {
        const running = deps.sessions.process(busy.runningCommandId!);
        if (running) await withTimeout(running.done, BUSY_GRACE_MS, extra.signal);
        busy = busyNow();
      }
      const handedOff = deps.operator?.handoffOfSession(sessionName);
      if (handedOff) {
        return toolError(
          `an operator has this session: "${sessionName}" is handed off (${handedOff.id}, ${handedOff.why === 'secret-prompt' ? `secret prompt "${truncate(handedOff.prompt, 80)}"` : 'operator takeover'}); nothing was run`,
          `wait for the operator to hand it back (sh_interact {id: "${handedOff.processId}", action: "status", wait: 60}), or run this in another session (session: "${sessionName}-2")`,
        );
      }
      if (busy) {
        const running = deps.sessions.process(busy.runningCommandId!);
        const what = running ? describeEntry(running.entry()) : busy.runningCommandId!;
        return toolError(
          `session "${sessionName}" is busy: ${what}`,
          `wait for it (sh_interact {id: "${busy.runningCommandId}", action: "status"}), answer or stop it (action "send" / "kill"), or run this in another session (session: "${sessionName}-2" is created on first use)`,
        );
      }

      let cwd = args.cwd;
      const target = deps.sessions.list().find((s) => s.name === sessionName);
      if (cwd !== undefined && !target?.remote) {
        // Checked here so a bad cwd is a failed call, not a command that ran somewhere else (the shell refuses it too).
        const base = target?.cwd ?? process.cwd();
        cwd = path.resolve(base, cwd);
        if (!isDirectory(cwd)) {
          return toolError(
            `cwd: no such directory: ${cwd}${args.cwd !== cwd ? ` ("${args.cwd}" from ${base})` : ''}; nothing was run`,
            'pass an existing directory (absolute, or relative to the session\'s cwd), or leave cwd out to run where the session is',
          );
        }
      }

      const timeoutMs = secondsToMs(args.timeout, DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S);
      const interrupt = new AbortController();
      let id: string | undefined;
      let waiting: WaitingForInput | undefined;
      let wake: (why: 'waiting' | 'cancelled') => void = () => {};
      const woken = new Promise<'waiting' | 'cancelled'>((resolve) => (wake = resolve));
      const onCancel = () => {
        interrupt.abort();
        wake('cancelled');
      };
      if (extra.signal.aborted) onCancel();
      extra.signal.addEventListener('abort', onCancel, { once: true });
      let becameSecret: () => void = () => {};
      // Policy `confirm`: the line may have its yes/no questions answered "y" (never a secret prompt), up to MAX_AUTO_CONFIRMS.
      const confirmRule = autoConfirmRule(deps, args.cmd, cwd ?? target?.cwd, sessionName, target?.cdpath);
      const autoAnswered: string[] = [];
      const unsubscribe = deps.sessions.subscribe((ev) => {
        if (ev.type === 'waiting-for-input' && id !== undefined && ev.source.id === id) {
          if (confirmRule && !ev.waiting.secret && isYesNoPrompt(ev.waiting.prompt) && autoAnswered.length < MAX_AUTO_CONFIRMS) {
            autoAnswered.push(ev.waiting.prompt);
            deps.sessions.process(id)?.send('y\n');
            return;
          }
          waiting = ev.waiting;
          if (waiting.secret) becameSecret();
          wake('waiting');
        }
      });
      const stopProgress = startProgress(extra, () => {
        const e = id ? deps.sessions.processes.get(id) : undefined;
        return e ? { progress: e.rawLines, message: describeEntry(e) } : { progress: 0, message: 'starting' };
      });
      const started = Date.now();
      const escalations: EscalationRecord[] = [];
      // The timeout counts the command's time, not the operator's: it is re-armed when a decision arrives.
      let approving = false;
      let timer: NodeJS.Timeout | undefined;
      let onTimeout: () => void = () => {};
      const armTimeout = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (!approving) onTimeout();
        }, timeoutMs);
      };
      const askOperator = operatorConfirm(deps, { tool: 'sh_run', session: sessionName, cwd: cwd ?? target?.cwd ?? process.cwd(), extra, signal: interrupt.signal }, escalations);
      const confirm: typeof askOperator = async (prompt) => {
        approving = true;
        try {
          return await askOperator(prompt);
        } finally {
          approving = false;
          armTimeout();
        }
      };
      const pending = deps.route({ command: args.cmd, session: args.session, cwd, signal: interrupt.signal, onStart: (i) => (id = i), confirm });
      try {
        const outcome = await Promise.race([
          pending.then((r) => ({ kind: 'done' as const, r })),
          woken.then((why) => ({ kind: why })),
          new Promise<{ kind: 'timeout' }>((resolve) => {
            onTimeout = () => resolve({ kind: 'timeout' });
            armTimeout();
          }),
        ]);
        if (outcome.kind === 'done') return finished(deps, outcome.r, args.cmd, escalations, { rule: confirmRule ?? '', prompts: autoAnswered });
        if (outcome.kind === 'cancelled') {
          const r = await Promise.race([pending, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), CANCEL_REPORT_MS).unref())]).catch(() => undefined);
          const text = `cancelled: \`${truncate(args.cmd, 200)}\` was interrupted${r ? ` (exit ${r.exitCode ?? '?'})` : ''}`;
          return reply(text, {
            ...(id ? { id } : {}),
            session: sessionName,
            status: 'cancelled',
            exit_code: r?.exitCode ?? null,
            raw_lines: r?.rawLines ?? 0,
            shown_lines: 0,
            truncated: false,
            duration_ms: Date.now() - started,
            procs: deps.sessions.processes.digest(),
          } satisfies Out);
        }
        // Timeout or a prompt: the command keeps running; hand the agent its id.
        if (outcome.kind === 'waiting' && waiting && !waiting.secret && PASSWORD_PROMPT.test(waiting.prompt)) {
          // A password prompt whose echo-off mode was not seen yet (the yield engine looks again):
          // wait a moment for it, so the reply hands it to a human instead of asking the agent.
          await withTimeout(new Promise<void>((resolve) => (becameSecret = resolve)), SECRET_UPGRADE_WAIT_MS, extra.signal);
        }
        return backgrounded(deps, args.cmd, sessionName, id, pending, outcome.kind === 'waiting' ? waiting : undefined, Date.now() - started);
      } catch (e) {
        return toolError(`sh_run failed: ${(e as Error).message}`, 'check the command line and the session (sh_session {action: "list"}); sh_session restart gives a fresh shell');
      } finally {
        clearTimeout(timer);
        stopProgress();
        unsubscribe();
        extra.signal.removeEventListener('abort', onCancel);
      }
    },
  );
}

/** Yes/no questions one command may have answered by a `confirm` rule: a loop asking forever is handed back to the agent. */
const MAX_AUTO_CONFIRMS = 5;

/** The rule id when the policy says `confirm` for this line. */
function autoConfirmRule(deps: McpDeps, cmd: string, cwd: string | undefined, session: string, cdpath: string | undefined): string | undefined {
  const policy = deps.policy?.();
  // Most policies have no confirm rule at all: then no line can be `confirm`, and nothing is decided twice.
  if (!policy || !policy.layers.some((l) => l.default === 'confirm' || l.rules.some((r) => r.decision === 'confirm'))) return undefined;
  const d = decide(cmd, policy, { cwd, session, ...(cdpath ? { cdpath } : {}) });
  return d.decision === 'confirm' ? d.rule : undefined;
}

function finished(deps: McpDeps, r: RouteCommandResult, cmd: string, escalations: EscalationRecord[] = [], autoConfirmed: { rule: string; prompts: string[] } = { rule: '', prompts: [] }) {
  if (r.category === 'parse-error') {
    // Nothing ran and nothing could: a failed call. The router's text names line and column with a caret excerpt.
    const fish = deps.sessions.list().find((x) => x.name === r.session)?.kind === 'fish';
    return toolError(r.text.replace(/\n+$/, ''), fish ? FISH_PARSE_HINT : 'fix the command line at that position and call sh_run again (a long script is easier as a heredoc: cat > run.sh <<\'EOF\' … EOF, then bash run.sh)');
  }
  const readHint = (from: number) => (r.id ? `exact lines: sh_interact {id: "${r.id}", action: "read_raw", from_line: ${from}} (raw line numbers)` : 'run a narrower command');
  // A refused escalation: the operator side's text (what was blocked, by which rule, why, what next).
  const refusal = r.refused ? escalations[escalations.length - 1]?.text : undefined;
  const capped = capReply(refusal ?? r.text, readHint);
  const notes: string[] = [];
  // The operator's approval (or edit) comes first: the agent reads who let it run before what it printed.
  const approved = approvalNote(escalations);
  for (const p of autoConfirmed.prompts) notes.push(`[answered "y" to ${JSON.stringify(truncate(p, 120))} (policy rule ${autoConfirmed.rule}: confirm)]`);
  if (r.freshShell) notes.push(`[fresh shell: ${r.freshShell.reason}]`);
  if (r.shellExited) notes.push(`[the shell ended (exit ${r.exitCode ?? '?'}); the next command in session "${r.session}" starts a fresh shell]`);
  const status = r.refused ? 'refused' : 'exited';
  const shown = countShown(capped.text);
  const digest = deps.sessions.processes.digest();
  // One status line of facts (exit, and line count and raw reference only when something was left out); all of them are in structuredContent too.
  const text = r.refused
    ? [capped.text.replace(/\n+$/, ''), ...notes, `[not run · category ${r.category}]`, digest].filter((s) => s.length > 0).join('\n')
    : runReplyText(r, capped.text, { lead: approved ? [approved] : [], notes, digest, truncated: capped.truncated });
  if (r.id) publishReply(deps, r.id, r.session, text, true, r.refused ? 'refused' : r.category, cmd);
  else {
    // Nothing ran after an operator's (or nobody's) decision: the console's row of it is its
    // approval's id, and shows this exact reply rather than a summary of the decision.
    const approval = r.refused ? escalations[escalations.length - 1]?.id : undefined;
    if (approval) publishReply(deps, approval, r.session, text, true, undefined, cmd);
  }
  return reply(text, {
    ...(r.id ? { id: r.id } : {}),
    session: r.session,
    status,
    exit_code: r.refused ? null : r.exitCode,
    category: r.category,
    ...(r.cwd ? { cwd: r.cwd } : {}),
    ...(r.signal ? { signal: r.signal } : {}),
    raw_lines: r.rawLines,
    shown_lines: shown,
    ...(r.shown && !r.refused ? { complete: !r.shown.hidden && !capped.truncated } : {}),
    truncated: capped.truncated,
    duration_ms: r.durationMs,
    ...(r.shellExited ? { shell_exited: true } : {}),
    ...(r.freshShell ? { fresh_shell: r.freshShell.reason } : {}),
    ...(r.id ? { spool: `sh_interact {id: "${r.id}", action: "read_raw"}` } : {}),
    ...(r.spoolRef ? { spool_ref: r.spoolRef } : {}),
    procs: digest,
    ...(r.policy ? { policy: r.policy } : {}),
    ...(escalations.length ? { escalation: escalationData(escalations) as Out['escalation'] } : {}),
  } satisfies Out);
  void cmd;
}

function countShown(text: string): number {
  return countLines(text);
}

function backgrounded(
  deps: McpDeps,
  cmd: string,
  session: string,
  id: string | undefined,
  pending: Promise<RouteCommandResult>,
  waiting: WaitingForInput | undefined,
  elapsedMs: number,
) {
  if (!id) {
    // The command never reached the shell (session start hung): nothing runs, so say so.
    pending.catch(() => {});
    return toolError(`sh_run: the session "${session}" did not start the command within the timeout`, `restart it with sh_session {action: "restart", name: "${session}"} and try again`);
  }
  deps.runs.add(id, cmd, session, pending);
  const control = deps.sessions.process(id);
  const e = control?.entry();
  // Terminal control sequences (bracketed paste, colours) would only be noise in the text the agent reads.
  const tail = control ? readLastLines(control, BACKGROUND_TAIL_LINES).lines.map((l) => stripAnsi(l.text).replace(/\r$/, '')) : [];
  const handoff = waiting?.secret ? deps.operator?.handoffOf(id) : undefined;
  const head = handoff
    ? handoffHead(cmd, id, handoff.id, waiting!.prompt)
    : waiting
    ? waitingHead(cmd, id, waiting)
    : `still running after ${(elapsedMs / 1000).toFixed(1)}s: \`${truncate(cmd, 200)}\` continues in the background as ${id} (nothing is lost).\nNext: sh_interact {id: "${id}", action: "status"} for its result when done, "read_tail" for progress, "kill" to stop it.`;
  const tailText = tail.length ? `\n--- last ${tail.length} line(s) ---\n${capReply(tail.join('\n'), () => `sh_interact {id: "${id}", action: "read_raw"}`).text}` : '';
  const digest = deps.sessions.processes.digest();
  const text = `${head}${tailText}${digest ? `\n${digest}` : ''}`;
  publishReply(deps, id, session, text, false);
  return reply(text, {
    id,
    session,
    status: waiting ? 'waiting-for-input' : 'running',
    exit_code: null,
    raw_lines: e?.rawLines ?? 0,
    shown_lines: tail.length,
    truncated: false,
    duration_ms: elapsedMs,
    ...(waiting ? { waiting_for_input: { prompt: waiting.prompt, secret: waiting.secret } } : {}),
    ...(handoff ? { handoff: handoff.id } : {}),
    spool: `sh_interact {id: "${id}", action: "read_raw"}`,
    ...(e?.spoolRef ? { spool_ref: e.spoolRef } : {}),
    procs: digest,
  } satisfies Out);
}

/**
 * The operator console shows exactly what the agent received: the reply text goes out as a
 * `condensed` event marked `reply` (`final` once the command's reply is complete).
 */
function publishReply(deps: McpDeps, id: string, session: string, text: string, final: boolean, category?: string, asked?: string): void {
  deps.sessions.publish({ type: 'condensed', source: { kind: 'command', id, session }, lines: text.split('\n'), reply: true, ...(final ? { final: true } : {}), ...(category ? { category } : {}), ...(asked !== undefined ? { asked } : {}) });
}

/** A secret prompt handed to a human: the agent waits and never sees what is typed. */
function handoffHead(cmd: string, id: string, handoffId: string, prompt: string): string {
  return (
    `waiting for an operator: handoff ${handoffId} — \`${truncate(cmd, 200)}\` (${id}) asks for a secret ("${truncate(prompt, 120)}"), which only a human may type.\n` +
    `Tell the user to run \`mish attach ${handoffId}\` in a terminal (or use the mish console) to type it; you will never see it. ` +
    `Until they hand it back, calls to ${id} are answered "an operator has this session". Then sh_interact {id: "${id}", action: "status", wait: 60} gives the outcome.`
  );
}

/** The reply's first lines for a command paused for input: what it waits for and how to answer. */
function waitingHead(cmd: string, id: string, waiting: WaitingForInput): string {
  const what = `\`${truncate(cmd, 200)}\``;
  if (waiting.prompt === '' && !waiting.secret) return `waiting for input: ${what} is reading its input as ${id}.\n${readsStdinAdvice(id)}`;
  const advice = waiting.secret
    ? `It asks for a secret (terminal echo is off): do not guess or invent it; ask the user, or stop it with sh_interact {id: "${id}", action: "kill"}.`
    : SHELL_LIKE_PROMPT.test(waiting.prompt)
      ? `A shell or REPL (su, ssh, python, …) waits for commands: send them with sh_interact {id: "${id}", action: "send", text: "whoami\\n"}; end it with text "exit\\n" (or keys ["C-d"]) and ${id} finishes, or stop it with action "kill".`
      : `Answer with sh_interact {id: "${id}", action: "send", text: "y\\n"} (the reply shows what follows), or stop it with action "kill".`;
  return `waiting for input: "${truncate(waiting.prompt, 200)}" — ${what} is paused at a prompt as ${id}.\n${advice}`;
}
