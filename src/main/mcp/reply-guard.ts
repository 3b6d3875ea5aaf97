/**
 * The one post-processing point of every tool call, wrapped around registerTool: each reply
 * (text and structuredContent, read_raw and read_tail included) and each progress message is
 * redacted before it reaches the agent, and what the call did is written to the audit log
 * (commands run or started, refusals, session events, input and signals sent to processes).
 * Tools stay unaware of both.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AuditEvent, AuditSink } from '../core/audit/types.js';
import type { ToolExtra } from './tool-kit.js';

/** What the guard needs of the Redactor (src/main/core/redact/redactor.ts). */
export interface ReplyRedactor {
  redactDeep<T>(value: T): Promise<T>;
  addEnv(env: Record<string, string | undefined>): void;
  /** Raw lines of a command's output masked before they are cut into windows (read_raw, read_tail raw). */
  maskLines?<L extends { n: number; text: string }>(id: string, lines: readonly L[]): L[];
}

type Args = Record<string, unknown>;
type Structured = Record<string, unknown>;

/** Makes every tool registered on `server` from now on redact its replies and report to `audit`. */
export function guardReplies(server: McpServer, redactor: ReplyRedactor, audit: AuditSink): void {
  const register = server.registerTool.bind(server) as (name: string, config: unknown, cb: (...a: unknown[]) => unknown) => unknown;
  const agent = () => {
    const v = server.server.getClientVersion();
    return v ? `${v.name}/${v.version}` : undefined;
  };
  (server as { registerTool: unknown }).registerTool = (name: string, config: unknown, cb: (...a: unknown[]) => Promise<CallToolResult>) =>
    register(name, config, async (...a: unknown[]) => {
      // (args, extra) for tools with an input schema, (extra) without.
      const extra = a[a.length - 1] as ToolExtra;
      const args = (a.length > 1 ? a[0] : {}) as Args;
      // Variables the agent hands a session are secrets the replies must not echo back under another name.
      if (name === 'sh_session' && args.env && typeof args.env === 'object') redactor.addEnv(args.env as Record<string, string>);
      const guardedExtra: ToolExtra = {
        ...extra,
        sendNotification: async (n) => extra.sendNotification(n.method === 'notifications/progress' && typeof n.params.message === 'string' ? { ...n, params: { ...n.params, message: await redactor.redactDeep(n.params.message) } } : n),
      };
      let result: CallToolResult;
      try {
        result = await cb(...a.slice(0, -1), guardedExtra);
      } catch (error) {
        // The SDK would send a thrown error's message as it is: it may quote what a command printed.
        result = { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true };
      }
      for (const event of auditEvents(name, args, result)) audit.record({ ...event, agent: agent() });
      try {
        const { content, structuredContent } = await redactor.redactDeep({ content: result.content, structuredContent: result.structuredContent });
        return { ...result, content, ...(structuredContent ? { structuredContent: withProtocolFields(structuredContent, result.structuredContent) } : {}) };
      } catch (error) {
        return withheld(name, result, error);
      }
    });
}

/**
 * Fields of a reply that carry no command output: the protocol's own (an id, an enum, a count, the read_raw hint made of the id),
 * never masked. `spool` joined after adv143 (F16, F48): a transformed printer's whole-line masking took its hint too.
 */
const PROTOCOL_FIELDS = ['id', 'session', 'status', 'exit_code', 'duration_ms', 'spool', 'spool_ref', 'category', 'pid'] as const;

/**
 * The masked structured content with its protocol fields as the tool made them: a value a rule took for a secret masked in one
 * of them would make a reply the output schema rejects (`status: "[masked: credential]"`: 139 F18) and lose the call's result.
 */
function withProtocolFields(masked: Structured, original: Structured | undefined): Structured {
  if (!original) return masked;
  const out = { ...masked };
  for (const k of PROTOCOL_FIELDS) if (typeof original[k] === 'string' && out[k] !== original[k]) out[k] = original[k];
  return out;
}

/**
 * Masking failed (a defect, or a limit the rules hit): the reply is withheld rather than sent
 * unmasked — fail closed. The agent learns why and where the output is; the error's message is
 * left out, since an error may quote the text it was working on.
 */
