/**
 * Preflight: flags from grammars that make a tool quieter without changing its outcome
 * (`--no-progress`, `--no-color` is never one: colour helps classification). Inserted right
 * after the action word of each top-level segment, only when the user did not give the flag
 * already and the words are literal, so what runs is exactly what was asked, minus noise.
 */
import type { Segment } from '../router/categorize.js';
import { hasFlag } from '../router/meta.js';

export interface Preflight {
  command: string;
  /** `npm install: --no-progress` per injected flag set, for --explain and json output. */
  injected: string[];
}

export function preflight(source: string, segments: readonly Segment[]): Preflight {
  const inserts: { at: number; text: string; note: string }[] = [];
  for (const s of segments) {
    const d = s.detection;
    if (!d?.action) continue;
    const action = d.grammar.actions[d.action];
    const flags = (action?.quietFlags ?? []).filter((f) => !hasFlag(s.command.argv, f.split('=')[0]));
    if (!flags.length) continue;
    const words = s.command.words.slice(s.command.argvStart);
    if (words.some((w) => !w.literal)) continue;
    const actionWord = words.find((w, i) => i > 0 && action.aliases.includes(w.value));
    if (!actionWord) continue;
    inserts.push({ at: actionWord.end, text: ' ' + flags.join(' '), note: `${s.name} ${actionWord.value}: ${flags.join(' ')}` });
  }
  let command = source;
  for (const ins of inserts.sort((a, b) => b.at - a.at)) command = command.slice(0, ins.at) + ins.text + command.slice(ins.at);
  return { command, injected: inserts.map((i) => i.note).reverse() };
}
