/** The agent hosts mish hooks into, by the name `mish init <agent>` / `mish hook <agent>` take. */
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { geminiCli } from './gemini-cli.js';
import type { HostAdapter, HostId } from './types.js';

export const HOSTS: Record<HostId, HostAdapter> = { 'claude-code': claudeCode, codex, 'gemini-cli': geminiCli, cursor, copilot };
export const HOST_IDS = Object.keys(HOSTS) as HostId[];

export function hostOf(name: string | undefined): HostAdapter | undefined {
  return name !== undefined && Object.hasOwn(HOSTS, name) ? HOSTS[name as HostId] : undefined;
}
