/** The CLI's echo filters see each keyboard write the host forwards to the command, before it goes on. */
import type { ExecControl } from '../core/exec/types.js';

/** `onStart` given a control whose writes are reported to `onWrite` first; undefined stays undefined. */
export function tapWrites(onStart: ((control: ExecControl) => void) | undefined, onWrite: (bytes: Uint8Array) => void): ((control: ExecControl) => void) | undefined {
  if (!onStart) return undefined;
  return (control) =>
    onStart({
      pid: control.pid,
      ptsName: control.ptsName,
      resize: (cols, rows) => control.resize(cols, rows),
      kill: (signal) => control.kill(signal),
      write: (data) => {
        onWrite(typeof data === 'string' ? Buffer.from(data) : data);
        control.write(data);
      },
    });
}
