/**
 * sh_help: a short reference card of the mish tools, for an agent that is unsure which tool or
 * argument to use. Static text; costs ~600 tokens.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { reply } from '../tool-kit.js';

export const HELP_CARD = `mish — a shell for agents: real PTYs, condensed output that keeps every error, persistent sessions.

sh_run {cmd, cwd?, session?, timeout?}
  Run a command line to completion in a persistent shell session ("default" unless named);
  cwd and env persist between calls (cwd: works like cd — later calls stay there; export VAR
  to keep a variable). Output is condensed: errors, warnings, failing tests,
  counts and the exit code always survive; file operations are narrated; content you act on
  (cat, git diff, sed -n) passes unchanged. Every reply ends with one status line: [exit 0]
  when the output is shown whole; [exit 1 · 3,013 lines · read_raw c7] when lines were
  folded or cut (sh_interact {id: "c7", action: "read_raw"} gives them exactly; fold markers
  name raw line numbers); the time from 1 s on; cwd … when the command moved. Then a [procs]
  digest of background processes. Every fact is in structuredContent too (cwd, raw_lines,
  spool_ref: the same raw output from a terminal with mish raw <id>).
  If the command is still running at \`timeout\` seconds (default 50) it keeps running in the
  background and the reply gives its id; if it asks for input ("[Y/n]") the reply says
  "waiting for input" with the prompt — answer with sh_interact send. A password prompt is
  handed to a human ("waiting for an operator: handoff h_…"): ask the user to run
  \`mish attach h_…\`; you never see what they type, and get a summary afterwards.
  Dangerous commands (rm -rf ~, git push --force, curl … | sh) wait for a human operator's
  decision (\`mish approvals\` or the console) and are refused when none is attached — you
  cannot approve them yourself. Refused, with what to do instead: interactive programs
  (vim, top, less, a bare python). A line that does not
  parse, or a cwd that does not exist, is an error result (line and column named); nothing runs.

sh_spawn {cmd, alias?, wait_for?, timeout?, session?, cwd?}
  Start a background process (dev server, watcher) in the session's cwd with its current
  environment (export PORT=3001 in sh_run, then sh_spawn sees it). With wait_for (a regex) the call blocks
  until the output matches, the process exits, or timeout seconds pass — no polling needed.
  The line is checked like sh_run's: syntax errors, dangerous commands and interactive programs
  nobody could use in the background (vim, a bare REPL) are refused with the advice.
  Example: sh_spawn {cmd: "npm run dev", alias: "web", wait_for: "ready on|listening"}

sh_interact {id | alias, action, …}
  send {text}         write text to the process (add "\\n" to press Enter), then wait up to
                      wait seconds (default 5) for new output / exit / the next prompt
  keys {keys: [...]}  named keys: Enter Tab Esc Backspace Up Down Left Right C-c C-d C-z
  read_tail {lines?, raw?}  the last lines (default 200) condensed with the command's grammar;
                      raw: true gives the exact numbered lines (default 40)
  read_raw {from_line?, to_line?, grep?}  exact raw lines from the on-disk spool, numbered
  signal {signal}     e.g. SIGINT, SIGTERM, SIGHUP
  kill                TERM the whole process group, KILL after a grace period
  status              state, exit code, elapsed, last line; the final reply of a backgrounded sh_run

sh_session {action: create | list | close | restart, name?, shell?, cwd?, env?, ssh?, ssh_args?}
  Sessions are persistent shells (bash, zsh, dash, sh, fish; ssh: "user@host" for a remote one,
  ssh_args e.g. ["-p", "2222"]). Lines are checked as bash syntax in every shell: in fish,
  write "it's" and $(cmd); put fish blocks (if/for … end) in a file and source it.
  A "default" session is created on first use; restart gives a fresh shell.

Masking: secrets in anything mish shows you (replies, read_raw and read_tail lines, progress)
are replaced by [masked: <kind>], e.g. [masked: github token], [masked: password],
[masked: private key] — the kind, never the value. Output is not broken there: the secret was
removed on purpose (vendor tokens, keys named like secrets, Authorization/Cookie headers,
passwords on command lines, private keys even when a read starts inside one, the output of
commands that print a credential alone: \`gh auth token\`, \`vault read -field=…\` give
[masked: token printed by gh auth token]; a value masked once stays masked for the session). The exact bytes are in the spool: the user can see them
with \`mish raw <id>\` in their own terminal. Don't try to recover a masked value; ask the user
to act on it, or reference it by its variable ($NPM_TOKEN) instead of its value.

Ids: "c<N>" are sh_run commands, "p<N>" background processes; aliases work wherever ids do.
Raw output is never lost: every command and process is spooled to disk; read it with
sh_interact read_raw, or in a terminal with \`mish raw <id>\` (structuredContent.spool_ref).`;

const outputSchema = { card: z.string().describe('The reference card text.') };

export function registerShHelp(server: McpServer): void {
  server.registerTool(
    'sh_help',
    {
      title: 'mish reference card',
      description: 'Show a short reference card of the mish shell tools (sh_run, sh_spawn, sh_interact, sh_session) with their arguments and examples. Call it when unsure which tool or argument to use.',
      inputSchema: {},
      outputSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async () => reply(HELP_CARD, { card: HELP_CARD }),
  );
}
