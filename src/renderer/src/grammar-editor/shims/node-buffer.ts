/**
 * `node:buffer` for the grammar editor's worker bundle (aliased in electron.vite.config.ts). The
 * squasher's decoder imports isAscii for its byte path; the worker feeds the squasher text, so
 * this is only a correct fallback, never the hot path.
 */
export function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return false;
  return true;
}
