/** Grammar module: TOML grammars (grammars/README.md), the layered registry, and tool detection. */
export type * from './types.js';
export {
  CATEGORIES,
  compileGrammarSource,
  defaultGrammarName,
  formatGrammarError,
  linkGrammar,
  loadGrammarFile,
  type GrammarDraft,
  type IncludeResolver,
  type LoadFileOptions,
  type LoadResult,
} from './loader.js';
export {
  GrammarRegistry,
  REVALIDATE_MS,
  defaultUserGrammarDir,
  findBuiltinGrammarDir,
  findProjectGrammarDir,
  type GrammarRegistryOptions,
  type GrammarSet,
} from './registry.js';
export {
  KNOWN_VALUE_FLAGS,
  buildCommandIndex,
  detectTool,
  detectionCategory,
  executableName,
  type CommandEntry,
  type GrammarLookup,
} from './detect.js';
export { rulesFor, selectRules, type RuleSet } from './select-rules.js';
