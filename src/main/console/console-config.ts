/**
 * The console's own config file, `$XDG_CONFIG_HOME/mish/console.toml` (or ~/.config/mish/…;
 * `mish console --config FILE` or MISH_CONSOLE_CONFIG for another): notifications (`[notify]`)
 * and remote machines (`[[remote]]`). Read once at start; a bad file is a one-line error.
 *
 *   [notify]
 *   webhook = "https://ntfy.example/mish"   # POST JSON per event
 *   events = ["approval", "input", "secret", "failed"]
 *   max_per_minute = 6                      # beyond: counted, sent as one summary
 *   long_run_seconds = 60                   # a command failing after at least this long notifies
 *   console_url = "http://localhost:8022"   # the base of deep links (the phone's tunnel address)
 *
 *   [[remote]]
 *   ssh = "alice@devbox"                    # any ssh destination; ~/.ssh/config applies
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseToml } from '../core/toml/parse-toml.js';

/** Notifications a burst may send per minute before the rest are summed up (a phone buzzing more is noise). */
export const DEFAULT_NOTIFY_PER_MINUTE = 6;
/** A failure after at least this long is worth a notification (a quick failure is the agent's own loop). */
export const DEFAULT_LONG_RUN_SECONDS = 60;

export const NOTIFY_KINDS = ['approval', 'input', 'secret', 'failed'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

const httpUrl = z.string().refine((u) => {
  try {
    return ['http:', 'https:'].includes(new URL(u).protocol);
  } catch {
    return false;
  }
}, 'an http:// or https:// URL');

const ConfigSchema = z
  .object({
    notify: z
      .object({
        webhook: httpUrl,
        events: z.array(z.enum(NOTIFY_KINDS)).min(1).default([...NOTIFY_KINDS]),
        max_per_minute: z.number().int().min(1).max(600).default(DEFAULT_NOTIFY_PER_MINUTE),
        long_run_seconds: z.number().min(0).default(DEFAULT_LONG_RUN_SECONDS),
        console_url: httpUrl.optional(),
      })
      .strict()
      .optional(),
    remote: z.array(z.object({ ssh: z.string().min(1) }).strict()).default([]),
  })
  .strict();

export interface NotifySettings {
  webhook: string;
  events: NotifyKind[];
  maxPerMinute: number;
  longRunSeconds: number;
  consoleUrl?: string;
}

export interface ConsoleConfig {
  notify?: NotifySettings;
  remotes: string[];
  /** The file read (absent: none existed). */
  file?: string;
}

/** Where the config is looked for by default. */
export function defaultConsoleConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'mish', 'console.toml');
}

/** Reads the config (`file` given: it must exist); errors as values with one line. */
export function loadConsoleConfig(file?: string, env: NodeJS.ProcessEnv = process.env): { ok: true; value: ConsoleConfig } | { ok: false; error: string } {
  const given = file ?? env.MISH_CONSOLE_CONFIG;
  const where = given ?? defaultConsoleConfigPath(env);
  if (!existsSync(where)) return given ? { ok: false, error: `console config ${where}: no such file` } : { ok: true, value: { remotes: [] } };
  let raw: unknown;
  try {
    raw = parseToml(readFileSync(where, 'utf8'));
  } catch (err) {
    return { ok: false, error: `console config ${where}: ${String((err as Error).message).split('\n')[0]}` };
  }
  const r = ConfigSchema.safeParse(raw);
  if (!r.success) {
    const first = r.error.issues[0];
    return { ok: false, error: `console config ${where}: ${first.path.join('.') || '(top)'}: ${first.message}` };
  }
  const n = r.data.notify;
  return {
    ok: true,
    value: {
      file: where,
      remotes: r.data.remote.map((x) => x.ssh),
      ...(n ? { notify: { webhook: n.webhook, events: n.events, maxPerMinute: n.max_per_minute, longRunSeconds: n.long_run_seconds, ...(n.console_url ? { consoleUrl: n.console_url } : {}) } } : {}),
    },
  };
}
