/**
 * Where a pending command's risky parts are, for the approval dialog's highlight. The policy names
 * each danger by its text (`sh`, `rm -rf ~`), not its place: the text is marked where it stands as
 * a whole word of the command line (`curl … | sh` marks the interpreter, not the `sh` of `none.sh`
 * in the URL before it), and everywhere only when it stands as a word nowhere. Pure.
 */

/** Characters a shell word ends at (blanks, operators, grouping). */
const WORD_EDGE = /[\s|;&()<>`]/;

/** Each danger's text's spans in `command`, in order, overlapping ones merged by the caller. */
export function riskSpans(command: string, dangers: readonly { text: string }[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const d of dangers) {
    const t = d.text.trim();
    if (!t) continue;
    const all: [number, number][] = [];
    for (let i = command.indexOf(t); i >= 0; i = command.indexOf(t, i + t.length)) all.push([i, i + t.length]);
    const words = all.filter(([from, to]) => (from === 0 || WORD_EDGE.test(command[from - 1])) && (to === command.length || WORD_EDGE.test(command[to])));
    spans.push(...(words.length > 0 ? words : all));
  }
  return spans.sort((a, b) => a[0] - b[0]);
}
