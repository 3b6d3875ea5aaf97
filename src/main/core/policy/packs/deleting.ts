import type { Pack } from './types.js';

/** Deleting with tools other than rm (what an rm-only rule set misses). */
export const deletingPack: Pack = {
  id: 'deleting',
  description: 'Deleting or emptying files with tools other than rm (fd -x / -X CMD is read like find -exec, in the resolver): rsync --delete, tar --remove-files, zip -m, 7z -sdel, mv to /dev/null, rimraf, git rm -r ., git clean with requireForce off, truncate -s 0 or `: >` on data files, trash commands on protected folders.',
  rules: String.raw`
[[rule]]
id = "rsync-delete-protected"
reason = "rsync --delete makes a protected folder (root, home, system, the project) match its source, deleting everything else in it"
commands = ["rsync"]
flags_any = ["--delete", "--delete-before", "--delete-during", "--delete-after", "--delete-excluded", "--del"]
targets_any = '^(?:/|~|~/|/home(?:/[^/]+)?|/(?:etc|usr|var|opt|srv|boot|bin|sbin|lib|lib64|root)(?:/[^/]*)?|~/[^/]+/?|\.|\./|\.\.|\.\./)$'

[[rule]]
id = "archive-removes-sources"
reason = "the archiver deletes the files it archives (tar --remove-files, zip -m, 7z -sdel)"
argv_any = '^(?:tar (?:\S+ )*--remove-files|zip (?:\S+ )*-(?:[a-zA-Z]*m[a-zA-Z]*|-move)(?: |$)|7za? (?:\S+ )*-sdel|7zz (?:\S+ )*-sdel)'

[[rule]]
id = "move-to-dev-null"
reason = "moving a file onto /dev/null replaces the device (and loses the file)"
commands = ["mv"]
args_any = '^/dev/null$'

[[rule]]
id = "rimraf"
reason = "rimraf / del deletes recursively"
commands = ["rimraf", "del", "del-cli", "trash", "trash-put", "gio"]
targets_any = '^(?:/|~|~/|/home(?:/[^/]+)?|/(?:etc|usr|var|opt|srv|boot|bin|sbin|lib|lib64|root)(?:/.*)?|~/[^/]+|~/\*|\*|\.|\.\.)$'

[[rule]]
id = "git-rm-all"
reason = "git rm -r of the whole tree deletes every tracked file"
commands = ["git"]
subcommand = ["rm"]
flags_all = ["-r"]
args_any = '^(?:\.|\*|:/|\./?|-- ?\.)$'

[[rule]]
id = "git-clean-no-force"
reason = "git clean with clean.requireForce turned off deletes untracked files without -f"
commands = ["git"]
subcommand = ["clean"]
argv_any = 'clean\.requireForce=(?:false|0|no|off)'
unless_flags = ["-n", "--dry-run"]

[[rule]]
id = "empty-data-file"
reason = "empties a data file (database, git object store, key or history)"
# Commands that empty or overwrite in place (: >, truncate, cat /dev/null >); mv, cp, ln of a database file move or copy it.
commands = [":", "truncate", "cat", "echo", "printf", "true", "false", "tee", "dd", "head"]
writes_any = '(?:\.(?:db|sqlite3?|mdb|kdbx|wal)|/\.git/(?:index|HEAD|packed-refs|objects/.*|refs/.*)|\.git/(?:index|HEAD)|_history)$'
`,
};
