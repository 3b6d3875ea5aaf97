/**
 * The policy test tables (test/policy/*.txt) and the wrappers the tests put around dangerous
 * commands. A table line is one command line; `#` starts a comment line; a line starting with
 * `ESC:` is a JSON string body (for \n, \r, \u0000, \u001b, bidi controls).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export function readTable(name: string): string[] {
  return readFileSync(path.join(here, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => (l.startsWith('ESC:') ? (JSON.parse(`"${l.slice(4).replace(/"/g, '\\"').replace(/\\\\"/g, '\\"')}"`) as string) : l));
}

export interface DomainRow {
  decision: string;
  /** PACK/RULE or a built-in rule id; `default` for a look-alike no rule matches (`-`: not asserted). */
  rule: string;
  line: string;
}

/** The domain tables (tables/*.tsv): DECISION<TAB>RULE<TAB>LINE, `ESC:` lines JSON string bodies. */
export function readDomainTables(): Array<{ name: string; rows: DomainRow[] }> {
  const dir = path.join(here, 'tables');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.tsv'))
    .sort()
    .map((f) => ({
      name: f.replace(/\.tsv$/, ''),
      rows: readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.startsWith('#'))
        .map((l) => {
          const [decision, rule, ...rest] = l.split('\t');
          const line = rest.join('\t');
          return { decision, rule, line: line.startsWith('ESC:') ? (JSON.parse(`"${line.slice(4)}"`) as string) : line };
        }),
    }));
}

/**
 * Every supported way to wrap a command (the wrapped command has no quotes inside). `$( c )`
 * keeps its blanks: `$((c))` would be arithmetic, which bash does not run as a command.
 */
