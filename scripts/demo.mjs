// `npm start`: shows mish condensing real, noisy commands in a scratch project.
// It installs a real dependency tree from the npm registry, type-checks a file with a real
// error, runs a long noisy script, copies a file (narrated) and prints one (passed through
// exactly) — each through `mish`, printing what an agent sees.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const mish = path.join(root, 'bin', 'mish.js');
if (!existsSync(path.join(root, 'dist', 'mish.mjs'))) spawnSync(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });

const work = mkdtempSync(path.join(tmpdir(), 'mish-demo-'));
writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'mish-demo', version: '1.0.0', private: true }, null, 2));
writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['*.ts'] }));
writeFileSync(path.join(work, 'main.ts'), 'const port: number = "3000";\nexport function greet(name: string) {\n  return `hello ${nam}`;\n}\n');
// A long-running job with one warning buried in 3,000 lines (a script is condensed; a bare
// `echo` loop typed on the command line would be passed through, as content the agent asked for).
writeFileSync(path.join(work, 'process.sh'), 'for i in $(seq 1 3000); do echo "processed item $i"; done\necho "warning: 3 items skipped"\necho done\n');

const steps = [
  ['npm', 'install', '--no-audit', '--no-fund', 'typescript@5', 'eslint@8', 'jest@29'],
  ['npx', 'tsc', '-p', '.'],
  ['bash', 'process.sh'],
  ['cp', 'main.ts', 'main.backup.ts'],
  ['cat', 'main.ts'],
];
let failures = 0;
for (const argv of steps) {
  const shown = argv.length === 1 ? JSON.stringify(argv[0]) : argv.join(' ');
  process.stdout.write(`\n\x1b[1m$ mish ${shown}\x1b[0m\n`);
  const r = spawnSync(process.execPath, [mish, ...argv], { cwd: work, stdio: ['ignore', 'inherit', 'inherit'] });
  process.stdout.write(`\x1b[2m(mish exited with ${r.status}, the command's own exit code)\x1b[0m\n`);
  if (r.status === null) failures++;
}
rmSync(work, { recursive: true, force: true });
process.stdout.write('\nEvery run above is spooled: `node bin/mish.js raw --list`, then `node bin/mish.js raw <id>` prints the exact bytes.\n');
process.exit(failures ? 1 : 0);
