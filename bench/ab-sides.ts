/**
 * The command line of the in-process A/B benches (squash-ab.ts, redact-ab.ts): `[--passes N] DIR
 * DIR [DIR…]`, each DIR a checkout whose code is loaded side by side in one process. Exits 2 with
 * a one-line error on a bad command line or a checkout that cannot be loaded.
 */
import path from 'node:path';

export async function abSides<S>(tool: string, usage: string, defaultPasses: number, loadSide: (dir: string) => Promise<S>): Promise<{ passes: number; sides: S[] }> {
  const args = process.argv.slice(2);
  const p = args.indexOf('--passes');
  const passes = p >= 0 ? Number(args.splice(p, 2)[1]) : defaultPasses;
  if (args.length < 2 || !(passes > 0)) {
    console.error(`usage: npx tsx bench/${tool}.ts [--passes N] DIR DIR [DIR…]   (${usage})`);
    process.exit(2);
  }
  const sides: S[] = [];
  for (const d of args) {
    try {
      sides.push(await loadSide(path.resolve(d)));
    } catch (e) {
      console.error(`${tool}: ${d}: ${(e as Error).message.split('\n')[0]}`);
      process.exit(2);
    }
  }
  return { passes, sides };
}
