/**
 * What a run an agent's hook rewrote (`MISH_AGENT` set by hook-command.ts) prints: the agent's
 * shell tool reads it, so it is masked like every MCP reply (docs/masking.md) — vendor keys,
 * secrets by their name, the values of secret-named environment variables — and nothing
 * reaches that tool before masking: no live lines, no terminal handed over, no question asked
 * on a terminal that is the agent's own (Gemini CLI and Codex run their shell tools in a PTY).
 * A run typed by a human is shown as the command printed it.
 */
import { randomBytes } from 'node:crypto';
import { lazyRedactor } from './cli-audit.js';

/** Random bytes of a run's command id: ids of one conversation's runs share one console timeline and must not collide. */
const COMMAND_ID_BYTES = 6;

/** A run's command id (`c` + hex), as on the operator wire. */
export function newCommandId(): string {
  return `c${randomBytes(COMMAND_ID_BYTES).toString('hex')}`;
}

/**
 * Whose run this is when an agent's hook rewrote it (MISH_AGENT and MISH_AGENT_SESSION): the
 * agent as its hook records it (`claude-code/2.1.3`), the host's session id, and the run's command
 * id. Its audit record and its operator-wire session carry the same, so a console started later
 * reads the run back from the audit log into the conversation it belongs to, as one row.
 */
export function hookedRun(env: NodeJS.ProcessEnv = process.env): { agent: string; session: string; id: string } | undefined {
  if (!env.MISH_AGENT || !env.MISH_AGENT_SESSION) return undefined;
  const version = hostVersion(env);
  return { agent: `${env.MISH_AGENT}${version ? `/${version}` : ''}`, session: env.MISH_AGENT_SESSION, id: newCommandId() };
}

/**
 * The agent host's version: the hook's MISH_AGENT_VERSION (from the payload or the host's own
 * variable), else what the host says of itself in the environment its shell tool runs commands
 * in — Claude Code 2.1 sets AI_AGENT=claude-code_2-1-332_agent there (seen in a real run).
 */
export function hostVersion(env: NodeJS.ProcessEnv): string | undefined {
  if (env.MISH_AGENT_VERSION) return env.MISH_AGENT_VERSION;
  const m = /^(.+)_(\d+(?:-\d+)+)_agent$/.exec(env.AI_AGENT ?? '');
  return m && env.MISH_AGENT && m[1] === env.MISH_AGENT ? m[2].replace(/-/g, '.') : undefined;
}

/** True when this run prints to an agent's shell tool. */
export function printsToAgent(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.MISH_AGENT);
}

/** What masks a text for the agent (the Redactor, loaded lazily). */
export interface AgentMasker {
  mask(text: string, command: string): Promise<string>;
}

/** The product's masker: a secret printer's whole output (`gh auth token`), else the audit log's lazy redactor. */
export function defaultAgentMasker(): AgentMasker {
  let lazy: ReturnType<typeof lazyRedactor> | undefined;
  return {
    async mask(text, command) {
      const printers = await import('../core/redact/secret-printers.js');
      if (printers.secretPrinterOf(command)) return new (await import('../core/redact/redactor.js')).Redactor({ env: process.env }).maskCommandOutput(command, text);
      // The rules load only when the text could hold a secret.
      lazy ??= lazyRedactor();
      return lazy.redactDeep(text);
    },
  };
}

let shared: AgentMasker | undefined;

/**
 * `text` as the agent may read it. Masking that fails (a defect, a limit the rules hit) withholds
 * the text rather than print it unmasked — fail closed — and says where the output is; the
 * error's message is left out, since it may quote the text.
 */
export async function maskForAgent(text: string, command: string, opts: { env?: NodeJS.ProcessEnv; masker?: AgentMasker; spoolRef?: string } = {}): Promise<string> {
  if (!printsToAgent(opts.env)) return text;
  const masker = opts.masker ?? (shared ??= defaultAgentMasker());
  try {
    return await masker.mask(text, command);
  } catch (error) {
    const kind = error instanceof Error ? error.name : typeof error;
    const where = opts.spoolRef ? `the user can read it with \`${opts.spoolRef}\` on their terminal` : 'the user can read it with `mish raw` on their terminal';
    return `mish: output withheld: masking secrets failed (${kind}), and unmasked output could show one; ${where}.\n`;
  }
}
