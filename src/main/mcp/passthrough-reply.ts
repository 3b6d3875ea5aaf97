/**
 * What sh_run shows for passthrough output beyond the router's text: binary output (cat of an
 * executable or an archive) is named instead of pasted — thousands of tokens of replacement
 * characters tell an agent nothing — and the head/tail cut marker says how to read what it cut.
 */
import { humanSize } from '../core/handlers/narrate.js';

/** How much of the output the binary check reads: enough to judge, cheap on a huge dump. */
const BINARY_SAMPLE_CHARS = 8_192;
/** Share of non-text characters above which output is binary (text in a legacy encoding stays well below). */
const BINARY_SHARE = 0.1;
/** Fewer non-text characters than this are stray bytes in text, never "binary". */
const BINARY_MIN_CHARS = 8;

/** Whether decoded output is mostly not text: control characters other than layout ones, and undecodable bytes (U+FFFD). */
export function looksBinary(text: string): boolean {
  const n = Math.min(text.length, BINARY_SAMPLE_CHARS);
  let odd = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // \t \n \v \f \r \b are layout; everything else below space, DEL and U+FFFD are not text.
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0b && c !== 0x0c && c !== 0x0d && c !== 0x08) || c === 0x7f || c === 0xfffd) odd++;
  }
  return odd >= BINARY_MIN_CHARS && odd / n > BINARY_SHARE;
}

/** The line shown in place of binary output (`bytes`: as the terminal delivered them), with ways to look at it that give text. */
export function binaryNote(bytes: number, exitCode: number): string {
  const failed = exitCode !== 0 ? `; it exited ${exitCode}: an error message is among the raw lines (sh_interact read_raw with grep)` : '';
  return `[mish: binary output not shown (${humanSize(bytes)}, not text)${failed}; to look inside use \`file <path>\`, \`xxd <path> | head -20\` or \`strings <path> | head -50\`]`;
}

/** `[mish: lines A-B omitted (…)]` from the passthrough renderer. */
const CUT_MARKER = /^(\[mish: lines (\d+)-(\d+) omitted \([^)\n]*\)[^\]\n]*)(\])$/m;

/** The cut marker with the sh_interact call that reads the omitted lines (the footer names the id, not the call). */
export function withCutReadHint(text: string, id: string | undefined): string {
  if (!id) return text;
  return text.replace(CUT_MARKER, (_m, head: string, from: string, to: string, close: string) => `${head}; read them: sh_interact {id: "${id}", action: "read_raw", from_line: ${from}, to_line: ${to}}${close}`);
}
