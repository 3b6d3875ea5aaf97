/**
 * Reading a file the agent may have replaced: a configuration or cache file that must be a
 * regular file of sane size. A FIFO there would block a plain read forever (an `open` for
 * reading waits for a writer; a read waits for data), a link to `/dev/zero` or `/dev/urandom`
 * would never end, and a huge file would stall the process — and a hook that never answers is
 * timed out by its host, which then runs the command unsupervised. So the file is opened
 * without blocking, checked on the opened descriptor (no swap between a check and the read),
 * and read only when it is a regular file under the cap.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** One read's buffer when the file's size says little (it was empty, or is growing). */
const READ_CHUNK_BYTES = 64 * 1024;

export type RegularRead = { ok: true; text: string } | { ok: false; code: string; message: string };

/** Reads `file` as UTF-8 when it is a regular file of at most `maxBytes`; never blocks on a FIFO or device. */
export function readRegularFile(file: string, maxBytes: number): RegularRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    return { ok: false, code, message: code };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, code: 'ENOTREG', message: 'not a regular file (a FIFO, device, socket or folder cannot be read as one)' };
    if (st.size > maxBytes) return { ok: false, code: 'EFBIG', message: `larger than ${maxBytes} bytes (${st.size})` };
    // Read to EOF, never past the cap (the file may have changed since fstat).
    const chunks: Buffer[] = [];
    let total = 0;
    const buf = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(st.size + 1, READ_CHUNK_BYTES)));
    for (;;) {
      const got = readSync(fd, buf, 0, Math.min(buf.length, maxBytes + 1 - total), null);
      if (got <= 0) break;
      chunks.push(Buffer.from(buf.subarray(0, got)));
      total += got;
      if (total > maxBytes) return { ok: false, code: 'EFBIG', message: `grew past ${maxBytes} bytes while read` };
    }
    return { ok: true, text: Buffer.concat(chunks, total).toString('utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    return { ok: false, code, message: code };
  } finally {
    closeSync(fd);
  }
}
