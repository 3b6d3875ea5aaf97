/**
 * `node:buffer` for the grammar editor's worker bundle (aliased in electron.vite.config.ts). The
 * squasher's decoder imports isAscii and isUtf8 for its byte path; the worker feeds the squasher
 * text, so these are only correct fallbacks, never the hot path.
 */
export function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return false;
  return true;
}

/** Never true here: the decoder then decodes the chunk rather than handing out its bytes (always correct). */
export function isUtf8(): boolean {
  return false;
}
