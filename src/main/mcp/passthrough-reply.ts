/**
 * What sh_run adds to passthrough output: the head/tail cut marker says how to read what it cut
 * over MCP (the router's marker names `mish raw`, which the agent's shell may not have on PATH).
 */

/** `[mish: lines A-B omitted (…)]` from the passthrough renderer. */
const CUT_MARKER = /^(\[mish: lines (\d+)-(\d+) omitted \([^)\n]*\)[^\]\n]*)(\])$/m;

/** The cut marker with the sh_interact call that reads the omitted lines (the footer names the id, not the call). */
export function withCutReadHint(text: string, id: string | undefined): string {
  if (!id) return text;
  return text.replace(CUT_MARKER, (_m, head: string, from: string, to: string, close: string) => `${head}; read them: sh_interact {id: "${id}", action: "read_raw", from_line: ${from}, to_line: ${to}}${close}`);
}
