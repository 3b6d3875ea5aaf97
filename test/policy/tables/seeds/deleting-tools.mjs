export const title = 'Deleting or emptying files with tools other than rm: find, fd, rsync --delete, archivers, mv, rimraf, truncate, shred';
export default ({ bad, ok }) => {
  for (const l of ['find / -delete', 'find ~ -delete', 'find /etc -type f -delete', 'find ~ -mindepth 1 -delete', 'find $HOME -name "*" -delete', 'find / -exec rm -rf {} \\;', 'find ~ -exec rm -rf {} +', 'find . -exec rm -rf / \\;', 'find ~/.ssh -type f -exec shred -u {} \\;', 'find ~ -maxdepth 1 -execdir rm -rf {} +', 'find .. -delete', 'find . -delete'])
    // shred of everything below ~/.ssh includes authorized_keys: a privilege file (operator).
    bad(l.includes('shred') ? 'operator' : 'ask', l.includes('shred') ? 'write-privilege-file' : 'rm-recursive-root-or-home', l, ['sudo', 'sh -c', 'subshell', 'and', 'function']);
  // A find or fd whose matches can be a repository's .git, or anything in the project.
  for (const l of ['find . -name .git -exec rm -rf {} +', 'find . -type d -name .git -prune -exec rm -rf {} +', "find . -name '*' -delete", 'find . -type f -delete', 'find . -mindepth 1 -delete', "fd -H -t d '^\\.git$' -x rm -rf", 'fd -H -g .git -X rm -rf', "fd -u -t d -g '.git' -X rm -rf"])
    bad('ask', 'rm-recursive-root-or-home', l, ['sudo', 'sh -c', 'subshell', 'and']);
  // fd -x / -X CMD runs CMD on what it finds below its search paths (read like find -exec).
  for (const l of ['fd . / -x rm -rf', 'fdfind -H . ~ --exec rm -rf', 'fd -H . /etc -X rm -rf']) bad('ask', 'rm-recursive-root-or-home', l, ['sudo', 'sh -c', 'subshell', 'and']);
  bad('ask', 'protected-paths/home-subtree', "fd . ~/projects -x sh -c 'rm -rf {}'", ['sudo', 'subshell', 'and']);
  bad('ask', 'rm-system-file', 'fd -t f . ~ -x shred -u', ['sudo', 'sh -c', 'subshell', 'and']);
  for (const l of ['rsync -a --delete empty/ ~/', 'rsync -a --delete /tmp/empty/ /etc/', 'rsync -av --delete-before empty/ ./', 'rsync -r --del empty/ ~/projects/', 'rsync -a --delete-after /tmp/e/ ../']) bad('ask', 'deleting/rsync-delete-protected', l, ['sudo', 'sh -c', 'subshell', 'and']);
  for (const l of ['tar czf a.tgz --remove-files src', 'tar -cf backup.tar --remove-files ~/Documents', 'zip -rm a.zip src', 'zip -m a.zip secrets', 'zip -r --move out.zip data', '7z a -sdel a.7z src', '7za a -sdel b.7z ~/projects'])
    bad('ask', 'deleting/archive-removes-sources', l, ['sudo', 'sh -c', 'subshell', 'and']);
  for (const l of ['mv data.db /dev/null', 'mv ~/.ssh/id_rsa /dev/null', 'mv src /dev/null']) bad('ask', 'deleting/move-to-dev-null', l, ['sh -c', 'subshell', 'and']);
  for (const l of ['npx rimraf ~', 'npm exec -- rimraf ~', 'pnpm dlx rimraf /', 'bunx rimraf ~/*', 'rimraf .', 'npx del-cli ~', 'trash ~/Documents', 'trash-put ~', 'gio trash ~/projects'])
    bad('ask', 'deleting/rimraf', l, ['sh -c', 'subshell', 'and', 'timeout']);
  for (const l of ['truncate -s 0 prod.db', 'truncate -s 0 data/app.sqlite3', ': > .git/index', '> db.sqlite', 'truncate --size=0 .git/HEAD', 'echo -n > app.db'])
    bad('ask', 'deleting/empty-data-file', l, ['sh -c', 'subshell', 'and']);
  // A history file has its own rule (files.mjs), which names what it is.
  bad('ask', 'write-history-file', 'cat /dev/null > ~/.bash_history', ['sh -c', 'subshell', 'and']);
  for (const l of ['shred -u ~/.bashrc', 'shred -zu /etc/hosts', 'srm -r ~', 'unlink ~/.zshrc']) bad('ask', l.startsWith('srm') ? 'rm-recursive-root-or-home' : 'rm-system-file', l, ['sudo', 'sh -c', 'subshell']);

  for (const l of ['find . -name "*.pyc" -delete', 'find . -type d -name __pycache__ -exec rm -rf {} +', 'find /tmp -maxdepth 1 -name "build-*" -mtime +7 -delete', 'find dist -name "*.map" -delete', 'find . -name .DS_Store -delete', 'find src -name "*.orig" -exec rm {} \\;',
    'find . -name "*.log" -print', 'find ~ -name "*.pdf" -print', 'find / -name libssl.so 2>/dev/null', 'find . -type f -newer package.json', 'fd -e pyc -x echo', 'fd -e ts', 'fd -H .env', 'fd -e pyc -X rm', 'fd -t d node_modules -x rm -rf', 'find . -type d -empty -delete', 'find . -name .git -type d', 'find . -name ".git" -delete', 'find . -type f -name "*.log" -delete', 'fd -H .gitignore', 'fd -e orig -X rm -f', 'fd -e png -x convert {} {.}.webp',
    'rsync -a --delete src/ dist/', 'rsync -av --delete build/ deploy@host:/srv/www/', 'rsync -a src/ backup/', 'rsync -avz ./dist/ server:/var/www/html/', 'tar czf a.tgz src', 'tar xzf release.tgz', 'tar -tf backup.tar',
    'zip -r a.zip src', 'unzip -o assets.zip -d public', '7z a backup.7z docs', '7z x archive.7z', 'mv build /tmp/old-build', 'mv a.db b.db', 'npx rimraf dist', 'npx rimraf node_modules build', 'npm exec -- rimraf coverage', 'pnpm dlx rimraf .turbo',
    'rimraf ./out', 'npx del-cli "dist/**"', 'trash build', 'truncate -s 0 app.log', 'truncate -s 10M disk.img', ': > build.log', '> output.txt', 'cat /dev/null > debug.log', 'shred -u /tmp/x', 'shred -u secrets.tmp', 'cp -r src dist', 'ln -sf ../shared lib/shared',
    'find . -maxdepth 2 -name package.json', 'find node_modules -name "*.d.ts" | wc -l', 'find . -name "*.test.ts" | xargs grep -l describe', 'find . -type f -print0 | xargs -0 wc -l', 'ls | xargs -n1 echo', 'git ls-files -z | xargs -0 prettier --check',
  ]) ok(l);
};
