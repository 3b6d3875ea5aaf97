/** Numbers and times formatted for reading (CONSOLE.md: 1,497 tok, 12.1 s, 48 KB, "2 min ago"). */
import type { ServerInfo } from '../../shared/contract.js';

const INT = new Intl.NumberFormat('en-US');

export function int(n: number): string {
  return INT.format(n);
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** 0.4 s, 12.1 s, 3:07 (min:s), 1:02:03. */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Elapsed clock of a running thing: 0:42. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export function relative(at: number, now: number): string {
  const d = Math.max(0, now - at);
  if (d < 10_000) return 'just now';
  if (d < 60_000) return `${Math.floor(d / 1000)} s ago`;
  if (d < 3_600_000) return `${Math.floor(d / 60_000)} min ago`;
  if (d < 86_400_000) return `${Math.floor(d / 3_600_000)} h ago`;
  return dateOf(at);
}

/**
 * Every time of day and date the console shows comes from here, in one format: 24 h with
 * seconds, the date as ISO (2026-11-29), local time. Not the locale's toLocaleString, which
 * gives "3:56:52 PM" on one machine and "15:56:52" on another, beside badges that said 15:56:52.
 */
const pad2 = (n: number) => String(n).padStart(2, '0');

/** 2026-11-29 (local). */
export function dateOf(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** The date and time of day to the second, 24 h: 2026-11-29 15:56:52 (local). */
export function absolute(at: number): string {
  return `${dateOf(at)} ${clockTime(at)}`;
}

/** The time of day, to the second, 24 h (14:02:03): when something happened today; the date is on hover. */
export function clockTime(at: number): string {
  const d = new Date(at);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/**
 * −92% (a reduction), +5% (the reply was longer than the output). Near the ends one decimal,
 * never rounded to a claim the figures do not make: 17,009 → 46 tokens is −99.7%, not −100%.
 */
export function reduction(raw: number, shown: number): string | undefined {
  if (raw <= 0) return undefined;
  const exact = (1 - shown / raw) * 100;
  const pct = Math.round(exact);
  if (pct === 100 && shown > 0) return `−${Math.min(99.9, Math.floor(exact * 10) / 10)}%`;
  if (pct === 0) return '0%';
  return pct >= 0 ? `−${pct}%` : `+${-pct}%`;
}

/**
 * Outputs below this many tokens are compared in tokens, not percent: the reply's status line
 * (exit code, time; ~10–30 tokens) outweighs a 3-token output, and "+200%" there reads as a
 * failure of the condenser when it is only the price of saying how the command ended.
 */
export const SMALL_OUTPUT_TOKENS = 100;

/** The timeline's "saved" cell: a percentage for real outputs; a token difference, muted, for small ones. */
export function saving(raw: number, shown: number): { text: string; tone: 'saved' | 'grew' | 'small'; title: string } {
  // No output, yet a reply (how the command ended): what the agent got is the whole cost, not a dash.
  if (raw <= 0) return { text: `+${int(shown)} tok`, tone: 'small', title: `no output: the agent received ${plural(shown, 'token')} (how the command ended)` };
  if (raw < SMALL_OUTPUT_TOKENS) {
    const d = shown - raw;
    return {
      text: d === 0 ? '±0 tok' : `${d > 0 ? '+' : '−'}${int(Math.abs(d))} tok`,
      tone: 'small',
      title: `a short output (${plural(raw, 'token')}): the agent received ${plural(shown, 'token')}, with the status line saying how it ended; percentages mean little at this size`,
    };
  }
  const text = reduction(raw, shown)!;
  return { text, tone: text.startsWith('+') ? 'grew' : 'saved', title: `${int(raw)} → ${int(shown)} tokens` };
}

/** `1 line`, `2 lines`, `1,497 lines`: a count with its noun in the right number. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${int(n)} ${n === 1 ? one : many}`;
}

/** `~/shop` for a path under the home directory when the home is known from the path shape. */
export function shortPath(p: string | undefined): string {
  if (!p) return '';
  const m = /^\/(?:home\/[^/]+|root|Users\/[^/]+)(\/.*)?$/.exec(p);
  return m ? `~${m[1] ?? ''}` : p;
}

/** Session ids longer than this are shown by their first SESSION_ID_SHOWN characters (the whole id on hover). */
const SESSION_NAME_MAX = 16;
const SESSION_ID_SHOWN = 8;

/** A session's name for a list: a hooked agent's session id (a 36-character UUID) cut to its start; names people chose stay whole. */
export function sessionLabel(name: string): string {
  return name.length > SESSION_NAME_MAX ? `${name.slice(0, SESSION_ID_SHOWN)}…` : name;
}

/** A hooked agent's entry: `hooked · 3 runs` (its conversation's runs this console saw; `1 running` while one is). */
export function conversationLabel(s: ServerInfo | undefined): string {
  const c = s?.conversation;
  if (!c) return '';
  return `hooked · ${plural(c.runs, 'run')}${c.live ? ` · ${c.live} live` : ''}${c.ended && !c.live ? ' · ended' : ''}`;
}

/** An agent as the operator knows it: its MCP client's name and version (`claude-code 2.1`). */
export function serverLabel(s: ServerInfo | undefined): string {
  if (!s) return '';
  return `${s.name}${s.version ? ` ${s.version}` : ''}`;
}
