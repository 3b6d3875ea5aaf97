/**
 * The bundle entry of `mish hook` (dist/hook.cjs; bin/mish-hook.cjs and bin/mish.js run it for
 * `mish hook …`): the hook runs before every shell call of an agent, so it starts without the
 * router, squasher and PTY code of dist/mish.mjs, and what an allowed command does not need is
 * loaded only when used: the compiled policy comes from its cache (policy-cache.ts), so zod
 * (dist/hook-zod.cjs), the pre-parsed TOML tables and node:crypto load only when the policy
 * must be compiled again; the operator wire and the audit log only for escalations.
 * Exits as soon as the answer is written.
 */
import { fileURLToPath } from 'node:url';
import { usePrecompiledToml, type PrecompiledTomlLookup } from '../core/toml/parse-toml.js';
import { readPrecompiledToml } from '../core/toml/precompiled-toml.js';
import { runHook, usePolicyCache, wroteThroughStreams } from './hook-command.js';

// The pre-parsed TOML tables are read on the first policy compile only (a cache miss).
let tables: PrecompiledTomlLookup | undefined | null = null;
usePrecompiledToml((source) => {
  if (tables === null) tables = readPrecompiledToml(fileURLToPath(new URL('./precompiled-toml.json', import.meta.url)));
  return tables?.(source);
});
// bin/run-cached.cjs names the bundle it runs (path, size, mtime): the compiled policy is cached for exactly that code.
usePolicyCache((globalThis as { __mishHookCodeId?: string }).__mishHookCodeId);

const argv = process.argv.slice(2);
runHook(argv[0] === 'hook' ? argv.slice(1) : argv).then(
  (code) => {
    // Every handle (an operator socket, stdin's read) is done with: exit now, or once the streams an answer fell back to are flushed.
    if (wroteThroughStreams) process.stdout.write('', () => process.exit(code));
    else process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`mish hook: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    // Exit 2 blocks the call in every supported host (fail closed), with stderr as the reason.
    process.exit(2);
  },
);
