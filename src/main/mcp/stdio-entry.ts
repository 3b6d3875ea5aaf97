/**
 * Stand-alone entry of the MCP server (`tsx src/main/mcp/stdio-entry.ts [serve flags]`), the
 * same as `mish serve`; used by tests and the bench when the bundled CLI is not built.
 */
import { runServe } from './serve-command.js';

const code = await runServe(process.argv.slice(2));
// Stdin listeners and PTY handles would keep the event loop alive: the server is done.
process.exit(code);
