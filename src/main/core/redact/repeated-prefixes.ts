/**
 * A prefix a tool repeats before its lines, learned from the output's first lines when no named kind (prefixed-lines.ts) has it:
 * stern's `web-0 app ` or `default web-7d4b9c8f6d-x2k8q app `, Skaffold's one-word `[api] `, podman-compose's `[web] | `, `fly
 * logs`' `2024-12-06T10:00:01Z app[3d8d9e1b] iad [info]`, `aws logs tail`'s `<time> <stream> `, journald's `-o short-full`, pm2's
 * `0|api  | `… (session 43's closing attack adv253: each named format added was followed by the next tool's). A rule anchored at
 * a line's start (`set psksecret …`, a `.pgpass` line, a YAML block under its name) then sees the line as the tool's input had it.
 *
 * How: the first lines are cut into tokens (a word and the one blank after it, or a word ending in `]` glued to the text, as
 * fly's `[info]`, or a bar and the blanks that pad to it; a line's indent is its text's, never the prefix's), compared with
 * digits as one class (a time, a pid, a line number change from line to line). From the root, a token is taken into the prefix
 * while the lines that share it (two or more a token) hold most of the lines so far: a tool's prefix is on every line of its
 * group, a word of the text is on a few. Two interleaved pods are two groups. A prefix must hold a tool's mark (a digit, a
 * bracket, a bar, a slash…): `export ` and a word every line repeats are text, read as they are.
 */

/** The output's first lines the prefixes are learned from (stern's `+ pod › container` lines come before the logs). */
const SAMPLE_LINES = 16;
/** Lines the sample must hold (two lines alike are a coincidence of the text as often as a tool's). */
const MIN_SAMPLE = 3;
/**
 * Lines of the sample that must share a prefix: two, once the sample's lines went on together from the root (two pods of two
 * lines each in stern's log: adv263 RP1); a prefix must still hold a tool's mark.
 */
const MIN_SHARED = 2;
/** Of a node's lines, the part its repeated next tokens must hold for the prefix to go on (a tool's token is on every line). */
const GO_ON_SHARE = 0.75;
/**
 * Tokens a prefix holds at most, and its characters (fly's has five tokens, journald's `short-full` six). Lines that go on sharing
 * tokens past it repeat a text, not a tool's prefix (a build log's `gcc -Wall -O1 … -DFEATURE_3=1 ` on every line): no prefix.
 */
const MAX_TOKENS = 8;
const MAX_PREFIX = 256;
/** Its characters at least (Skaffold's `[db] `; `0: ` or `a| ` start a line of text as often). */
const MIN_PREFIX = 4;
/**
 * A token: a word and one blank, or a word ending in `]` glued to the text after it (fly's `[info]`), or a bar and the blanks
 * that pad to it (compose's `web-1  | `, pm2's `0|api      | `). A line's indent is its text's: a token never starts with a blank
 * but a bar's.
 */
const TOKEN = /(?:[ \t]*[|│][ \t]|[^\s\]]*\](?![ \t])|[^\s]+[ \t])/y;
/** What a tool's prefix holds and a line of text seldom starts with: a digit (a time, a pid, a replica), a bracket, a bar… */
// (A colon too: turbo's `db:dump: `, lerna's `worker: `: adv263 RP2, RP3.)
const TOOL_MARK = /[\d[\]|│›/@<>(:]/;

/** `s` with every digit as `0`: tokens compared by shape. */
function shape(s: string): string {
  return s.replace(/\d/g, '0');
}

interface Node {
  lines: number[];
  /** The prefix's length so far (the same for every line of the node: tokens of the same shape have the same length). */
  length: number;
  depth: number;
}

/**
 * The prefixes (as the first lines' texts) the output's first lines repeat, longest first; empty when there are none. `text`'s
 * first SAMPLE_LINES lines are read.
 */
export function repeatedPrefixes(text: string): string[] {
  const lines: string[] = [];
  for (let at = 0; lines.length < SAMPLE_LINES && at < text.length; ) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const line = text.slice(at, Math.min(nl, at + MAX_PREFIX + 1)).replace(/\r$/, '');
    if (line.trim() !== '') lines.push(line);
    at = nl + 1;
  }
  if (lines.length < MIN_SAMPLE) return [];
  const found: string[] = [];
  const stack: Node[] = [{ lines: lines.map((_, i) => i), length: 0, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const children = new Map<string, { lines: number[]; length: number }>();
    for (const i of node.lines) {
      TOKEN.lastIndex = node.length;
      if (!TOKEN.test(lines[i]) || TOKEN.lastIndex > MAX_PREFIX) continue;
      const key = shape(lines[i].slice(node.length, TOKEN.lastIndex));
      const child = children.get(key) ?? { lines: [], length: TOKEN.lastIndex };
      child.lines.push(i);
      children.set(key, child);
    }
    const repeated = [...children.values()].filter((c) => c.lines.length >= 2);
    const held = repeated.reduce((n, c) => n + c.lines.length, 0);
    if (repeated.length > 0 && held >= GO_ON_SHARE * node.lines.length) {
      if (node.depth + 1 >= MAX_TOKENS) continue;
      for (const c of repeated) stack.push({ lines: c.lines, length: c.length, depth: node.depth + 1 });
      continue;
    }
    if (node.depth === 0 || node.lines.length < MIN_SHARED) continue;
    const prefix = lines[node.lines[0]].slice(0, node.length);
    // (A bar first is a table's row, `| name | value |`, not a tool's prefix.)
    if (prefix.length >= MIN_PREFIX && TOOL_MARK.test(prefix) && !/^[ \t]*[|│]/.test(prefix)) found.push(prefix);
  }
  return found.sort((a, b) => b.length - a.length);
}

/** Whether `text` at `at` starts with `prefix`'s shape (digits as one class). */
export function startsWithShape(text: string, at: number, prefix: string): boolean {
  if (at + prefix.length > text.length) return false;
  for (let k = 0; k < prefix.length; k++) {
    const p = prefix.charCodeAt(k);
    const c = text.charCodeAt(at + k);
    if (p === c) continue;
    if (p >= 48 && p <= 57 && c >= 48 && c <= 57) continue;
    return false;
  }
  return true;
}
