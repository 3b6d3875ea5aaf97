/**
 * The files a Codex patch (its `apply_patch` tool, or `apply_patch <<'EOF' … EOF` in its shell
 * tool, which Codex intercepts and applies itself) adds, changes, deletes or moves to. The patch
 * names them in its own header lines: `*** Add File: p`, `*** Update File: p`, `*** Delete File: p`,
 * `*** Move to: p` (https://github.com/openai/codex, codex-rs/apply-patch; the payload recorded from
 * Codex 0.171.0 in fixtures/hooks/codex/file-edit/). Hand-written: the
 * format's headers are one line each, and no npm library parses Codex's patch format.
 *
 * Read leniently (leading blanks, any spacing after `***`, CRLF): Codex's parser trims its lines,
 * so a spelling that Codex applies must not slip past here.
 */
const HEADER = /^[ \t]*\*\*\*[ \t]*(?:(?:Add|Update|Delete)[ \t]+File|Move[ \t]+to)[ \t]*:[ \t]*(.*?)[ \t\r]*$/gim;

/** The paths a patch text names, in order, without duplicates ([] when it names none). */
export function patchFiles(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(HEADER)) if (m[1]) seen.add(m[1]);
  return [...seen];
}

/** Does this text hold a patch header (`*** Begin Patch`, or a file header) at all? */
export function looksLikePatch(text: string): boolean {
  return /^[ \t]*\*\*\*[ \t]*Begin[ \t]+Patch/im.test(text) || patchFiles(text).length > 0;
}
