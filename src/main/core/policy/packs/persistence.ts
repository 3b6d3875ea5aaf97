import type { Pack } from './types.js';

/** Changes that make something run later, outside the agent's line (after the agent is gone). */
export const persistencePack: Pack = {
  id: 'persistence',
  description: 'Changes that run something later: shell rc and alias files, ~/.local/bin and other PATH shims, git config aliases with !, core.pager / core.fsmonitor / core.hooksPath / credential helpers, .git/hooks, crontab, systemd user units, launch agents, authorized_keys, ssh rc/config.',
  rules: String.raw`
[[rule]]
id = "startup-file"
reason = "writes a file the shell, the desktop or ssh runs at login or start (rc, profile, alias file, autostart, ssh rc/config)"
writes_any = '^(?:~/\.(?:bash_aliases|bashrc\.d/.*|zshrc\.d/.*|config/(?:fish|autostart|environment\.d|plasma-workspace/env)/.*|ssh/(?:rc|config|environment)|inputrc|xsessionrc|pam_environment|Xresources|npmrc|yarnrc|pip/pip\.conf|gitconfig|config/git/config|curlrc|wgetrc|pythonrc|pythonstartup|perldl\.conf|irbrc|pryrc|guile|emacs|emacs\.d/init\.el|vimrc|config/nvim/init\.(?:vim|lua)|tmux\.conf|screenrc)|/etc/(?:bashrc|zshrc|zprofile|zshenv|inputrc|gitconfig|ssh/sshrc))$'

[[rule]]
id = "path-shim"
reason = "puts a program in a folder on PATH (~/.local/bin, ~/bin, /usr/local/bin): it can shadow a command the user runs"
writes_any = '^(?:~/\.local/bin|~/bin|/usr/local/bin|/usr/local/sbin|~/\.cargo/bin|~/go/bin|~/\.npm-global/bin)/[^/]+$'

[[rule]]
id = "git-hook"
reason = "writes a git hook (.git/hooks/*): git runs it on commit, checkout, push"
writes_any = '(?:^|/)\.git/hooks/[^/]+$|^\.git/hooks/[^/]+$'

[[rule]]
id = "git-config-command"
reason = "git config sets a value git runs as a command (an alias with !, core.pager, core.fsmonitor, core.hooksPath, core.sshCommand, credential.helper, a filter or diff driver)"
commands = ["git"]
subcommand = ["config"]
unless_flags = ["--get", "--get-all", "--list", "-l", "--unset", "--unset-all", "--get-regexp", "--show-origin"]
# A value follows the key (git config core.pager alone reads it); an alias runs a command only
# when its value starts with ! (alias.co checkout is a git subcommand).
argv_any = '(?i)(?:^| )(?:alias\.[\w-]+ !|(?:core\.(?:pager|fsmonitor|hookspath|sshcommand|editor|askpass|gitproxy)|credential(?:\.[^.\s]+)?\.helper|sequence\.editor|diff\.external|gpg\.program|pager\.[\w-]+|filter\.[\w-]+\.(?:clean|smudge|process)|(?:diff|merge)tool\.[\w-]+\.cmd|init\.templatedir|include\.path|includeif\.\S+\.path) \S)'

[[rule]]
id = "git-hooks-path"
reason = "points git at another hooks folder for this command"
commands = ["git"]
argv_any = '(?i)(?:^| )-c ?core\.hookspath='

[[rule]]
id = "crontab-install"
reason = "installs a crontab (runs commands on a schedule)"
commands = ["crontab"]
unless_flags = ["-l", "-r"]

[[rule]]
id = "systemd-user-unit"
reason = "enables or writes a systemd user unit / timer (runs at login or on a schedule)"
commands = ["systemctl"]
flags_any = ["--user"]
subcommand = ["enable|link|edit|preset|add-wants|add-requires|set-property"]

[[rule]]
id = "launch-agent"
reason = "writes or loads a macOS launch agent / daemon (runs at login or boot)"
writes_any = '^(?:~/Library/LaunchAgents|/Library/(?:LaunchAgents|LaunchDaemons|StartupItems))(?:/.*)?$'

[[rule]]
id = "launchctl-load"
reason = "loads a macOS launch agent / daemon"
commands = ["launchctl"]
subcommand = ["load|bootstrap|enable|submit"]

[[rule]]
id = "authorized-keys-append"
reason = "adds a key that lets someone log in as this user"
commands = ["ssh-copy-id"]
`,
};
