/**
 * `mish operator-relay --list | --raw ID [--from N]`: the remote half of `mish console --ssh`.
 * The console reaches a remote host's `mish serve` sockets with OpenSSH's own stream-local
 * forwarding (the same operator wire, end to end); this command answers the two things a
 * forward cannot: which servers run there (`--list`, JSON), and a command's raw output from
 * that host's spool (`--raw`, JSON lines with their numbers). It listens on nothing.
 */
import { listServerSockets, operatorDir } from '../operator/paths.js';
import { defaultSpoolLookup } from './wire-server.js';

const USAGE = `usage: mish operator-relay --list
       mish operator-relay --raw SPOOL_ID [--from N]

The remote side of \`mish console --ssh\` (run by it over ssh; not for direct use):
  --list          the running \`mish serve\` sockets of this user here, as JSON
  --raw ID        the raw output of a spooled command, as JSON lines (from line N)
`;

export async function runOperatorRelay(argv: string[]): Promise<number> {
  if (argv[0] === '--list' && argv.length === 1) {
    const dir = operatorDir();
    process.stdout.write(JSON.stringify({ dir, servers: listServerSockets(dir) }) + '\n');
    return 0;
  }
  if (argv[0] === '--raw' && argv[1] && /^[0-9a-z]+$/.test(argv[1])) {
    const from = argv[2] === '--from' && /^\d+$/.test(argv[3] ?? '') ? Number(argv[3]) : undefined;
    const r = (await defaultSpoolLookup()).read(argv[1], from ? { fromLine: from } : {});
    if (!r) {
      process.stderr.write(`mish operator-relay: no spooled output ${argv[1]} here\n`);
      return 1;
    }
    process.stdout.write(JSON.stringify(r) + '\n');
    return 0;
  }
  if (argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  process.stderr.write(`mish operator-relay: expected --list or --raw ID (see mish operator-relay --help)\n`);
  return 2;
}
