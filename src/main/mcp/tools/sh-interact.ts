/**
 * sh_interact: talk to a running process (background spawn or a backgrounded sh_run command):
 * send text or keys and see what it answers, read its tail or exact raw lines from the spool,
 * signal or kill its process group, or ask its status (including the final condensed reply of
 * an sh_run that outlived its timeout).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ProcessControl, ProcessEntry, SpoolReadResult } from '../../core/session/types.js';
import { isKeyName } from '../../core/process/keys.js';
import { isShellCommand, ShellInputGuard } from '../../core/policy/index.js';
import { codeUnitBoundary } from '../../core/squasher/line-cut.js';
import type { BackgroundRun } from '../background-runs.js';
import { capReply, describeEntry, policyOutput, readLastLines, regexArg, reply, runReplyText, secondsToMs, toolError, truncate, withTimeout, type McpDeps, type RouteCommandResult, type ToolExtra } from '../tool-kit.js';
import { thousands } from '../../core/format/thousands.js';

/** After send/keys, how long to wait for the process to answer by default: long enough for a prompt round trip, short enough to stay interactive. */
const DEFAULT_ANSWER_WAIT_S = 5;
/** Upper bound of `wait` (seconds); longer waits belong in sh_spawn wait_for or repeated status calls. */
const MAX_ANSWER_WAIT_S = 300;
/** Once output has started after input, this much silence means the process has answered. */
const ANSWER_SETTLE_MS = 300;
/** Default lines for read_tail raw (and the output shown after send/keys). */
const DEFAULT_TAIL_LINES = 40;
/** Default raw lines read_tail condenses: a condensed view of 40 lines would barely shrink; 200 usually fold to a screen. */
const DEFAULT_CONDENSED_TAIL_LINES = 200;
/** Most lines one read returns; more must be paged with from_line/to_line. */
const MAX_READ_LINES = 2_000;
/**
 * Longest raw line returned whole (about 1-4k tokens): a longer one is shown as head + exact
 * marker + tail, and its columns can be read with from_col/to_col, so no single line can blow
 * the reply cap (a 4,000,000-character line came back as a 4 MB reply).
 */
export const MAX_RAW_LINE_CHARS = 4_000;
/** Of a cut raw line: characters shown from its start and from its end. */
const RAW_LINE_HEAD_CHARS = 2_500;
const RAW_LINE_TAIL_CHARS = MAX_RAW_LINE_CHARS - RAW_LINE_HEAD_CHARS;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGKILL', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGSTOP', 'SIGCONT', 'SIGWINCH'] as const;

const inputSchema = {
  id: z.string().min(1).describe('Process id ("p3" from sh_spawn, "c7" from sh_run), alias, or spool id ("ab12cd34" from `raw: mish raw ab12cd34`). Ids of ended processes stay readable as long as their output is on disk.'),
  action: z.enum(['send', 'keys', 'read_tail', 'read_raw', 'signal', 'kill', 'status']).describe(
    'send: write text; keys: press named keys; read_tail: the last lines, condensed (raw: true for the exact lines); read_raw: exact lines by range/grep; signal: send a signal; kill: TERM then KILL the process group; status: state and final result.',
  ),
  text: z.string().optional().describe('send: the text to write. Include "\\n" to press Enter (e.g. "y\\n").'),
  keys: z.array(z.string()).optional().describe('keys: e.g. ["C-c"], ["Down", "Enter"]. Names: Enter Tab Esc Backspace Up Down Left Right Home End PageUp PageDown Space C-<x> M-<x>.'),
  wait: z.number().min(0).max(MAX_ANSWER_WAIT_S).optional().describe(`send/keys: seconds to wait for the answer (new output, the next prompt, or exit; default ${DEFAULT_ANSWER_WAIT_S}). status: seconds to wait for the process to end or ask for input (default 0).`),
  wait_for: z.string().optional().describe('send/keys: regex; stop waiting as soon as new output matches.'),
  lines: z.number().int().min(1).max(MAX_READ_LINES).optional().describe(`read_tail: how many raw lines from the end (default ${DEFAULT_CONDENSED_TAIL_LINES} condensed, ${DEFAULT_TAIL_LINES} with raw: true).`),
  raw: z.boolean().optional().describe('read_tail: the exact numbered lines instead of the condensed view (errors, warnings and counts are kept either way).'),
  from_line: z.number().int().min(1).optional().describe('read_raw: first line, 1-based, inclusive.'),
  to_line: z.number().int().min(1).optional().describe('read_raw: last line, inclusive.'),
  grep: z.string().optional().describe('read_raw: only lines matching this regex.'),
  from_col: z.number().int().min(1).optional().describe(`read_raw / read_tail raw: first character column of each line, 1-based (lines longer than ${MAX_RAW_LINE_CHARS} characters are otherwise shown as head … [+N chars] … tail).`),
  to_col: z.number().int().min(1).optional().describe('read_raw / read_tail raw: last character column, inclusive (default: from_col + 3999).'),
  signal: z.enum(SIGNALS).optional().describe('signal: which signal (default SIGINT).'),
};

