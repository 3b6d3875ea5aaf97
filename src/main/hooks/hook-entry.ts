/**
 * The bundle entry of `mish hook` (dist/hook.cjs; bin/mish-hook.cjs and bin/mish.js run it for
 * `mish hook …`): the hook runs before every shell call of an agent, so it starts without the
 * router, squasher and PTY code of dist/mish.mjs, and what an allowed command does not need is
 * loaded only when used: the compiled policy comes from its cache (policy-cache.ts), so zod
 * (dist/zod.cjs), the pre-parsed TOML tables and node:crypto load only when the policy
 * must be compiled again; the operator wire and the audit log only for escalations.
 * Exits as soon as the answer is written.
 */
import { fileURLToPath } from 'node:url';
import { usePrecompiledToml, type PrecompiledTomlLookup } from '../core/toml/parse-toml.js';
import { readPrecompiledToml } from '../core/toml/precompiled-toml.js';
import { fallback, runHook, usePolicyCache, wroteThroughStreams } from './hook-command.js';
import { hostOf } from './hosts/index.js';
import { FROM_FRONT, startDaemonIfAbsent } from './hook-daemon-start.js';

// The pre-parsed TOML tables are read on the first policy compile only (a cache miss).
let tables: PrecompiledTomlLookup | undefined | null = null;
usePrecompiledToml((source) => {
  if (tables === null) tables = readPrecompiledToml(fileURLToPath(new URL('./precompiled-toml.json', import.meta.url)));
  return tables?.(source);
});
// bin/run-cached.cjs names the bundle it runs (path, size, mtime): the compiled policy is cached for exactly that code.
usePolicyCache((globalThis as { __mishHookCodeId?: string }).__mishHookCodeId);

// bin/mish-hook.sh ran this hook itself (its fast path had no answer): a hook daemon is started if none runs.
const fromFront = process.argv.includes(FROM_FRONT);
const argv = process.argv.slice(2).filter((a) => a !== FROM_FRONT);
runHook(argv[0] === 'hook' ? argv.slice(1) : argv).then(
  (code) => {
    if (fromFront) startDaemonIfAbsent();
    // Every handle (an operator socket, stdin's read) is done with: exit now, or once the streams an answer fell back to are flushed.
    if (wroteThroughStreams) process.stdout.write('', () => process.exit(code));
    else process.exit(code);
  },
  (err: unknown) => {
    const why = `mish hook: internal error: ${(err as Error)?.message ?? String(err)}`;
    // The host's own fail-closed answer where the agent is known (Copilot CLI runs the tool after a failed hook); else exit 2, which blocks in the others.
    const host = hostOf(argv[0] === 'hook' ? argv[1] : argv[0]);
    const r = host?.render(fallback(host, why));
    if (r?.stdout) process.stdout.write(r.stdout);
    process.stderr.write(`${why}\n`);
    process.stdout.write('', () => process.exit(r ? r.exitCode : 2));
  },
);
