/**
 * Data moving between commands: what a pipeline element prints when it is static, what a
 * shell or interpreter fed on stdin by something unreadable is escalated as, where downloads
 * are saved, and the SQL / redis text handed to database clients.
 */
import { bashPrintf, echoOutput } from './printf.js';
import { positionalArgs, type Base, type Ctx, type PipeIn, type ResolvedCommand, type Words } from './resolved.js';

export const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'lwp-request', 'GET']);
export const DECODERS = new Set(['base64', 'base32', 'xxd', 'uudecode', 'openssl', 'gunzip', 'zcat', 'gzip', 'bzip2', 'bzcat', 'xz', 'xzcat', 'unxz', 'rev', 'tr', 'od', 'basenc', 'zstd', 'zstdcat', 'perl', 'python', 'python3']);
export const NETWORK_TOOLS = new Set(['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'scp', 'sftp', 'rsync', 'ssh', 'ftp', 'tftp', 'http', 'https', 'xh', 'openssl', 'rclone', 'aws', 'gsutil', 'sendmail', 'mail', 'mutt']);
export const SQL_CLIENTS = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'sqlcmd', 'clickhouse-client', 'clickhouse', 'cockroach', 'mongo', 'mongosh', 'duckdb', 'redis-cli', 'pgcli', 'mycli', 'usql', 'valkey-cli', 'keydb-cli']);

/**
 * Programs that read their stdin as data, never as commands: text fed to them is not read as a
 * shell line (`grep rm <<< 'rm -rf /'`, `cat > notes.md <<EOF`, `git commit -F - <<EOF`). Every
 * other program fed known text is assumed, worst case, to run it (resolve.ts, stdinAsCode).
 */
export const DATA_READERS = new Set([
  'cat', 'tee', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'sort', 'uniq', 'head', 'tail', 'cut', 'tr', 'sed', 'wc', 'less', 'more', 'most',
  'diff', 'cmp', 'comm', 'jq', 'yq', 'gojq', 'jless', 'xxd', 'od', 'hexdump', 'base64', 'base32', 'basenc', 'md5sum', 'sha1sum', 'sha224sum',
  'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'gzip', 'gunzip', 'zcat', 'bzip2', 'bzcat', 'xz', 'xzcat', 'unxz', 'zstd',
  'zstdcat', 'column', 'fold', 'fmt', 'nl', 'pr', 'paste', 'join', 'expand', 'unexpand', 'iconv', 'dos2unix', 'unix2dos', 'rev', 'tac',
  'strings', 'file', 'xclip', 'xsel', 'pbcopy', 'wl-copy', 'tr', 'split', 'csplit', 'shuf', 'look', 'spell', 'aspell', 'hunspell', 'wdiff',
  'colordiff', 'delta', 'bat', 'batcat', 'pygmentize', 'highlight', 'glow', 'pandoc', 'markdown', 'cmark', 'envsubst', 'gettext', 'msgfmt',
  'patch', 'git', 'gh', 'glab', 'hub', 'kubectl', 'oc', 'helm', 'docker', 'podman', 'curl', 'wget', 'http', 'xh', 'nc', 'ncat', 'netcat',
  'socat', 'openssl', 'gpg', 'gpg2', 'age', 'ssh-keygen', 'ssh-add', 'passwd', 'chpasswd', 'read', 'mapfile', 'readarray', 'echo', 'printf',
  'true', 'false', ':', 'test', '[', 'sponge', 'pv', 'dd', 'mail', 'mailx', 'sendmail', 'logger', 'systemd-cat', 'wall', 'write', 'lp', 'lpr',
  'jo', 'mlr', 'csvlook', 'csvcut', 'xsv', 'qsv', 'dasel', 'xmllint', 'xmlstarlet', 'tidy', 'prettier', 'black', 'ruff', 'eslint', 'shfmt',
  'shellcheck', 'clang-format', 'gofmt', 'rustfmt', 'terraform', 'vault', 'aws', 'gcloud', 'az',
]);

/** Lines that hand the rest to a shell in the common REPLs (ed / ftp / sftp `!cmd`, sqlite3 `.shell`, psql `\!`, gdb `shell`, mysql `system`). */
export const SHELL_ESCAPE_LINE = /^[ \t]*(?:!|:!|\\!|\.shell[ \t]|\.system[ \t]|system[ \t]|shell[ \t])[ \t]*(.+)$/gm;