export function withheld(tool: string, result: CallToolResult, error: unknown): CallToolResult {
  const s = (result.structuredContent ?? {}) as Structured;
  const ref = str(s.spool_ref);
  const kind = error instanceof Error ? error.name : typeof error;
  const text = `mish: ${tool}'s reply withheld: masking secrets failed (${kind}), and an unmasked reply could show one. ${ref ? `The user can read the output with \`${ref}\` on their terminal.` : 'The output is in the session spool for the user.'}`;
  const kept: Structured = {};
  // Fields that carry no command output stay, so the agent still knows what happened.
  for (const k of PROTOCOL_FIELDS) if (typeof s[k] === 'number' || typeof s[k] === 'string' || s[k] === null) kept[k] = s[k];
  return { content: [{ type: 'text', text }], isError: true, ...(Object.keys(kept).length ? { structuredContent: { ...kept, withheld: true } } : {}) };
}

/** First line of a reply's text (a refusal's or an error's reason). */
function firstLine(result: CallToolResult, match?: RegExp): string | undefined {
  const text = result.content.find((c) => c.type === 'text')?.text;
  if (!text) return undefined;
  const lines = text.split('\n');
  return (match ? lines.find((l) => match.test(l)) : undefined) ?? lines[0];
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

/** What a finished tool call adds to the audit log (nothing for reads, help and listings). */
export function auditEvents(tool: string, args: Args, result: CallToolResult): Omit<AuditEvent, 'agent'>[] {
  const s = (result.structuredContent ?? {}) as Structured;
  const base = { host: 'mcp' as const, by: 'agent' as const };
  switch (tool) {
    case 'sh_run': {
      const common = { ...base, session: str(s.session) ?? str(args.session) ?? 'default', command: str(args.cmd), id: str(s.id), cwd: str(s.cwd) };
      if (result.isError) return [{ ...common, kind: 'command', decision: 'error', reason: firstLine(result) }];
      if (s.status === 'refused') {
        // An escalation refused or denied: its rule, and the id the console's row of it carries (absent: nothing was recorded for a console).
        const esc = (typeof s.escalation === 'object' && s.escalation !== null ? s.escalation : {}) as Structured;
        return [{ ...common, kind: 'decision', by: 'policy', decision: 'refused', category: str(s.category), ...(str(esc.rule) ? { rule: str(esc.rule) } : {}), ...(str(esc.id) && !common.id ? { id: str(esc.id) } : {}), ...(str(esc.outcome) ? { detail: { escalation: str(esc.outcome)! } } : {}), reason: firstLine(result, /^refused/) }];
      }
      const decision = s.status === 'exited' ? 'ran' : s.status === 'running' ? 'backgrounded' : String(s.status);
      return [{ ...common, kind: 'command', decision, exitCode: s.exit_code as number | null, category: str(s.category), durationMs: num(s.duration_ms), spoolRef: str(s.spool_ref) }];
    }
    case 'sh_spawn': {
      const common = { ...base, session: str(args.session), command: str(args.cmd), cwd: str(args.cwd) };
      if (result.isError) return [{ ...common, kind: 'command', decision: 'error', reason: firstLine(result) }];
      if (s.status === 'refused') {
        const dangers = Array.isArray(s.dangers) ? (s.dangers as string[]).join(',') : undefined;
        return [{ ...common, kind: 'decision', by: 'policy', decision: 'refused', category: str(s.category), ...(dangers ? { rule: dangers } : {}), reason: firstLine(result, /^refused/) }];
      }
      return [{ ...common, kind: 'command', decision: 'started', id: str(s.id), spoolRef: str(s.spool_ref), ...(num(s.pid) !== undefined ? { detail: { pid: num(s.pid)! } } : {}) }];
    }
    case 'sh_session': {
      const action = str(args.action);
      if (!action || action === 'list') return [];
      const session = str(args.name) ?? 'default';
      return [{ ...base, kind: 'session', session, decision: result.isError ? `${action}-failed` : action === 'create' ? 'created' : action === 'close' ? 'closed' : `${action}ed`, ...(result.isError ? { reason: firstLine(result) } : {}), ...(str(args.ssh) ? { detail: { ssh: str(args.ssh)! } } : {}) }];
    }
    case 'sh_interact': {
      const action = str(args.action);
      if (action !== 'send' && action !== 'keys' && action !== 'signal' && action !== 'kill') return [];
      // What was typed is not recorded (it may answer a password prompt); its size and the keys' names are.
      const detail: Record<string, string | number> = {};
      if (action === 'send') detail.bytes = Buffer.byteLength(str(args.text) ?? '');
      if (action === 'keys' && Array.isArray(args.keys)) detail.keys = (args.keys as string[]).join(' ');
      if (action === 'signal') detail.signal = str(args.signal) ?? 'SIGINT';
      return [{ ...base, kind: 'command', decision: result.isError ? `${action}-failed` : action, id: str(args.id), session: str(s.session), command: str(s.command), detail }];
    }
    default:
      return [];
  }
}
