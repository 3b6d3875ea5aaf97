/**
 * Asks the human about a dangerous command on the controlling terminal (/dev/tty), so it
 * works even when stdin/stdout are redirected — and is impossible without a terminal (CI, an
 * agent's pipe), where `confirmOnTty` is undefined and the router refuses the command.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { dangerWarning, type ConfirmFn, type DangerDecision } from '../core/handlers/dangerous.js';

/** Longest answer read from the terminal (an edited command line). */
const MAX_ANSWER_BYTES = 64 * 1024;

const QUESTION = 'run it? [y]es / [n]o / [e]dit / [a]lways this session: ';

function openTty(): number | undefined {
  try {
    return openSync('/dev/tty', 'r+');
  } catch {
    return undefined; // no controlling terminal
  }
}

function readLine(fd: number): string | undefined {
  const buf = Buffer.alloc(MAX_ANSWER_BYTES);
  let len = 0;
  while (len < buf.length) {
    const n = readSync(fd, buf, len, buf.length - len, null);
    if (n === 0) return len ? buf.toString('utf8', 0, len) : undefined;
    len += n;
    if (buf[len - 1] === 0x0a) return buf.toString('utf8', 0, len - 1);
  }
  return buf.toString('utf8', 0, len);
}

const probe = openTty();
if (probe !== undefined) closeSync(probe);

/** ConfirmFn on /dev/tty, or undefined when this process has no terminal to ask on. */
export const confirmOnTty: ConfirmFn | undefined =
  probe === undefined
    ? undefined
    : async ({ command, dangers }): Promise<DangerDecision> => {
        const fd = openTty();
        if (fd === undefined) return { kind: 'no' };
        try {
          writeSync(fd, `${dangerWarning(command, dangers)}\n${QUESTION}`);
          for (;;) {
            const answer = readLine(fd);
            if (answer === undefined) return { kind: 'no' };
            switch (answer.trim().toLowerCase()) {
              case 'y':
              case 'yes':
                return { kind: 'yes' };
              case 'n':
              case 'no':
              case '':
                return { kind: 'no' };
              case 'a':
              case 'always':
                return { kind: 'always' };
              case 'e':
              case 'edit': {
                writeSync(fd, `current: ${command}\nnew command (empty keeps it): `);
                const edited = readLine(fd);
                if (edited === undefined) return { kind: 'no' };
                if (edited.trim() && edited.trim() !== command.trim()) return { kind: 'edit', command: edited };
                // Unchanged: the warning above still holds, so only the question is asked again.
                writeSync(fd, QUESTION);
                break;
              }
              default:
                writeSync(fd, 'please answer y, n, e or a: ');
            }
          }
        } finally {
          closeSync(fd);
        }
      };
