import type { Pack } from './types.js';

/** Programs that run code or shell commands handed to them in an argument. */
export const codeRunnersPack: Pack = {
  id: 'code-runners',
  description: "Programs that run code or shell commands from an argument whose effect is not read statically: sed's e command, gdb -ex '!…', emacs --eval, vim/ex scripts, git's command-running options, database clients' shell escapes (psql \\!, mysql system, sqlite3 .shell, COPY … TO PROGRAM), terminal emulators' -e. (entr -s's string is read like sh -c's, in the resolver.)",
  rules: String.raw`
[[rule]]
id = "sed-execute"
reason = "a sed script with the e command (or s///e) runs shell commands"
commands = ["sed", "gsed"]
argv_any = '(?:^|[;\s{}])[0-9$,]*e(?: |$)|(?:^|[;\s}])s([/|#:,])[^/|#:,]*\1[^/|#:,]*\1[gipIM0-9]*e(?:$|[\s;}])'

[[rule]]
id = "gdb-shell"
reason = "gdb -ex / --eval-command runs a shell command (! or shell) or a Python script"
commands = ["gdb", "lldb"]
argv_any = '(?:^| )(?:-ex|--ex|--eval-command|-o|--one-line)(?:=| )(?:!|shell |python|pi |script |platform shell)'

[[rule]]
id = "emacs-eval"
reason = "emacs --eval / -batch --eval runs Lisp, which can delete files and run processes"
commands = ["emacs", "emacsclient"]
flags_any = ["--eval", "-eval", "--execute", "-l", "--load", "--script", "-x"]

[[rule]]
id = "terminal-runs"
reason = "a terminal emulator started with a command to run (-e / -x / --command): what runs is in the string"
commands = ["xterm", "gnome-terminal", "konsole", "xfce4-terminal", "kitty", "alacritty", "wezterm", "terminator", "tilix", "urxvt", "st", "foot", "lxterminal", "mate-terminal"]
# As written: -- ends the options (flags stop there), and here it starts the command.
argv_any = '(?:^| )(?:-e|-x|--command|--|-c)(?:[ =]|$)'

[[rule]]
id = "db-shell-escape"
reason = "the database client runs a shell command (psql \\!, mysql system/\\!, sqlite3 .shell/.system, COPY … TO/FROM PROGRAM)"
commands = ["psql", "mysql", "mariadb", "sqlite3", "duckdb", "pgcli", "mycli", "usql"]
sql_any = '(?i)(?:^|[\s;])(?:\\!|system\s|\.shell\b|\.system\b)|\b(?:TO|FROM)\s+PROGRAM\b'
`,
};
