/**
 * Grammar data model. A grammar is TOML data (grammars/<tool>.toml, see grammars/README.md);
 * the loader validates it and compiles every pattern once into a RegExp.
 */

/** How the router treats a command (seeds 000/001 "Category Router"). */
export type Category = 'condense' | 'narrate' | 'passthrough' | 'structured' | 'interactive' | 'dangerous';

export type Severity = 'error' | 'warning';

/** A rule as it stands in TOML, before compilation. */
export interface RuleSource {
  /** Stable name, used in error messages and in `--explain` output. Defaults to `<kind>#<index>`. */
  id?: string;
  /** JavaScript regular expression; named groups `(?<name>…)` become captures. */
  pattern: string;
  /** Restrict the rule to these actions (subcommands); absent = every action. */
  actions?: string[];
  /** Restrict the rule to these dialects; absent = every dialect. */
  dialects?: string[];
  /** RegExp flags, a subset of `imsuv` (never g/y). */
  flags?: string;
}

export interface HazardRuleSource extends RuleSource {
  severity: Severity;
  /** Keep this many following lines with the hazard, whatever they are (e.g. rustc's ` --> src/main.rs:3:5`). */
  context_after?: number;
  /** After the context_after lines, keep following lines while they match this pattern (indented traceback frames …). */
  continue_pattern?: string;
  /**
   * The block ends at (and includes) the first following line matching this pattern, checked
   * before continue_pattern (the exception line that closes a Python traceback).
   */
  end_pattern?: string;
  /**
   * Lines of the kept context that are a code frame (source excerpt, gutter, carets): shown for
   * the first hazard in a file only; later hazards in the same file keep their location and
   * message, their frame lines are left out (the raw output keeps them).
   */
  frame_pattern?: string;
  /**
   * The line a code frame points at (pytest's `>` line): the frame lines right above it are the
   * source before the failing line, left out for every hazard (the location names the line); the
   * line itself and what follows it stay. Needs frame_pattern.
   */
  frame_focus?: string;
  /**
   * Decoration a tool draws before the hazard on the hazard's own terminal row (a download
   * progress bar the error is printed after without a newline: prisma's `> Downloading Prisma
   * engines … [   ] 0%Error: …`), matched at the line's start. A line whose lead this matches
   * and whose rest matches `pattern` is the hazard, kept without the lead; the raw output keeps
   * the whole row. Nothing else of a line is ever left out.
   */
  lead_noise?: string;
}

export interface OutcomeRuleSource extends RuleSource {
  /** Rewrite for the summary, `{name}` replaced by captures; absent = the line itself. */
  format?: string;
}

export interface NoiseRuleSource extends RuleSource {
  /** strip: drop (counted); dedup: keep one representative per template with a count. */
  action: 'strip' | 'dedup';
  /**
   * A paragraph of boilerplate (strip only): the lines after the matching one are stripped too
   * while they match this pattern (a fixed advice text the tool wraps over several lines).
   */
  continue_pattern?: string;
  /** The paragraph ends at (and includes) the first following line matching this, checked before continue_pattern. */
  end_pattern?: string;
}

export interface PromptRuleSource extends RuleSource {}

/** A compiled rule. `re` never has the g or y flag (so `.exec` is stateless). */
export interface CompiledRule {
  id: string;
  re: RegExp;
  actions?: ReadonlySet<string>;
  dialects?: ReadonlySet<string>;
  /** Path of the file that defines the rule (a `_shared/*.toml` for included rules), for `--explain`. */
  source: string;
}

export interface CompiledHazardRule extends CompiledRule {
  severity: Severity;
  contextAfter: number;
  continueRe?: RegExp;
  /** See HazardRuleSource.end_pattern: checked before continueRe; a match is kept and ends the block. */
  endRe?: RegExp;
  /** See HazardRuleSource.frame_pattern. */
  frameRe?: RegExp;
  /** See HazardRuleSource.frame_focus. */
  focusRe?: RegExp;
  /** See HazardRuleSource.lead_noise: `^(?:lead_noise)` with the rule's flags. */
  leadRe?: RegExp;
}

export interface CompiledOutcomeRule extends CompiledRule {
  format?: string;
}

export interface CompiledNoiseRule extends CompiledRule {
  action: 'strip' | 'dedup';
  /** See NoiseRuleSource.continue_pattern / end_pattern (strip rules only). */
  continueRe?: RegExp;
  endRe?: RegExp;
}

export interface GrammarAction {
  /** Subcommand words that select this action (`install`, `i`, `ci`, `add`). */
  aliases: string[];
  /** Flags the preflight may add (issue 3) — they must never change what the command does. */
  quietFlags?: string[];
  /** Category override for this action (e.g. `git diff` → passthrough, `git status` → structured). */
  category?: Category;
}

/** Seed 004's simple template form (`[template]`): include_regex lines become outcome rules. */
export interface GrammarTemplate {
  description?: string;
  /** Keep the last N lines of the output in full. */
  tailLines?: number;
  /** Keep the last N paragraphs (blank-line separated groups) in full. */
  tailParagraphs?: number;
}

export interface Grammar {
  name: string;
  description?: string;
  /** File the grammar was loaded from. */
  file: string;
  /** Where it came from; later layers override earlier ones by name. */
  origin: 'builtin' | 'user' | 'project';
  category?: Category;
  /** Executable basenames that select this grammar (`npm`, `gcc`, `clang`, `python -m pytest` → `pytest`). */
  commands: string[];
  /** dialect name → executable basenames (`gcc` → [gcc, g++, cc], `clang` → [clang, clang++]). */
  dialects: Record<string, string[]>;
  actions: Record<string, GrammarAction>;
  /** Rules, already merged with the rules of included `_shared/*` grammars (own rules first). */
  hazard: CompiledHazardRule[];
  outcome: CompiledOutcomeRule[];
  noise: CompiledNoiseRule[];
  prompt: CompiledRule[];
  /** Names of included shared grammars, for `--explain`. */
  includes: string[];
  /** Flags of this tool that take a separate value (`git -C dir`), skipped when picking the action. */
  valueFlags: string[];
  /**
   * Environment set when every command of a line is this tool (`[grammar] presentation_env`):
   * presentation only (PRESENTATION_ENV_VARS), e.g. tsc's NO_COLOR, which also turns off its
   * pretty format with code frames under a terminal.
   */
  presentationEnv?: Record<string, string>;
  /** Present when the grammar was written in seed 004's template form. */
  template?: GrammarTemplate;
}

/** Result of detecting which grammar applies to an argv. */
export interface Detection {
  grammar: Grammar;
  /** Action name (key of grammar.actions), if a subcommand matched. */
  action?: string;
  dialect?: string;
  /** The argv after stripping wrappers (`npx`, `npm exec`, `pnpm dlx`, `yarn`, `python -m`). */
  argv: string[];
  /** Wrappers seen through, outermost first (`['npx']`, `['env', 'python -m']`); empty if none. */
  via: string[];
}

/** A grammar problem: reported with file, line and rule; mish keeps working with the other grammars. */
export interface GrammarError {
  /** Path of the grammar file (absolute). */
  file: string;
  line?: number;
  rule?: string;
  message: string;
}
