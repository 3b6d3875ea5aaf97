export const title = 'Deleting files with rm: root, home, system, credential and work folders, . and .., globs, .git — and the ways the path reaches rm';
export default ({ bad, badTargets, ok, okTargets }) => {
  const R = 'rm-recursive-root-or-home';
  // The path reaches rm directly and through every value the line gives it.
  badTargets('ask', R, 'rm -rf', ['~', '/', '/etc', '/usr', '/var/lib', '/home', '~/.ssh', '~/.gnupg', '~/.aws', '/boot', '/opt']);
  // A folder that holds mish's own files: forbid (mish-own-files), whatever the policy files say.
  badTargets('forbid', 'mish-own-files', 'rm -rf', ['~/.config', '~/.local', '~/.local/state']);
  badTargets('ask', R, 'rm -fr', ['$HOME', '/srv', '/root']);
  badTargets('ask', R, 'rm -r -f', ['~/Documents', '..', '.']);
  badTargets('ask', 'protected-paths/home-subtree', 'rm -rf', ['~/projects/*', '~/src/app', '~/work/client']);
  badTargets('ask', 'protected-paths/platform-root', 'rm -rf', ['/Applications', '/Library', '/System', '/Volumes/Backup', '/mnt/c/Users']);
  // Spellings of rm and its flags.
  for (const l of [
    'rm --recursive --force ~', 'rm -Rf /usr/lib', '/bin/rm -rf ~', '/usr/bin/rm -rf /etc', '\\rm -rf ~', 'command rm -rf ~', "'rm' -rf ~", 'rm -rf -- ~', 'rm ~ -rf',
    'rm -rf ~/', 'rm -rf ~/*', 'rm -rf "$HOME"/*', 'rm -rf ${HOME}', 'rm -rf $HOME/..', 'rm -rf ~/..', 'rm -rf /tmp/../etc', 'rm -rf /{etc,usr}', 'rm -rf /e*', 'rm -rf /v?r',
    'rm -rf ../..', 'rm -rf ./*', 'rm -rf *', 'rm -rf .git', 'rm -rf ./.git', 'rm -rf ../.git', 'rm -rf /home/me', 'rm -rf /var/lib/docker', 'rm -rf /usr/local/lib', 'rm -rf ~/.kube', 'rm -rf ~/.docker', 'rm -rf ~/.password-store',
    'rm -rf ~/Desktop', 'rm -rf ~/Downloads', 'rm -rf "$HOME/"', 'rm -rf ~ /tmp/cache', 'rm -rf build ~', 'rm -rf dist/ /', 'rm -rf "${HOME:?}"',
    'rm -rf "$(dirname "$PWD")"', 'rm -rf "$(git rev-parse --show-toplevel)"', 'rm -rf $(pwd)', 'rm -rf "$PWD"', 'rm -rf "${HOME%/*}"', 'rm -rf "${PWD%/*}"',
    'pwd | xargs rm -rf', 'git rev-parse --show-toplevel | xargs rm -rf', 'ls -d ~/* | xargs rm -rf', 'echo $HOME | xargs -I{} rm -rf {}', 'cd ~ && rm -rf .', 'cd / && rm -rf etc', 'cd .. && rm -rf *', 'cd && rm -rf ./*',
    'env -C / rm -rf etc', 'sudo -D / rm -rf usr', 'f() { rm -rf "$@"; }; f ~', 'x=$HOME; y=$x; rm -rf "$y"', 'read -r d <<< "$HOME"; rm -rf "$d"',
    'a=(~); rm -rf "${a[0]}"', 'set -- /; rm -rf "$@"', 'rm -rf "$(echo ~)"', 'rm -rf `echo ~`', 'rm -rf "$(echo Lw== | base64 -d)"', 'rm -rf "$(printf %s /)"',
  ]) bad('ask', R, l, ['sudo', 'sh -c', 'subshell']);
  bad('forbid', 'rm-no-preserve-root', 'rm -rf --no-preserve-root /');
  bad('forbid', 'rm-no-preserve-root', 'rm --no-preserve-root -r /usr');
  // The path cannot be known before the line runs: the worst case.
  // ("$1" of the line itself is unknown; inside sh -c '…' with no words after it, it is empty: see the benign list.)
  bad('ask', 'unknown-target', 'rm -rf "$1"', ['subshell', 'and']);
  for (const l of ['rm -rf "$BUILD_DIR"', 'rm -rf $DIR', 'rm -rf "$(cat dirs.txt)"', 'cat list | xargs rm -rf', 'xargs rm -rf < dirs.txt', 'xargs -a dirs.txt rm -rf', 'read d; rm -rf "$d"', "sh -c 'rm -rf \"$1\"' _ \"$TARGET\""])
    bad('ask', l.includes('mktemp') ? R : 'unknown-target', l, ['sh -c', 'subshell']);
  bad('ask', 'unknown-target', 'rm -rf "$BUILD_DIR/"');
  bad('ask', 'unknown-target', 'rm -rf "$STEAMROOT/"*');
  // Single files that matter.
  for (const l of ['rm /etc/passwd', 'rm -f /etc/shadow', 'rm ~/.ssh/id_rsa', 'rm -f ~/.ssh/id_ed25519', 'rm ~/.bashrc', 'rm -f ~/.zshrc', 'rm ~/.gitconfig', 'rm -f ~/.netrc', 'unlink /etc/sudoers', 'shred -u ~/.ssh/id_ed25519', 'rm /boot/vmlinuz', 'rm -f ~/.aws/credentials', 'rm -f ~/.kube/config', 'rm /usr/bin/python3'])
    bad('ask', 'rm-system-file', l, ['sudo', 'sh -c', 'subshell', 'function']);
  // History files (session 6): deleting, moving away, emptying, replacing or linking one away.
  for (const l of ['rm ~/.bash_history', 'rm -f ~/.zsh_history', 'shred -u ~/.bash_history', 'unlink ~/.python_history', 'rm ~/.local/share/fish/fish_history', 'mv ~/.bash_history /tmp/h', 'rm -f /root/.bash_history'])
    bad('ask', 'rm-history-file', l, ['sudo', 'sh -c', 'subshell']);
  for (const l of ['ln -sf /dev/null ~/.bash_history', ': > ~/.zsh_history', 'truncate -s 0 ~/.bash_history', 'cp /dev/null ~/.bash_history', 'cat /dev/null > ~/.psql_history', 'echo > ~/.node_repl_history'])
    bad('ask', 'write-history-file', l, ['sudo', 'sh -c', 'subshell']);
  for (const l of ['mv ~ /tmp/x', 'mv /etc /tmp/etc', 'mv ~/.ssh /tmp/', 'mv /usr /usr.bak', 'mv ~/.gnupg ~/.gnupg.old'])
    bad('ask', 'mv-system-dir', l);
  bad('ask', 'protected-paths/git-internals', 'rm -rf .git/objects');
  bad('ask', 'protected-paths/git-internals', 'rm -rf .git/refs');
  bad('ask', 'protected-paths/git-internals', 'rm -f .git/index');
  bad('ask', 'protected-paths/glob-matches-git', 'rm -rf .g*');
  bad('ask', 'protected-paths/glob-matches-git', 'rm -rf .[!.]*');
  bad('ask', 'protected-paths/glob-matches-git', 'rm -rf .??*');

  // Benign: build output, caches and scratch folders, the same ways.
  okTargets('rm -rf', ['node_modules', 'dist', 'build', './build', 'target', '.next', 'coverage', '__pycache__', '/tmp/build-123', '.turbo', 'out/', '.pytest_cache', '~/.cache/pip', '~/.npm/_cacache', '~/projects/app/node_modules', '.venv']);
  for (const l of [
    'rm -rf node_modules dist', 'rm -rf .next .turbo', 'rm -rf dist/ coverage/', 'rm -r ./dist/*', 'rm -rf build/*', 'rm -f *.o', 'rm -f core.*', 'rm *.log', 'rm file.txt', 'rm -f package-lock.json', 'rm -i notes.md',
    'rm -rf src/generated', 'rm -rf /var/tmp/myapp/cache', 'rmdir empty-dir', 'unlink old-link', 'rm -rf "$TMPDIR/work"', 'rm -rf "$(mktemp -d)"', 'rm -rf build/"$name"', 'rm -rf ./dist/"$PKG"', "sh -c 'rm -rf \"$1\"'", "sh -c 'rm -rf \"$1\"' _ dist",
    'rm -rf "~"', "rm -rf '~'", 'rm -rf .git/worktrees/x', 'rm -rf .gradle', 'rm -rf .idea', 'rm -rf .cache', 'rm -rf test-results playwright-report', 'rm -f .DS_Store', 'rm -rf vendor/bundle',
    'rm -rf ~/projects/foo/node_modules', 'rm -rf ~/.cache/puppeteer', 'rm -rf ~/.m2/repository/com/example', 'rm -rf ~/.gradle/caches', 'rm -rf ~/.cargo/registry/cache', 'rm -rf ~/go/pkg/mod/cache',
    'tmp=$(mktemp -d); rm -rf "$tmp"', 'd=dist; rm -rf "$d"', 'for d in dist build; do rm -rf "$d"; done', 'rm -rf "$PWD/dist"', 'rm -rf "$(pwd)/build"',
    'rm -rf "$(git rev-parse --show-toplevel)/dist"', 'find . -name node_modules -type d -prune -exec rm -rf {} +', 'find . -name "*.pyc" -delete', 'find build -type f -name "*.map" -delete',
    'git clean -n', 'rm -rf -- ./-weird-name', 'rm -v build/app.js', 'rm -rf packages/*/dist', 'rm -rf apps/web/.next', 'rm -r tmp/', 'rm -rf /tmp/mish-test', 'cd /tmp && rm -rf build-123',
    'cd dist && rm -rf ./*', 'mv build dist', 'mv old.txt new.txt', 'mv src/a.ts src/b.ts', 'mv ~/Downloads/x.zip .', 'ls ~', 'du -sh ~/.cache', 'ls -la /', 'ls -d ~/*',
    'history -c', 'tail -n 50 ~/.bash_history', 'grep npm ~/.zsh_history', 'wc -l ~/.bash_history', 'rm -f ./.bash_history', 'cp ~/.bash_history /tmp/history.txt',
  ]) ok(l, ['then', 'bash -lc']);
};
