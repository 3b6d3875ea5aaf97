/**
 * The bundle entry of `mish hook` (dist/hook.mjs; bin/mish.js loads it for `mish hook …`): the
 * hook runs before every shell call of an agent, so it starts without the router, squasher and
 * PTY code of dist/mish.mjs. Exits as soon as the answer is written.
 */
import { fileURLToPath } from 'node:url';
import { config as zodConfig } from 'zod';
import { usePrecompiledToml } from '../core/toml/parse-toml.js';
import { readPrecompiledToml } from '../core/toml/precompiled-toml.js';
import { runHook } from './hook-command.js';

// One process validates the policy once: zod's JIT (a parser compiled per schema with new Function) costs more than it saves here.
zodConfig({ jitless: true });
usePrecompiledToml(readPrecompiledToml(fileURLToPath(new URL('./precompiled-toml.json', import.meta.url))));

const argv = process.argv.slice(2);
runHook(argv[0] === 'hook' ? argv.slice(1) : argv).then(
  (code) => {
    // Every handle (an operator socket, stdin) is done with: exit once stdout is flushed.
    process.stdout.write('', () => process.exit(code));
  },
  (err: unknown) => {
    process.stderr.write(`mish hook: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    // Exit 2 blocks the call in every supported host (fail closed), with stderr as the reason.
    process.exit(2);
  },
);
