/**
 * `node:os` for the grammar editor's worker bundle (aliased in electron.vite.config.ts): the
 * summary's header names a signal from `constants.signals`. Linux numbers (the recordings are
 * Linux's); a recorded output the editor previews carries an exit code, never a live signal.
 */
export const constants = {
  signals: { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15 } as Record<string, number>,
};
export default { constants };
