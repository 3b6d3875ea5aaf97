/**
 * Vitest global setup: runs once, before any test file, in the main process. Rebuilds the CLI
 * bundle (dist/mish.mjs) when a source is newer, so the tests that run it (cli, router-cli,
 * readme-examples, the MCP tests through `mish serve`) test the code as it is now.
 */
import { ensureCliBundle } from './fresh-build.js';

export default function setup(): void {
  if (ensureCliBundle()) process.stdout.write('global setup: dist/mish.mjs was older than its sources; rebuilt\n');
}
