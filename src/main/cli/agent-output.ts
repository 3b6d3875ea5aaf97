/**
 * What a run an agent's hook rewrote (`MISH_AGENT` set by hook-command.ts) prints: the agent's
 * shell tool reads it, so it is masked like every MCP reply (docs/masking.md) — vendor keys,
 * secrets by their name, the values of secret-named environment variables — and nothing
 * reaches that tool before masking: no live lines, no terminal handed over, no question asked
 * on a terminal that is the agent's own (Gemini CLI and Codex run their shell tools in a PTY).
 * A run typed by a human is shown as the command printed it.
 */
import { lazyRedactor } from './cli-audit.js';

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
