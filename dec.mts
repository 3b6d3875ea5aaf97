import { decide, builtinPolicy } from '/work/main/src/main/core/policy/index.ts';
const p = builtinPolicy();
for (const line of ['true', 'npm test', 'git status && ls -la src']) {
  for (let i = 0; i < 200; i++) decide(line, p, { cwd: '/tmp' });
  const t0 = performance.now(); const N = 2000;
  for (let i = 0; i < N; i++) decide(line, p, { cwd: '/tmp' });
  console.log(line, ((performance.now() - t0) / N * 1000).toFixed(1), 'µs');
}
