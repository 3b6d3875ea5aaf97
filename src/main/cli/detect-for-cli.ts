/**
 * Grammar detection for `mish <argv…>`: built-in, user and project grammars for the current
 * directory; a malformed grammar is reported once on stderr and the others keep working.
 */
import { GrammarRegistry, detectTool, formatGrammarError, type Detection } from '../core/grammar/index.js';
import { needsShell } from './proxy.js';

export function detectForCli(args: string[], cwd: string = process.cwd()): Detection | undefined {
  if (needsShell(args)) return undefined; // compound command lines: grammars switch per segment in the router
  const registry = new GrammarRegistry({ cwd, onError: (e) => process.stderr.write(`mish: warning: ${formatGrammarError(e, cwd)} (grammar skipped)\n`) });
  return detectTool(args, registry.snapshot(cwd));
}
