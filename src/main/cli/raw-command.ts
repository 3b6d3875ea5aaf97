/**
 * `mish raw <id> [--lines A-B] [--grep RE] [--strip]`: print the exact raw output of an
 * earlier command from the spool; `mish raw --list` lists the spooled commands.
 */
import { parseArgs } from 'node:util';
import { undoOnlcr } from '../core/exec/terminal-newlines.js';
import { SpoolStore } from '../core/spool/spool.js';
import { exitOnClosedOutput } from './closed-output.js';
import { UsageError } from './usage-error.js';

export const RAW_HELP = `usage: mish raw <id> [--lines A-B] [--grep REGEX] [--strip]
       mish raw --list

Print the exact raw output of an earlier command (every \`mish\` run is spooled); to a pipe
or a file without the terminal's \\r\\n, so it is what the program wrote.
  --lines A-B   only lines A to B (1-based; -20 alone = the last 20 lines)
  --grep RE     only lines matching the regular expression (tested without ANSI codes)
  --strip       remove ANSI escape sequences
  --list        list spooled commands (newest last)
`;

export function runRaw(argv: string[]): number {
  const { values, positionals } = parseRawArgs(argv);
  if (values.help) {
    process.stdout.write(RAW_HELP);
    return 0;
  }
  exitOnClosedOutput();
  const store = new SpoolStore();
  if (values.list) {
    for (const m of store.list()) process.stdout.write(`${m.id}  ${m.startedAt}  exit ${m.exitCode ?? '?'}  ${m.lines} lines  ${m.command}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('mish raw: give one spool id (see `mish raw --list`)');
  const reader = store.open(positionals[0]);
  if (!reader) throw new UsageError(`mish raw: no spooled output with id '${positionals[0]}' (see \`mish raw --list\`)`);
  let grep: RegExp | undefined;
  if (values.grep !== undefined) {
    try {
      grep = new RegExp(values.grep);
    } catch (e) {
      throw new UsageError(`mish raw: --grep: ${(e as Error).message}`);
    }
  }
  if (!values.lines && !grep && !values.strip) {
    const all = reader.readAll();
    process.stdout.write(process.stdout.isTTY ? all : undoOnlcr(all));
    return 0;
  }
  let from: number | undefined;
  let to: number | undefined;
  if (values.lines) {
    const m = /^(-?\d+)(?:-(\d+))?$/.exec(values.lines);
    if (!m) throw new UsageError(`mish raw: --lines takes A-B or -N, not '${values.lines}'`);
    from = Number(m[1]);
    to = m[2] !== undefined ? Number(m[2]) : from < 0 ? undefined : from;
    if (from === 0 || Object.is(from, -0)) throw new UsageError(`mish raw: --lines ${values.lines}: lines are numbered from 1`);
    if (to !== undefined && to < from) throw new UsageError(`mish raw: --lines ${values.lines}: the range is reversed (write ${to}-${from})`);
  }
  const res = reader.readLines({ from, to, grep, strip: values.strip });
  for (const l of res.lines) process.stdout.write(`${l.text}\n`);
  if (from !== undefined && from > res.totalLines) {
    process.stderr.write(`mish raw: ${positionals[0]} has ${res.totalLines} ${res.totalLines === 1 ? 'line' : 'lines'}; --lines ${values.lines} is past the end\n`);
    return 1;
  }
  return 0;
}

const RAW_OPTIONS = { lines: { type: 'string' }, grep: { type: 'string' }, strip: { type: 'boolean' }, list: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

function parseRawArgs(argv: string[]) {
  // `--lines -20` (the last 20 lines, as the help says): parseArgs would take -20 for an option.
  const args = argv.flatMap((a, i) => (a === '--lines' && /^-\d+$/.test(argv[i + 1] ?? '') ? [] : i > 0 && argv[i - 1] === '--lines' && /^-\d+$/.test(a) ? [`--lines=${a}`] : [a]));
  try {
    return parseArgs({ args, allowPositionals: true, options: RAW_OPTIONS });
  } catch (e) {
    const m = /^Unknown option '([^']*)'/.exec((e as Error).message);
    throw new UsageError(`mish raw: ${m ? `unknown option '${m[1]}'` : (e as Error).message.split('\n')[0]} (see mish raw --help)`);
  }
}