export const WRAPPERS: Array<[string, (c: string) => string]> = [
  ['sudo', (c) => `sudo ${c}`],
  ['sudo -u', (c) => `sudo -u root -E ${c}`],
  ['doas', (c) => `doas ${c}`],
  ['pkexec', (c) => `pkexec ${c}`],
  ['env', (c) => `env ${c}`],
  ['env A=1', (c) => `env -i A=1 PATH=/bin ${c}`],
  ['env -S', (c) => `env -S '${c}'`],
  ['assignment', (c) => `LANG=C ${c}`],
  ['timeout', (c) => `timeout 5 ${c}`],
  ['timeout -s', (c) => `timeout -s KILL 10s ${c}`],
  ['nice', (c) => `nice -n 10 ${c}`],
  ['ionice', (c) => `ionice -c3 ${c}`],
  ['nohup', (c) => `nohup ${c}`],
  ['setsid', (c) => `setsid ${c}`],
  ['stdbuf', (c) => `stdbuf -oL ${c}`],
  ['time', (c) => `time ${c}`],
  ['command', (c) => `command ${c}`],
  ['exec', (c) => `exec ${c}`],
  ['strace', (c) => `strace -f -o /tmp/t ${c}`],
  ['ltrace', (c) => `ltrace ${c}`],
  ['chroot', (c) => `chroot / ${c}`],
  ['busybox', (c) => `busybox ${c}`],
  ['taskset', (c) => `taskset 0x1 ${c}`],
  ['chrt', (c) => `chrt 10 ${c}`],
  ['unshare', (c) => `unshare -m ${c}`],
  ['nsenter', (c) => `nsenter -t 1 -m ${c}`],
  ['systemd-run', (c) => `systemd-run --scope ${c}`],
  ['flock', (c) => `flock /tmp/lock ${c}`],
  ['flock -c', (c) => `flock /tmp/lock -c '${c}'`],
  ['firejail', (c) => `firejail ${c}`],
  ['xvfb-run', (c) => `xvfb-run -a ${c}`],
  ['sh -c', (c) => `sh -c '${c}'`],
  ['bash -c', (c) => `bash -c "${c}"`],
  ['bash -lc', (c) => `bash -lc '${c}'`],
  ['zsh -c', (c) => `zsh -c '${c}'`],
  ['dash -ec', (c) => `dash -ec '${c}'`],
  ['busybox sh -c', (c) => `busybox sh -c '${c}'`],
  ['eval', (c) => `eval '${c}'`],
  ['eval words', (c) => `eval ${c}`],
  ['su -c', (c) => `su -c '${c}'`],
  ['su root -c', (c) => `su - root -c '${c}'`],
  ['runuser -c', (c) => `runuser -l root -c '${c}'`],
  ['ssh', (c) => `ssh host '${c}'`],
  ['ssh -t words', (c) => `ssh -t -p 22 user@host ${c}`],
  ['docker exec', (c) => `docker exec -it web ${c}`],
  ['podman exec', (c) => `podman exec -u root db ${c}`],
  ['kubectl exec', (c) => `kubectl exec -it pod -- ${c}`],
  ['find -exec', (c) => `find . -maxdepth 0 -exec ${c} \\;`],
  ['xargs', (c) => `xargs ${c} < /dev/null`],
  ['xargs -0', (c) => `find . -print0 | xargs -0 ${c}`],
  ['xargs sh -c', (c) => `echo x | xargs -I{} sh -c '${c}'`],
  ['parallel', (c) => `parallel ::: '${c}'`],
  ['watch', (c) => `watch -n 1 '${c}'`],
  ['watch words', (c) => `watch ${c}`],
  ['script -c', (c) => `script -qc '${c}' /dev/null`],
  ['tmux', (c) => `tmux new-session -d '${c}'`],
  ['tmux send-keys', (c) => `tmux send-keys -t 0 '${c}' Enter`],
  ['screen', (c) => `screen -dmS x ${c}`],
  ['at', (c) => `echo '${c}' | at now`],
  ['echo | sh', (c) => `echo '${c}' | sh`],
  ['printf | bash', (c) => `printf '%s\\n' '${c}' | bash`],
  ['here-string', (c) => `bash <<< '${c}'`],
  ['heredoc', (c) => `sh <<'EOF'\n${c}\nEOF`],
  ['python os.system', (c) => `python3 -c 'import os; os.system("${c}")'`],
  ['python subprocess', (c) => `python3 -c "import subprocess; subprocess.run('${c}', shell=True)"`],
  ['perl system', (c) => `perl -e 'system("${c}")'`],
  ['ruby system', (c) => `ruby -e 'system("${c}")'`],
  ['node execSync', (c) => `node -e 'require("child_process").execSync("${c}")'`],
  ['awk system', (c) => `awk 'BEGIN{system("${c}")}'`],
  ['subshell', (c) => `( ${c} )`],
  ['group', (c) => `{ ${c}; }`],
  ['and', (c) => `true && ${c}`],
  ['or', (c) => `false || ${c}`],
  ['pipeline', (c) => `echo y | ${c}`],
  ['background', (c) => `${c} &`],
  ['$( )', (c) => `echo $( ${c} )`],
  ['backticks', (c) => `echo \`${c}\``],
  ['<( )', (c) => `cat <( ${c} )`],
  ['assignment $( )', (c) => `x=$( ${c} )`],
  ['[[ ]]', (c) => `[[ -n $( ${c} ) ]]`],
  ['(( ))', (c) => `(( $( ${c} ) ))`],
  ['${x:-$( )}', (c) => `echo \${x:-$( ${c} )}`],
  ['heredoc body $( )', (c) => `cat <<EOF\n$( ${c} )\nEOF`],
  ['if', (c) => `if true; then ${c}; fi`],
  ['for', (c) => `for i in 1; do ${c}; done`],
  ['while', (c) => `while false; do :; done; ${c}`],
  ['case', (c) => `case x in x) ${c};; esac`],
  ['function', (c) => `f() { ${c}; }; f`],
  ['nested', (c) => `sudo sh -c "timeout 5 env ${c}"`],
];