const outputSchema = {
  id: z.string(),
  alias: z.string().optional(),
  action: z.string(),
  state: z.string().describe('running | waiting-for-input | exited | killed'),
  exit_code: z.number().optional(),
  kind: z.enum(['spawn', 'command']).describe('spawn: started by sh_spawn; command: an sh_run command'),
  command: z.string(),
  session: z.string().optional(),
  pid: z.number(),
  pgid: z.number().describe('process group: what kill and signal reach'),
  started_at: z.string().describe('ISO 8601'),
  elapsed_ms: z.number().describe('run time so far, or until it ended'),
  last_line: z.string().describe('last non-empty output line'),
  raw_lines: z.number(),
  waiting_for_input: z.object({ prompt: z.string(), secret: z.boolean() }).optional(),
  lines: z
    .array(z.object({ n: z.number(), text: z.string(), chars: z.number().optional().describe('the whole line\'s length, when text is a cut or a column range of it') }))
    .optional()
    .describe('read_raw, read_tail with raw: true, send/keys: numbered raw lines.'),
  condensed: z.string().optional().describe('read_tail (default): the condensed view of the tail; omitted-line markers name raw line numbers for read_raw'),
  grammar: z.string().optional().describe('read_tail: the grammar the condensed view used'),
  from_line: z.number().optional().describe('read_tail: the first raw line the view covers'),
  spool_ref: z.string().optional().describe('`mish raw <id>`: the exact raw output on disk, readable from the CLI'),
  total_lines: z.number().optional(),
  dropped_lines: z.number().optional().describe('lines no longer in the bounded spool (-1: some from the middle, count unknown)'),
  result: z.string().optional().describe('status of a backgrounded sh_run: its final condensed reply'),
  cwd: z.string().optional().describe("a finished backgrounded sh_run: the session's cwd after it"),
  procs: z.string(),
  refused: z.boolean().optional().describe('send/keys: nothing was sent — the line it would submit to this shell is not allowed by policy'),
  policy: policyOutput().describe('refused: the policy decision on the submitted line, its rule and why'),
  handoff: z.string().optional().describe('the live operator handoff of this process (`mish attach <id>`)'),
  handoffs: z.array(z.string()).optional().describe('credential-blind summaries of finished operator handoffs: what prompt, how long, outcome — never what was typed'),
};

type Out = z.infer<z.ZodObject<typeof outputSchema>>;

