/**
 * Test helpers for the grammar module: temp grammar folders and a reference first-match
 * classifier implementing the rule semantics of grammars/README.md (used to check the shared
 * grammars against real tool output; the squasher has its own, faster classifier).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Grammar } from './types.js';
import { selectRules } from './select-rules.js';

/** A temp folder tree; `write('a/b.toml', text)` creates parents. */
export class TempTree {
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'mish-grammar-test-'));
  write(rel: string, text: string): string {
    const p = path.join(this.root, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  }
  path(rel = ''): string {
    return path.join(this.root, rel);
  }
  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export type RefClass =
  | { kind: 'hazard'; rule: string; severity: string; block: string[] }
  | { kind: 'outcome' | 'noise' | 'prompt'; rule: string }
  | { kind: 'context'; of: string }
  | { kind: 'unknown' };

/** Classifies each line: hazard (with its block of context lines), outcome, noise, prompt, unknown. */
export function referenceClassify(grammar: Grammar, lines: string[], action?: string, dialect?: string): RefClass[] {
  const rules = selectRules(grammar, action, dialect);
  const out: RefClass[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h = rules.hazard.find((r) => r.re.test(line));
    if (h) {
      const block = [line];
      let j = i + 1;
      for (let k = 0; k < h.contextAfter && j < lines.length; k++, j++) block.push(lines[j]);
      while (j < lines.length && (h.continueRe || h.endRe)) {
        if (h.endRe?.test(lines[j])) {
          block.push(lines[j++]);
          break;
        }
        if (!h.continueRe?.test(lines[j])) break;
        block.push(lines[j++]);
      }
      out.push({ kind: 'hazard', rule: h.id, severity: h.severity, block });
      for (let k = i + 1; k < j; k++) out.push({ kind: 'context', of: h.id });
      i = j - 1;
      continue;
    }
    const o = rules.outcome.find((r) => r.re.test(line));
    if (o) {
      out.push({ kind: 'outcome', rule: o.id });
      continue;
    }
    const n = rules.noise.find((r) => r.re.test(line));
    if (n) {
      out.push({ kind: 'noise', rule: n.id });
      continue;
    }
    const p = rules.prompt.find((r) => r.re.test(line));
    out.push(p ? { kind: 'prompt', rule: p.id } : { kind: 'unknown' });
  }
  return out;
}
