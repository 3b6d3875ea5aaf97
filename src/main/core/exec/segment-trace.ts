/**
 * Segment reporting for the CLI (`mish "make && make test"` switches grammars as each part
 * starts): the shell prints `ESC ] 6474 ; seg ; <nonce> ; <shell-quoted command> BEL` to
 * /dev/tty — the terminal, not stdout, so a pipe or redirection never receives it — just before
 * a command runs, and the executor cuts it out of the byte stream (SegmentFilter). The per-run
 * random nonce means output can never forge one.
 *
 * bash: `set -T; trap '…' DEBUG` before the line. bash runs the DEBUG trap before every simple
 * command, `$BASH_COMMAND` is its text, and `set -T` makes subshells `( cd x && make )` and
 * functions report too. bash saves and restores `$?` around the trap; the only visible trace
 * is `T` in `$-`.
 *
 * zsh: its DEBUG trap runs once per *sublist*: `make && make test` is one call, one
 * `$ZSH_DEBUG_CMD`, so it cannot say when `make test` starts. So every simple command that
 * shares a sublist with another (an operand of `&&`/`||`, an element of `a | b`) is wrapped in
 * a brace group, `{ make; } && { make test; }`: a brace group runs in the current shell with
 * the status of its last command, and each group's body is a sublist of its own, so the trap
 * now fires before each part. The trap skips sublists that start with `{` or `(` (ours and the
 * user's groups and subshells): the sublists inside report themselves. What stays exact: `$?` (zsh
 * restores it after the trap), exit codes, `set -e`/ZERR (the trap runs with ERR_EXIT off),
 * pipefail, `time` (a timed pipeline is wrapped whole: zsh does not time a brace group). What
 * would not: zsh's `$pipestatus` (the trap's own command resets it) and `$_` after a group, so
 * a line that reads either runs untraced: exact, with one grammar for the whole line.
 * Insertions stay on their line, so zsh's `zsh:1: …` messages keep their line numbers.
 */
import { parse as parseBash } from 'unbash';
import type { AndOr, CommandNode, CompoundList, PipelineNode, Statement } from 'unbash';
import { MISH_OSC } from '../pty/nonce-marker-scanner.js';

/** Kind of the segment marker: `ESC ] 6474 ; seg ; <nonce> ; <shell-quoted command> BEL`. */
export const SEGMENT_MARKER = 'seg';

export type TraceShell = 'bash' | 'zsh';

/** zsh state that the trap or the brace groups would change: such lines run untraced. */
const ZSH_UNTRACEABLE = /pipestatus|\$\{?_(?![A-Za-z0-9_])/;

/**
 * The line with segment reporting switched on, or undefined when the line must run as
 * written (zsh: it reads `$pipestatus`/`$_`, or it does not parse).
 */
export function tracedScript(shell: TraceShell, line: string, nonce: string): string | undefined {
  // printf format of the marker; `quote`: the directive that shell-quotes the command.
  const osc = (quote: string) => `\\033]${MISH_OSC};${SEGMENT_MARKER};${nonce};${quote}\\007`;
  if (shell === 'bash') {
    // Single-quoted trap body. Without a terminal the shell itself reports the failed
    // redirection, so the group's 2>/dev/null is what keeps that silent.
    return `set -T; trap '{ printf "${osc('%q')}" "$BASH_COMMAND" >/dev/tty; } 2>/dev/null' DEBUG; ${line}`;
  }
  if (ZSH_UNTRACEABLE.test(line)) return undefined;
  const grouped = groupSublistParts(line);
  if (grouped === undefined) return undefined;
  // `builtin`: a printf function from ~/.zshenv must not run in the trap. The group's
  // 2>/dev/null silences what zsh would print on the shell's stderr: a failed redirection (no
  // terminal) and, under `set -x`, the trace of the trap's own commands. (q) quotes like
  // bash's %q ($'\n' for control characters).
  return `setopt debug_before_cmd; trap '{ [[ $ZSH_DEBUG_CMD == [\\{\\(]* ]] || builtin printf "${osc('%s')}" "\${(q)ZSH_DEBUG_CMD}" >/dev/tty; } 2>/dev/null' DEBUG; ${grouped}`;
}

/**
 * `a && b | c` → `{ a; } && { b; } | { c; }`: every simple command that shares a sublist with
 * another gets one of its own. Compound commands (subshells, groups, if/for/while/case,
 * function bodies) are left as they are and searched inside; `$(…)` is not touched.
 * Undefined when the line does not parse.
 */
export function groupSublistParts(line: string): string | undefined {
  let script;
  try {
    script = parseBash(line);
  } catch {
    return undefined;
  }
  if (script.errors?.length) return undefined;
  const spans: Array<[number, number]> = [];
  const statements = (list: readonly Statement[]) => {
    for (const st of list) andOr(st.command);
  };
  const body = (l: CompoundList) => statements(l.commands);
  const andOr = (node: PipelineNode | AndOr) => {
    if (node.type !== 'AndOr') return pipeline(node, false);
    for (const operand of node.commands) pipeline(operand, true);
  };
  const pipeline = (node: PipelineNode, shared: boolean) => {
    if (node.type !== 'Pipeline') {
      if (node.type === 'Command' && shared) spans.push([node.pos, node.end]);
      else compound(node);
      return;
    }
    if (node.prefixes.some((p) => p.type === 'Time')) {
      // zsh times nothing run in the current shell: `time { make; }` prints no times.
      if (shared) spans.push([node.pos, node.end]);
      else for (const c of node.commands) compound(c);
      return;
    }
    const several = shared || node.commands.length > 1;
    for (const c of node.commands) {
      if (c.type === 'Command' && several) spans.push([c.pos, c.end]);
      else compound(c);
    }
  };
  const compound = (node: CommandNode | PipelineNode): void => {
    switch (node.type) {
      case 'Pipeline':
        return pipeline(node, false);
      case 'Subshell':
      case 'BraceGroup':
        return body(node.body);
      case 'If':
        body(node.clause);
        body(node.then);
        for (const e of node.elif) {
          body(e.clause);
          body(e.then);
        }
        if (node.else) body(node.else);
        return;
      case 'For':
      case 'Select':
      case 'ArithmeticFor':
        return body(node.body);
      case 'While':
        body(node.clause);
        return body(node.body);
      case 'Case':
        for (const item of node.items) body(item.body);
        return;
      case 'Redirected':
        return compound(node.command);
      case 'Function':
        return node.body.type === 'CompoundList' ? body(node.body) : compound(node.body);
      default:
        // Simple commands alone in their sublist, [[ … ]], (( … )), coproc: nothing to split.
        return;
    }
  };
  statements(script.commands);
  let out = '';
  let at = 0;
  for (const [pos, end] of spans.sort((a, b) => a[0] - b[0])) {
    if (pos < at) continue; // nested in one already grouped (cannot happen for simple commands)
    out += `${line.slice(at, pos)}{ ${line.slice(pos, end)}; }`;
    at = end;
  }
  return out + line.slice(at);
}