export function registerShInteract(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'sh_interact',
    {
      title: 'Interact with a running process',
      description:
        'Interact with a background process or a still-running sh_run command, by id or alias: answer prompts (send "y\\n"; the reply shows what the process printed next), press keys (C-c to interrupt), read the tail of its output condensed (read_tail; raw: true for the exact lines) or exact raw lines from the on-disk spool (read_raw with from_line/to_line or grep; works after it exited too, also for finished sh_run ids), signal it, kill its whole process group, or get its status (for a backgrounded sh_run: the final condensed output and exit code).',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args, extra) => {
      const found = deps.sessions.process(args.id);
      if (!found) {
        const known = deps.sessions.processes.list().map((e) => (e.alias ? `${e.id} (${e.alias})` : e.id));
        return toolError(`no process with id or alias "${args.id}"`, known.length ? `use one of: ${known.slice(-20).join(', ')}` : 'start one with sh_spawn, or run a command with sh_run');
      }
      // Output shown during an operator handoff is withheld from every read of the agent; secrets are masked in what is left.
      const control = maskedView(withheldView(found, deps), deps);
      const handoff = deps.operator?.handoffOf(found.id);
      if (handoff) {
        const held = `an operator has this session: ${found.id} is handed off (${handoff.id}, ${handoff.why === 'secret-prompt' ? `secret prompt "${truncate(handoff.prompt, 80)}"` : 'operator takeover'}, ${handoff.state === 'attached' ? 'an operator is typing' : 'waiting for an operator to attach'})`;
        const later = `${handoff.state === 'pending' ? `ask the user to run \`mish attach ${handoff.id}\` (you never see what they type), then ` : ''}wait for them to hand it back: sh_interact {id: "${found.id}", action: "status", wait: 60}`;
        if (args.action === 'send' || args.action === 'keys' || args.action === 'signal') return toolError(`${held}; your input was not sent`, later);
        if (args.action === 'kill' && handoff.state === 'attached') return toolError(`${held}; it was not killed while the operator types`, later);
        if (args.action === 'status') {
          if (args.wait) await withTimeout(deps.operator!.handoffSettled(found.id), secondsToMs(args.wait, 0, MAX_ANSWER_WAIT_S), extra.signal);
          if (deps.operator!.handoffOf(found.id)) return reply(`${held}\nNext: ${later}${footer(deps)}`, { ...base(deps, found.entry(), 'status'), handoff: handoff.id } satisfies Out);
        }
      }
      switch (args.action) {
        case 'send':
        case 'keys':
          return sendInput(deps, control, { ...args, action: args.action }, extra);
        case 'read_tail': {
          const n = args.lines ?? (args.raw ? DEFAULT_TAIL_LINES : DEFAULT_CONDENSED_TAIL_LINES);
          const { read, lines } = readLastLines(control, n);
          if (args.raw) return linesReply(deps, control.entry(), 'read_tail', read, lines, `last ${lines.length} of ${read.totalLines} lines${columnsNote(args)}`, columnsOf(args));
          return condensedTail(deps, control.entry(), read, lines);
        }
        case 'read_raw': {
          const { re: grep, error } = regexArg('read_raw', args.grep, 'pass a valid JavaScript regular expression, or a plain substring with special characters escaped');
          if (error) return error;
          if (args.from_line !== undefined && args.to_line !== undefined && args.to_line < args.from_line) {
            return toolError(`read_raw: to_line ${args.to_line} is before from_line ${args.from_line}`, 'pass from_line <= to_line (1-based, both inclusive), e.g. {from_line: 10, to_line: 40}; leave to_line out to read to the end');
          }
          if (args.from_col !== undefined && args.to_col !== undefined && args.to_col < args.from_col) {
            return toolError(`read_raw: to_col ${args.to_col} is before from_col ${args.from_col}`, 'pass from_col <= to_col (1-based character columns, both inclusive)');
          }
          const read = control.read({ fromLine: args.from_line, toLine: args.to_line, grep });
          const lines = read.lines.slice(0, MAX_READ_LINES);
          const more = read.lines.length > lines.length ? `; first ${MAX_READ_LINES} shown, continue with from_line: ${lines[lines.length - 1].n + 1}` : '';
          const dropped = read.gap
            ? read.gap.to < read.gap.from
              ? `; the spool keeps the first and the newest output: the middle of line ${read.gap.cut[0]} was dropped`
              : `; the spool keeps the first and the newest output: lines ${read.gap.from}-${read.gap.to} (${thousands(read.gap.to - read.gap.from + 1)}) were dropped from its middle, lines ${read.gap.cut.join(' and ')} cut at the gap`
            : read.droppedLines > 0
              ? `; lines 1..${read.droppedLines} were dropped from the bounded spool`
              : read.droppedLines < 0
                ? '; the middle of a very long output was dropped from the bounded spool (a marker line shows where)'
                : '';
          const e = control.entry();
          const pastEnd = !grep && args.from_line !== undefined && args.from_line > read.totalLines;
          const what = pastEnd
            ? `no lines from ${args.from_line}: the output has ${read.totalLines} line(s)${e.state === 'running' || e.state === 'waiting-for-input' ? ' so far (it is still running; read again later)' : ''}`
            : `${read.lines.length} line(s) of ${read.totalLines}${grep ? ` matching /${args.grep}/` : ''}${more}${dropped}`;
          return linesReply(deps, control.entry(), 'read_raw', read, lines, `${what}${columnsNote(args)}`, columnsOf(args));
        }
        case 'signal': {
          const sig = args.signal ?? 'SIGINT';
          const before = control.entry();
          if (before.state === 'exited' || before.state === 'killed') return toolError(`${describeEntry(before)}: it has already ended`, 'nothing to signal; read its output with read_raw');
          control.signal(sig);
          // Give the process a moment to react so the reply shows the effect (usually an exit).
          await withTimeout(control.done, 500, extra.signal);
          const e = control.entry();
          // An interrupted backgrounded sh_run: what it printed up to the signal, as sh_run would have shown it.
          const ended = await endedRunReply(deps, e, 'signal', extra.signal);
          if (ended) return ended;
          return reply(`sent ${sig} to ${e.id}: ${describeEntry(e)}${footer(deps)}`, base(deps, e, 'signal'));
        }
        case 'kill': {
          const e = await control.kill();
          await deps.runs.get(e.id)?.done;
          return reply(`killed ${e.id} (process group TERM, then KILL): ${describeEntry(e)}${footer(deps)}`, base(deps, e, 'kill'));
        }
        case 'status': {
          let e = control.entry();
          if (args.wait && (e.state === 'running' || e.state === 'waiting-for-input') && !e.waiting) {
            // Block until it ends or asks for input, so the agent needs no polling loop.
            await waitForEndOrPrompt(deps, control, secondsToMs(args.wait, 0, MAX_ANSWER_WAIT_S), extra.signal);
            e = control.entry();
          }
          const ended = await endedRunReply(deps, e, 'status', extra.signal);
          if (ended) return withSummaries(deps, e.id, ended);
          return withSummaries(deps, e.id, reply(`${describeEntry(e)}${hint(e)}${footer(deps)}`, base(deps, e, 'status')));
        }
      }
    },
  );
}

/** The process as the agent may read it: lines shown during operator handoffs replaced by one marker each range. */
function withheldView(control: ProcessControl, deps: McpDeps): ProcessControl {
  const host = deps.operator;
  if (!host) return control;
  const hide = (r: SpoolReadResult): SpoolReadResult => {
    const ranges = host.withheldLines(control.id);
    if (!ranges.length) return r;
    const inRange = (n: number) => ranges.find((g) => n >= g.from && n <= g.to);
    const lines: SpoolReadResult['lines'] = [];
    for (const l of r.lines) {
      const g = inRange(l.n);
      if (!g) lines.push(l);
      else if (!lines.length || lines[lines.length - 1].n < g.from) lines.push({ n: l.n, text: `[withheld: output shown during an operator handoff${g.to === Number.MAX_SAFE_INTEGER ? ', still in progress' : ` (lines ${g.from}-${g.to})`}]` });
    }
    return { ...r, lines };
  };
  return new Proxy(control, {
    get: (target, prop, receiver) => (prop === 'read' ? (o?: Parameters<ProcessControl['read']>[0]) => hide(target.read(o)) : Reflect.get(target, prop, receiver)),
  });
}

/**
 * The process as the agent may read it: every line it reads masked whole, before read_raw's
 * column windows and long-line cuts are taken (a window starting inside a token must not show
 * its tail), with the command's stream state (a read that starts inside a private key block).
 */
function maskedView(control: ProcessControl, deps: McpDeps): ProcessControl {
  const redactor = deps.redactor;
  if (!redactor?.maskLines) return control;
  const mask = (r: SpoolReadResult): SpoolReadResult => ({ ...r, lines: redactor.maskLines!(control.id, r.lines) });
  return new Proxy(control, {
    get: (target, prop, receiver) => (prop === 'read' ? (o?: Parameters<ProcessControl['read']>[0]) => mask(target.read(o)) : Reflect.get(target, prop, receiver)),
  });
}

/** Prepends the credential-blind summaries of the process's finished handoffs to a reply. */
function withSummaries(deps: McpDeps, id: string, r: ReturnType<typeof reply>): ReturnType<typeof reply> {
  const summaries = deps.operator?.summaries(id) ?? [];
  if (!summaries.length) return r;
  const content = r.content.map((c, i) => (i === 0 && c.type === 'text' ? { ...c, text: `${summaries.join('\n')}\n${c.text}` } : c));
  return { ...r, content, structuredContent: { ...(r.structuredContent ?? {}), handoffs: summaries } };
}

function base(deps: McpDeps, e: ProcessEntry, action: string): Out {
  return {
    id: e.id,
    ...(e.alias ? { alias: e.alias } : {}),
    action,
    state: e.state,
    ...(e.exitCode !== undefined && (e.state === 'exited' || e.state === 'killed') ? { exit_code: e.exitCode } : {}),
    kind: e.kind,
    command: e.command,
    ...(e.session ? { session: e.session } : {}),
    pid: e.pid,
    pgid: e.pgid,
    started_at: new Date(e.startedAt).toISOString(),
    elapsed_ms: e.elapsedMs,
    last_line: e.lastLine,
    raw_lines: e.rawLines,
    ...(e.waiting ? { waiting_for_input: { prompt: e.waiting.prompt, secret: e.waiting.secret } } : {}),
    ...(e.spoolRef ? { spool_ref: e.spoolRef } : {}),
    procs: deps.sessions.processes.digest(),
  };
}

/** read_tail's default: the tail squashed with the command's grammar, markers in raw line numbers. */
function condensedTail(deps: McpDeps, e: ProcessEntry, read: SpoolReadResult, lines: { n: number; text: string }[]) {
  const first = lines.length ? lines[0].n : 1;
  const last = lines.length ? lines[lines.length - 1].n : 0;
  const c = lines.length ? deps.condense(e.command, e.cwd, lines.map((l) => l.text), first) : { text: '' };
  const capped = capReply(c.text.replace(/\n+$/, ''), () => `read exact lines with read_raw {from_line: ${first}}`);
  const what = lines.length
    ? `lines ${first}-${last} of ${read.totalLines}, condensed${c.grammar ? ` (grammar ${c.grammar})` : ''}; exact lines: read_tail {raw: true} or read_raw {from_line: ${first}}${e.spoolRef ? ` or \`${e.spoolRef}\`` : ''}`
    : 'no output yet';
  const text = `${describeEntry(e)}\n${what}${capped.text ? `:\n${capped.text}` : ''}${footer(deps)}`;
  return reply(text, {
    ...base(deps, e, 'read_tail'),
    condensed: capped.text,
    ...(c.grammar ? { grammar: c.grammar } : {}),
    from_line: first,
    total_lines: read.totalLines,
    ...(read.droppedLines ? { dropped_lines: read.droppedLines } : {}),
  } satisfies Out);
}

/** When `e` is a backgrounded sh_run that has ended: its final reply (waiting up to a second for the router to finish it). */
async function endedRunReply(deps: McpDeps, e: ProcessEntry, action: string, signal: AbortSignal) {
  const run = deps.runs.get(e.id);
  if (!run || (e.state !== 'exited' && e.state !== 'killed')) return undefined;
  await withTimeout(run.done, 1_000, signal);
  return run.result ? finishedRunReply(deps, e, run, run.result, action) : undefined;
}

/** A backgrounded sh_run that has ended: its final condensed reply, handed over once (marked delivered). */
function finishedRunReply(deps: McpDeps, e: ProcessEntry, run: BackgroundRun, result: RouteCommandResult, action: string) {
  run.delivered = true;
  const capped = capReply(result.text, (from) => `sh_interact {id: "${e.id}", action: "read_raw", from_line: ${from}}`);
  const body = capped.text.replace(/\n+$/, '');
  // The same status line an sh_run that finished in time ends with.
  const text = `${e.id} finished: \`${truncate(run.command, 200)}\`\n${runReplyText(result, body, { truncated: capped.truncated })}${footer(deps)}`;
  return reply(text, { ...base(deps, e, action), result: body, ...(result.cwd ? { cwd: result.cwd } : {}) } satisfies Out);
}

function footer(deps: McpDeps): string {
  const d = deps.sessions.processes.digest();
  return d ? `\n${d}` : '';
}

function hint(e: ProcessEntry): string {
  if (e.waiting) return e.waiting.secret ? `\nIt asks for a secret: do not guess it; ask the user.` : `\nAnswer with sh_interact {id: "${e.id}", action: "send", text: "…\\n"}.`;
  return '';
}

function linesReply(deps: McpDeps, e: ProcessEntry, action: string, read: SpoolReadResult, rawLines: { n: number; text: string }[], what: string, cols?: Columns) {
  const lines = rawLines.map((l) => fitLine(l, cols));
  const width = String(lines.length ? lines[lines.length - 1].n : 1).length;
  const body = lines.map((l) => `${String(l.n).padStart(width)}│ ${l.text}`).join('\n');
  const capped = capReply(body, (from) => `page on with read_raw and a from_line past the last number shown (reply line ${from})`);
  const text = `${describeEntry(e)}\n${what}${lines.length ? `:\n${capped.text}` : ''}${footer(deps)}`;
  // Structured lines follow the same cap as the text so a reply never balloons.
  const keep = capped.truncated ? lines.slice(0, Math.max(0, capped.text.split('\n').length - 1)) : lines;
  return reply(text, { ...base(deps, e, action), lines: keep, total_lines: read.totalLines, ...(read.droppedLines ? { dropped_lines: read.droppedLines } : {}) });
}

/**
 * Writes input, then waits until the process answers: new output followed by a short silence,
 * a new prompt, a wait_for match, its exit, or the wait timeout — so one call does what an agent
 * would otherwise need a polling loop for.
 */
async function sendInput(
  deps: McpDeps,
  control: ProcessControl,
  args: { action: 'send' | 'keys'; text?: string; keys?: string[]; wait?: number; wait_for?: string },
  extra: ToolExtra,
) {
  const before = control.entry();
  if (before.state === 'exited' || before.state === 'killed') return toolError(`${describeEntry(before)}: it has ended and takes no input`, 'read its output with read_raw, or start it again');
  const waitFor = regexArg('wait_for', args.wait_for, 'pass a valid JavaScript regular expression');
  if (waitFor.error) return waitFor.error;
  if (args.action === 'send') {
    if (args.text === undefined) return toolError('send needs text', 'pass text, e.g. {action: "send", text: "y\\n"} (\\n presses Enter)');
  } else if (!args.keys?.length) {
    return toolError('keys needs a non-empty keys array', 'pass e.g. {action: "keys", keys: ["C-c"]}');
  } else {
    const unknown = args.keys.filter((k) => !isKeyName(k));
    if (unknown.length) {
      return toolError(
        `keys: unknown key name(s) ${unknown.map((k) => JSON.stringify(k)).join(', ')}; nothing was sent`,
        'use Enter Tab Esc Backspace Space Delete Up Down Left Right Home End PageUp PageDown, C-<x> (Ctrl+C works too), M-<x>, or one character; to type text use action "send"',
      );
    }
  }
  // A line typed into a shell reaches a shell: the same policy decision as sh_run, before any byte is written.
  const typed = args.action === 'send' ? { text: args.text! } : { keys: args.keys! };
  const guard = shellGuard(deps, control, before);
  if (guard) {
    const d = guard.check(typed);
    if (d.decision !== 'allow' && d.decision !== 'confirm') {
      const why = d.decision === 'forbid' ? `forbidden by policy (rule ${d.rule}): ${d.reason}` : `policy says ${d.decision} (rule ${d.rule}): ${d.reason}; an operator must approve it and none is attached`;
      return reply(`refused: ${before.id} is a shell and this input would run a line the policy does not allow; nothing was sent\n${why}${footer(deps)}`, {
        ...base(deps, before, args.action),
        refused: true,
        policy: { decision: d.decision, rule: d.rule, reason: d.reason },
      });
    }
    guard.commit(typed);
  }
  const waitMs = secondsToMs(args.wait, DEFAULT_ANSWER_WAIT_S, MAX_ANSWER_WAIT_S);
  const answered = waitForAnswer(deps, control, waitFor.re, waitMs, extra.signal);
  if (args.action === 'send') control.send(args.text!);
  else control.sendKeys(args.keys!);
  const why = await answered;
  const after = control.entry();
  const ended = await endedRunReply(deps, after, args.action, extra.signal);
  if (ended) return ended;
  const read = control.read({ fromLine: Math.max(1, before.rawLines) });
  const lines = read.lines.slice(-DEFAULT_TAIL_LINES);
  return linesReply(deps, after, args.action, read, lines, `sent; ${why}; output since`);
}

/** Per process: what was typed into it since the last Enter, when it is a shell. */
const guards = new Map<string, ShellInputGuard | null>();

function shellGuard(deps: McpDeps, control: ProcessControl, e: ProcessEntry): ShellInputGuard | undefined {
  const policy = deps.policy;
  if (!policy) return undefined;
  const key = `${e.id}:${e.pid}`;
  let g = guards.get(key);
  if (g === undefined) {
    g = isShellCommand(e.command) ? new ShellInputGuard(policy, () => ({ cwd: control.entry().cwd, session: e.session })) : null;
    guards.set(key, g);
  }
  return g ?? undefined;
}

type AnswerReason = string;

function waitForAnswer(deps: McpDeps, control: ProcessControl, pattern: RegExp | undefined, timeoutMs: number, signal: AbortSignal): Promise<AnswerReason> {
  return new Promise((resolve) => {
    let seen = '';
    let sawOutput = false;
    let settle: NodeJS.Timeout | undefined;
    const decoder = new TextDecoder();
    const finish = (why: string) => {
      clearTimeout(timer);
      clearTimeout(settle);
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
      resolve(why);
    };
    const onAbort = () => finish('cancelled');
    const timer = setTimeout(() => finish(sawOutput ? 'still running' : `no output within ${Math.round(timeoutMs / 100) / 10}s`), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    const unsubscribe = deps.sessions.subscribe((ev) => {
      if (ev.type === 'raw' && ev.source.id === control.id) {
        sawOutput = true;
        if (pattern) {
          // Keep a bounded window so a chatty process cannot grow this without limit.
          seen = (seen + decoder.decode(ev.chunk, { stream: true })).slice(-64_000);
          if (pattern.test(seen)) return finish('wait_for matched');
        } else {
          clearTimeout(settle);
          settle = setTimeout(() => finish('answered'), ANSWER_SETTLE_MS);
        }
      } else if (ev.type === 'waiting-for-input' && ev.source.id === control.id && sawOutput) {
        finish(`waiting for input again: "${truncate(ev.waiting.prompt, 120)}"`);
      }
    });
    control.done.then((e) => finish(`it ended (exit ${e.exitCode ?? '?'})`));
  });
}

/** Resolves when the process ends, starts waiting for input, the time passes, or the call is cancelled. */
function waitForEndOrPrompt(deps: McpDeps, control: ProcessControl, timeoutMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      unsubscribe();
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setTimeout(finish, timeoutMs);
    signal.addEventListener('abort', finish, { once: true });
    const unsubscribe = deps.sessions.subscribe((ev) => {
      if (ev.type === 'waiting-for-input' && ev.source.id === control.id) finish();
    });
    control.done.then(finish, finish);
  });
}

