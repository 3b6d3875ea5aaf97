/**
 * Tier 2 of the classifier (seed: "Universal patterns, always active"): error, warning and
 * prompt shapes common to most tools. Used for every command, with or without a grammar.
 *
 * Keyword-only matching would flag "0 errors" or "no warnings found", so plain keywords only
 * count with the colour hint (red/yellow, seed 3a/3b); without colour a line must have an
 * error *shape*: a `file:line: error` location, `error:`/`Error:`/`ERROR` leading the line, …
 */
import { ColorHint } from './types.js';

/** Error shapes that need no colour. */
const ERROR_SHAPE = new RegExp(
  [
    String.raw`^\s*(?:\S+?:\d+(?::\d+)?:?\s*)?(?:fatal )?error(?:\[[\w-]+\])?\s*[:!]`, // error: …, file:3:5: error: …, error[E0308]:
    String.raw`^\s*(?:ERROR|FATAL|FAIL(?:ED)?|PANIC)\b`, // ERROR …, FAILED tests/…
    String.raw`^\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b(?::|$)`, // TypeError: …, java.lang.NullPointerException
    String.raw`\(\d+,\d+\): error`, // tsc plain: file.ts(3,5): error TS2322
    String.raw`:\d+:\d+ - error`, // tsc pretty: file.ts:3:5 - error TS2322
    String.raw`^Traceback \(most recent call last\):`,
    String.raw`^panic: `,
    String.raw`^\s*(?:npm|yarn|pnpm) (?:ERR!|error)`,
    String.raw`\b(?:command not found|No such file or directory|Permission denied|Segmentation fault|core dumped|Killed)\b`,
    String.raw`\bundefined reference to\b`,
    String.raw`^make(?:\[\d+\])?: \*\*\*`,
    String.raw`^\s*(?:✗|✕|×|✖)\s`, // failing test marks (jest ✕, vitest ×)
  ].join('|'),
);

/** Warning shapes that need no colour. */
const WARNING_SHAPE = new RegExp(
  [
    String.raw`^\s*(?:\S+?:\d+(?::\d+)?:?\s*)?warning(?:\[[\w-]+\])?\s*:`,
    String.raw`^\s*(?:WARN(?:ING)?|warn)\b[:\s]`,
    String.raw`\b\w*(?:Deprecation|Runtime|User|Future)Warning\b`,
    String.raw`:\d+:\d+ - warning`,
  ].join('|'),
);

/** With a red/yellow hint, a keyword is enough. */
const ERROR_KEYWORD = /\b(?:error|errors|failed|failure|fatal|panic|exception)\b/i;
const WARNING_KEYWORD = /\b(?:warn|warning|warnings|deprecated)\b/i;
/** "0 errors", "no warnings": counts of nothing are outcomes, not hazards. */
const NOTHING_COUNT = /\b(?:0|no|zero)\s+(?:errors?|warnings?|failures?|failed)\b/i;

/**
 * Every line that tier 2 could call a hazard contains one of these words, so only lines with a
 * hit get the two big shape RegExps. It runs only on lines no grammar rule claimed (most lines
 * of a noisy build are claimed as noise), which is cheaper than scanning every chunk.
 * Grouped by first letter rather than a flat list of words: measured 4x faster in V8.
 */
export const HAZARD_KEYWORDS = /[eE]rr|ERR|[wW]arn|WARN|[fF]a(?:il|tal)|FA(?:IL|TAL)|[eE]xception|[pP]anic|PANIC|Traceback|not found|No such|denied|fault|dumped|Killed|undefined|\*\*\*|[✗✕×✖]|[dD]eprecated|DEPRECATED/;

export type UniversalVerdict = 'error' | 'warning' | undefined;

/** Tier-2 hazard check for one line. */
export function universalHazard(text: string, color: number): UniversalVerdict {
  if (ERROR_SHAPE.test(text)) return NOTHING_COUNT.test(text) ? undefined : 'error';
  if (WARNING_SHAPE.test(text)) return NOTHING_COUNT.test(text) ? undefined : 'warning';
  if (color & ColorHint.Red && ERROR_KEYWORD.test(text) && !NOTHING_COUNT.test(text)) return 'error';
  if (color & ColorHint.Yellow && WARNING_KEYWORD.test(text) && !NOTHING_COUNT.test(text)) return 'warning';
  return undefined;
}

/** Lines that carry a stack frame or source location under a hazard (kept as its context). */
export const STACK_FRAME = /^\s+(?:at\s|File ".*", line \d+|-->\s|\d+\s*\|\s|\|\s|\^|~+\^)/;

/** Prompts (seed 3d) — a partial line waiting for input. */
export const PROMPT_SHAPE = new RegExp(
  [
    String.raw`\[[Yy]/[Nn]\]`,
    String.raw`\([Yy]/[Nn]\)`,
    String.raw`\[y(?:es)?/no?\]`,
    String.raw`\(yes/no(?:/\[fingerprint\])?\)`,
    String.raw`[Pp]assword(?: for [^:]+)?:\s*$`,
    String.raw`[Pp]assphrase[^:]*:\s*$`,
    String.raw`^>>>\s?$`,
    String.raw`^\.\.\.\s?$`,
    String.raw`^\? .+`,
    String.raw`(?:Continue|Proceed|Are you sure|Do you want to [^?]*)\?`,
    String.raw`Press (?:any key|ENTER|Enter|RETURN)`,
    String.raw`(?:[Uu]sername|[Ll]ogin|[Ee]nter [^:]{1,40}):\s*$`,
  ].join('|'),
);

/** Secret prompts: the human must answer these, never the agent. */
export const SECRET_PROMPT = /(?:[Pp]assword|[Pp]assphrase|PIN|[Tt]oken|[Ss]ecret)[^:]*:\s*$/;

/** Tier 3: decorative lines (===, ---, ***) carry nothing. */
export const DECORATIVE = /^\s*([=\-_*#~.+─━═•·])\1{3,}\s*$|^\s*$/;
