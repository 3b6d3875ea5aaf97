/**
 * What mish needs from one agent host's hook protocol: read its payload, write its answers,
 * and where its hook configuration lives. One file per host (claude-code.ts, codex.ts,
 * gemini-cli.ts, cursor.ts, copilot.ts), each with a link to the documentation section it follows;
 * fixtures/hooks/<host>/ holds the documentation's example payloads.
 */

/** A shell command the agent is about to run through its own shell tool. */
export interface ShellCall {
  command: string;
  /** Working directory the host reports (else the hook's own). */
  cwd?: string;
  /** The agent's session (conversation) id. */
  sessionId?: string;
  /** The host's transcript file of the conversation (`transcript_path`), shown by the console on the conversation's entry. */
  transcriptPath?: string;
  /** The host's version, when the payload or the environment gives it. */
  hostVersion?: string;
  /** The host's permission mode, where it reports one (Claude Code: default, bypassPermissions, …). */
  permissionMode?: string;
  /** The host would run this call without asking its user (its mode or its own allow rules say so). */
  hostWouldNotAsk?: boolean;
  /** The tool input as received: a rewrite keeps every other field of it. */
  toolInput?: Record<string, unknown>;
}

export type ParsedPayload =
  /** `editsFiles`: files the line also writes by the host's own means (Codex applies `apply_patch <<EOF` itself), judged as a file edit. */
  | { kind: 'shell'; call: ShellCall; editsFiles?: string[] }
  /**
   * The host's own file-editing tool about to change `files` (Claude Code's Edit, Write, MultiEdit,
   * NotebookEdit; Codex's apply_patch; Gemini CLI's write_file, replace; Copilot CLI's create, edit).
   */
  | { kind: 'file-edit'; tool: string; files: string[]; call: ShellCall }
  /** A payload for another tool or event: mish has no opinion. */
  | { kind: 'other'; what: string }
  | { kind: 'malformed'; error: string };

/**
 * The hook's answer, host-neutral. `pass`: no opinion (the host's own permission flow for the
 * original command). `rewrite`: run this command line instead, the host's own permission flow
 * still in force (only where the host can rewrite without approving). `allow`: an operator
 * approved it. `ask`: the host asks its user. `deny`: blocked, with the reason the agent reads.
 */
export type HookAnswer =
  | { kind: 'pass'; note?: string }
  | { kind: 'rewrite'; command: string; call: ShellCall; approve: boolean; reason?: string }
  | { kind: 'allow'; reason: string }
  | { kind: 'ask'; reason: string }
  | { kind: 'deny'; reason: string };

/** What the hook process prints and how it exits. */
export interface RenderedAnswer {
  stdout: string;
  stderr?: string;
  exitCode: number;
}

export type HostId = 'claude-code' | 'codex' | 'gemini-cli' | 'cursor' | 'copilot';

export interface HostConfigFiles {
  /** The user-scope file (default of `mish init`). */
  user(env: NodeJS.ProcessEnv): string;
  /** The project file (`mish init --project`), relative to the project root. */
  project(root: string): string;
}

export interface HostAdapter {
  id: HostId;
  /** Display name. */
  name: string;
  /** The documentation section the protocol follows. */
  docs: string;
  parse(payload: unknown, env: NodeJS.ProcessEnv): ParsedPayload;
  render(answer: HookAnswer): RenderedAnswer;
  /**
   * Can this host's hook rewrite a command without approving it past the host's own permission
   * check? `when-host-would-not-ask`: only where the payload shows the host would not have asked
   * (Claude Code in bypassPermissions mode); `always`: the rewrite leaves the host's check in
   * force; `never`: the host cannot rewrite, or only by approving.
   */
  rewrite: 'always' | 'when-host-would-not-ask' | 'never';
  /**
   * The answer to an escalation when no operator decides: `ask` where the host then asks its user,
   * `deny` where its ask (or a timeout) would let the command run.
   */
  unattended: 'ask' | 'deny';
  /** The hook timeout mish writes into the host's configuration, in seconds. */
  timeoutSec: number;
  files: HostConfigFiles;
  /** The hook entry for `mish init`: where in the JSON and what. */
  entry(command: string): { path: (string | number)[]; value: Record<string, unknown>; topLevel?: Record<string, unknown> };
  /** Does an entry of the hook list at `path` belong to mish (its command runs `mish … hook <id>`)? */
  isMishEntry(value: unknown): boolean;
  /** Signs that the agent is installed here (a config dir or a program on PATH). */
  detect: { dirs(env: NodeJS.ProcessEnv): string[]; programs: string[] };
}

/** Reads a string field, or undefined. */
export function str(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Does a hook command run mish's hook for this host (`… mish… hook <id>`)? */
export function runsMishHook(command: unknown, id: HostId): boolean {
  return typeof command === 'string' && /mish/.test(command) && new RegExp(`\\bhook\\s+${id}\\b`).test(command);
}

/** Does a payload carry a command line anywhere a host puts one (tool_input.command, command)? */
export function carriesCommand(payload: Record<string, unknown>): boolean {
  const input = payload.tool_input;
  return payload.command !== undefined || (isRecord(input) && input.command !== undefined);
}