/** A character-column range of every line (1-based, inclusive). */
interface Columns {
  from: number;
  to: number;
}

function columnsOf(args: { from_col?: number; to_col?: number }): Columns | undefined {
  if (args.from_col === undefined && args.to_col === undefined) return undefined;
  const from = args.from_col ?? 1;
  // A range is itself capped: at most MAX_RAW_LINE_CHARS columns per line.
  const to = Math.min(args.to_col ?? from + MAX_RAW_LINE_CHARS - 1, from + MAX_RAW_LINE_CHARS - 1);
  return { from, to };
}

function columnsNote(args: { from_col?: number; to_col?: number }): string {
  const c = columnsOf(args);
  return c ? `, columns ${c.from}-${c.to}` : '';
}

/**
 * A raw line as returned: its column range when asked, else whole up to MAX_RAW_LINE_CHARS, else
 * head + `… [+N chars; from_col/to_col read the middle] …` + tail. `chars` is the whole line's
 * length whenever the text is not the whole line.
 */
function fitLine(l: { n: number; text: string }, cols: Columns | undefined): { n: number; text: string; chars?: number } {
  if (cols) {
    const text = l.text.slice(codeUnitBoundary(l.text, cols.from - 1), codeUnitBoundary(l.text, Math.min(cols.to, l.text.length)));
    return text.length === l.text.length ? l : { n: l.n, text, chars: l.text.length };
  }
  if (l.text.length <= MAX_RAW_LINE_CHARS) return l;
  const head = codeUnitBoundary(l.text, RAW_LINE_HEAD_CHARS);
  const tail = codeUnitBoundary(l.text, l.text.length - RAW_LINE_TAIL_CHARS);
  const text = `${l.text.slice(0, head)}… [+${thousands(tail - head)} chars: columns ${head + 1}-${tail}; read them with from_col/to_col] …${l.text.slice(tail)}`;
  return { n: l.n, text, chars: l.text.length };
}
