/**
 * Loads the escalation part of the hook (operator wire, audit log) on first need. In the
 * dist/hook.cjs bundle this module is replaced (scripts/build-cli.mjs) by one that imports
 * dist/hook-escalation.mjs through the launcher (bin/run-cached.cjs): code run from V8's cache
 * by vm.Script cannot import() by itself on Node 20.
 */
export const loadEscalation = (): Promise<typeof import('./hook-escalation.js')> => import('./hook-escalation.js');