/** Facts of uncertainty dropped from text read as code only in the worst case (resolve.ts stdinAsCode): prose and data are full of them. */
export const SPECULATIVE_FACTS = ['dynamic-command', 'unknown-target', 'shell-stdin-unknown', 'interpreter-stdin-unknown', 'interpreter-code-unknown', 'interpreter-code-unparsed', 'control-chars'];

/** SQL with string literals and comments removed: `SELECT 'drop table x'` has no DROP. */
export function sqlSkeleton(s: string): string {
  return s
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/\$\$[\s\S]*?\$\$/g, "''")
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ');
}

/** A word whose text comes from running a command: `<(…)`, `$(…)`, backticks. */
export function substituted(raw: string | undefined): boolean {
  return raw !== undefined && (/^[<>]\(/.test(raw) || /\$\(|`/.test(raw));
}

/** Files curl / wget save a download to (`-o f`, `-O f`, `-qO f`, `--output-document=f`). */
export function downloadOutputs(c: ResolvedCommand): string[] {
  if (c.name !== 'curl' && c.name !== 'wget') return [];
  const out: string[] = [];
  const a = c.argv;
  for (let k = 1; k < a.length; k++) {
    const x = a[k];
    const flag = c.name === 'curl' ? /^-[a-zA-Z]*o$/ : /^-[a-zA-Z]*O$/;
    if ((flag.test(x) || x === '--output' || x === '--output-document') && a[k + 1] !== undefined) out.push(a[++k]);
    else if (/^--output(?:-document)?=/.test(x)) out.push(x.slice(x.indexOf('=') + 1));
    else if (c.name === 'wget' && /^-O./.test(x)) out.push(x.slice(2));
  }
  // `wget URL` and `curl -O URL` save under the URL's last path segment (wget -P / curl --output-dir: in that folder).
  const urls = a.slice(1).filter((x) => /^(?:https?|ftps?):\/\//i.test(x));
  const remoteName = c.name === 'curl' ? a.some((x) => /^-[a-zA-Z]*O[a-zA-Z]*$/.test(x) || x === '--remote-name' || x === '--remote-name-all') : out.length === 0;
  if (remoteName) {
    const dir = c.name === 'wget' ? optionAfter(a, ['-P', '--directory-prefix']) : optionAfter(a, ['--output-dir']);
    for (const u of urls) {
      const name = u.replace(/[?#].*$/, '').replace(/^[a-z]+:\/\/[^/]*/i, '').split('/').pop() || 'index.html';
      out.push(dir ? `${dir.replace(/\/+$/, '')}/${name}` : name);
    }
  }
  return out.filter((f) => f !== '-');
}

/**
 * Files a command writes whose new content is not seen here (`sed -i … x.sh`, `tee x.sh`,
 * `dd of=x.sh`, `sponge x.sh`): running one later on the line runs unseen code. A copy (`cp a.sh b.sh`)
 * holds what the source held, as opaque as running the source.
 */
export function unseenWrites(c: ResolvedCommand): string[] {
  const a = c.argv.slice(1);
  const pos = a.filter((x) => !x.startsWith('-'));
  switch (c.name) {
    case 'tee':
    case 'sponge':
      return pos;
    case 'sed':
    case 'perl':
      return a.some((x) => /^-[a-zA-Z]*i/.test(x) || x.startsWith('--in-place')) ? pos.slice(c.name === 'sed' && !a.some((x) => x === '-e' || x === '-f' || x.startsWith('--expression')) ? 1 : 0) : [];
    case 'dd':
      return a.filter((x) => x.startsWith('of=')).map((x) => x.slice(3));
    default:
      return [];
  }
}

/** The value of the first of these options (`-P dir`, `--directory-prefix=dir`). */
function optionAfter(a: readonly string[], names: readonly string[]): string | undefined {
  for (let k = 1; k < a.length; k++) for (const n of names) if (a[k] === n) return a[k + 1];
  else if (a[k].startsWith(`${n}=`)) return a[k].slice(n.length + 1);
  return undefined;
}

/** Why a shell fed on stdin by something we cannot read is escalated. */
export function unknownFeed(p: PipeIn): string {
  const names = p.producers.map((c) => c.name);
  if (names.some((n) => DOWNLOADERS.has(n))) return 'download-to-shell';
  if (p.producers.some((c) => DECODERS.has(c.name) && c.argv.some((x) => /^-(?:[a-zA-Z]*d|-decode|r|-reverse)$|^-?-?d(?:ecode)?$|^enc$/.test(x)))) return 'decoded-payload-to-shell';
  if (names.some((n) => DECODERS.has(n))) return 'decoded-payload-to-shell';
  if (names.some((n) => NETWORK_TOOLS.has(n))) return 'reverse-shell';
  // `cat install.sh | bash` runs a local file, as `bash install.sh` does.
  if (p.producers.length > 0 && p.producers.every((c) => c.name === 'cat' && c.argv.length > 1 && c.literal.every(Boolean) && !c.argv.slice(1).some((x) => x === '-' || x.startsWith('/dev/') || x.startsWith('/proc/')))) return 'none';
  return 'shell-stdin-unknown';
}

/** The text a pipeline element writes, when it is static (`echo …`, `printf …`, `cat <<EOF`). */
export function staticOutput(g: ResolvedCommand[]): string | undefined {
  if (g.length !== 1) return undefined;
  const c = g[0];
  if (c.facts.size) return undefined;
  if (c.name === 'echo' && c.literal.every(Boolean)) {
    const e = echoOutput(c.argv.slice(1));
    return e === undefined ? undefined : `${e.text}${e.newline ? '\n' : ''}`;
  }
  if (c.name === 'printf' && c.literal.every(Boolean) && c.argv.length > 1) return bashPrintf(c.argv.slice(1));
  // Printers of a known folder: the working directory, the project's top, `ls -d PATHS`.
  if (c.name === 'pwd' && c.cwd !== null) return `${c.cwd ?? '.'}\n`;
  if (c.name === 'git' && c.argv[1] === 'rev-parse' && c.argv.includes('--show-toplevel') && c.cwd !== null) return `${c.cwd ?? '.'}\n`;
  if ((c.name === 'realpath' || c.name === 'readlink') && c.literal.every(Boolean)) {
    const pos = c.argv.slice(1).filter((x) => !x.startsWith('-'));
    return `${(pos.length ? pos : ['.']).join('\n')}\n`;
  }
  if (c.name === 'ls' && c.argv.some((x) => /^-[a-zA-Z]*d/.test(x)) && c.literal.every(Boolean)) {
    const pos = c.argv.slice(1).filter((x) => !x.startsWith('-'));
    if (pos.length) return `${pos.join('\n')}\n`;
  }
  if ((c.name === 'cat' || c.name === 'tee') && c.argv.length === 1 && c.stdinText !== undefined && !c.pipedFrom.length) return c.stdinText;
  return undefined;
}

/** SQL handed to a database client: -c/-e values, sqlite3's statements, stdin text. */
export function collectSql(cmd: ResolvedCommand, w: Words, base: Base, ctx: Ctx): void {
  const a = w.argv;
  const texts: string[] = [];
  const flags = ['-c', '--command', '-e', '--execute', '--eval', '-q', '--query', '-Q', '-x'];
  for (let j = 1; j < a.length; j++) {
    const x = a[j];
    if (flags.includes(x) && a[j + 1] !== undefined) texts.push(a[++j]);
    else if (/^-[ceqQx]./.test(x) && !x.startsWith('--')) texts.push(x.slice(2)); // glued: psql -c'DROP …'
    else {
      const eq = flags.find((f) => f.startsWith('--') && x.startsWith(`${f}=`));
      if (eq) texts.push(x.slice(eq.length + 1));
    }
  }
  const pos = positionalArgs(a.slice(1), ['-h', '-p', '-U', '-d', '-u', '-H', '-P', '-n', '-a', '-S', '--host', '--port', '--user', '--username', '--dbname', '--password', '-D', '--database', '-f', '--file', '-c', '--command', '-e', '--execute', '--eval', '-q', '--query', '-Q', '-x', '-o', '--output', '-v', '--set', '-cmd']);
  if (cmd.name === 'sqlite3' || cmd.name === 'duckdb') texts.push(...pos.slice(1));
  else if (cmd.name === 'redis-cli' || cmd.name === 'valkey-cli' || cmd.name === 'keydb-cli') texts.push(pos.join(' '));
  else if (cmd.name === 'clickhouse-client' || cmd.name === 'clickhouse' || cmd.name === 'cockroach') texts.push(...pos);
  const stdin = base.stdinText ?? ctx.pipeIn?.text;
  if (stdin !== undefined) texts.push(stdin);
  cmd.sql = texts.map(sqlSkeleton);
}
