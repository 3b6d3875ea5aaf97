/**
 * A nested `mish …` in a line: the command it runs is judged under the policy the agent already
 * runs under; another policy (--policy, $MISH_POLICY) and the operator's subcommands are facts.
 */
import { slice, type Base, type Ctx, type ResolvedCommand, type Walker, type Words } from './resolved.js';

/** mish subcommands that are the operator's, not an agent's (deciding approvals, typing into handoffs). */
const MISH_OPERATOR_SUBCOMMANDS = new Set(['approvals', 'attach', 'console']);
/** mish subcommands that run no command line of their own. */
const MISH_OTHER_SUBCOMMANDS = new Set(['serve', 'ps', 'raw', 'policy', 'audit', 'help', 'init', 'hook', 'doctor']);

/**
 * A nested mish run by the agent: the command it runs is judged here, under the policy the
 * agent already runs under (so the nested mish can only add its own, stricter checks); giving
 * it another policy (--policy, --policy-default, $MISH_POLICY*) is forbidden, as are the
 * operator's subcommands (deciding approvals, typing into a handoff, the console).
 */
export function mishCommand(r: Walker, w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
  const a = w.argv;
  const self = r.make(w, base, ctx);
  let j = 1;
  let ended = false;
  for (; j < a.length; j++) {
    const x = a[j];
    if (x === '--') {
      ended = true;
      j++;
      break;
    }
    if (!x.startsWith('-')) break;
    if (x === '--policy' || x === '--policy-default' || x.startsWith('--policy=') || x.startsWith('--policy-default=')) {
      self.facts.add('mish-policy-override');
      if (!x.includes('=')) j++;
    }
  }
  if (j >= a.length) return [self];
  const sub = a[j];
  if (!ended && MISH_OPERATOR_SUBCOMMANDS.has(sub)) {
    self.facts.add('mish-operator-command');
    return [self];
  }
  if (!ended && MISH_OTHER_SUBCOMMANDS.has(sub)) {
    // A nested server runs what its stdin asks under a policy loaded afresh: not this one.
    if (sub === 'serve') self.facts.add('shell-stdin-unknown');
    return [self];
  }
  const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'mish'], outerText: base.text, pipeIn: undefined };
  // `mish "a && b"` runs the line in a shell; `mish rm -rf x` runs the argv.
  if (a.length - j === 1) return [self, ...r.parseAndWalk(a[j], deeper)];
  return [self, ...r.expand(slice(w, j), base, deeper)];
}

