export const title = 'Git: history rewritten or dropped, uncommitted work discarded, remote branches forced or deleted';
export default ({ bad, ok }) => {
  const W = ['sudo', 'timeout', 'sh -c', 'subshell', 'and', 'function', 'if', 'then'];
  for (const l of ['git push --force origin main', 'git push -f', 'git push -f origin HEAD:main', 'git push --force-with-lease origin main', 'git push --force-if-includes origin main', 'git push --mirror', 'git push --delete origin release', 'git push -d origin v1.0', 'git push --prune origin', 'git -C ../app push -f', 'git -c push.default=current push --force', 'git push origin main --force', 'git push -uf origin main'])
    bad('ask', 'git-push-force', l, W);
  for (const l of ['git push origin +main', 'git push origin :main', 'git push origin +HEAD:refs/heads/main', 'git push upstream :refs/tags/v1']) bad('ask', 'git-push-force-refspec', l, W);
  for (const l of ['git reset --hard', 'git reset --hard HEAD~3', 'git reset --hard origin/main', 'git reset --merge', 'git -C repo reset --hard', 'git stash && git reset --hard HEAD~1']) bad('ask', 'git-reset-hard', l, W);
  for (const l of ['git clean -fdx', 'git clean -ffdx', 'git clean -f', 'git clean --force -d', 'git clean -xdf .']) bad('ask', 'git-clean-force', l, W);
  for (const l of ['git checkout -- .', 'git checkout .', 'git restore .', 'git checkout HEAD -- .', 'git restore --source=HEAD~5 .']) bad('ask', 'git-checkout-discard', l, W);
  bad('ask', 'git-restore-worktree', 'git restore --worktree --staged :/');
  for (const l of ['git branch -D feature', 'git branch -D main', 'git branch -Df old']) bad('ask', 'git-branch-force-delete', l, W);
  bad('ask', 'git-branch-force-delete-long', 'git branch --delete --force feature', W);
  bad('ask', 'git-update-ref-delete', 'git update-ref -d refs/heads/main', W);
  for (const l of ["git filter-branch --force --index-filter 'git rm --cached --ignore-unmatch secrets.txt' HEAD", 'git filter-repo --path secrets --invert-paths', 'git reflog expire --expire=now --all', 'git stash clear', 'git stash drop', 'git tag -d v1.0.0', 'git symbolic-ref -d HEAD', 'git reflog delete HEAD@{1}'])
    bad('ask', 'git-history-rewrite', l, W);
  bad('ask', 'git-gc-prune-now', 'git gc --prune=now', W);
  bad('ask', 'git-gc-prune-now', 'git gc --aggressive --prune=now', W);
  bad('ask', 'git-worktree-remove-force', 'git worktree remove --force ../wt-feature', W);
  bad('ask', 'deleting/git-rm-all', 'git rm -r .', W);
  bad('ask', 'deleting/git-rm-all', 'git rm -rf .', W);
  bad('ask', 'deleting/git-clean-no-force', 'git -c clean.requireForce=false clean -dx', W);
  bad('ask', 'rm-recursive-root-or-home', 'rm -rf .git', W);
  // Commands git runs itself are read.
  bad('ask', 'rm-recursive-root-or-home', "git submodule foreach 'rm -rf ~'");
  bad('ask', 'git-reset-hard', "git submodule foreach --recursive 'git reset --hard'");
  bad('ask', 'git-push-force', "git rebase --exec 'git push -f' main");
  bad('ask', 'rm-recursive-root-or-home', 'git bisect run rm -rf ~');

  for (const l of ['git push origin feature/login', 'git push -u origin HEAD', 'git push', 'git push origin main', 'git push --tags', 'git push --dry-run --force origin main', 'git push origin v1.2.3', 'git push --set-upstream origin fix/typo',
    'git reset HEAD src/app.ts', 'git reset --soft HEAD~1', 'git reset --keep HEAD~1', 'git reset', 'git reset --mixed HEAD~1', 'git clean -n', 'git clean -nfd', 'git clean --dry-run -fdx',
    'git checkout -b feature/x', 'git checkout main', 'git checkout -- src/app.ts', 'git checkout HEAD~1 -- package.json', 'git restore --staged .', 'git restore src/index.ts', 'git switch -c fix/bug',
    'git branch -d merged-feature', 'git branch -a', 'git branch --show-current', 'git stash', 'git stash pop', 'git stash list', 'git stash show -p', 'git gc', 'git tag v1.0.0', 'git tag -l',
    'git log --oneline -20', 'git status --short', 'git diff HEAD~1', 'git fetch --prune', 'git fetch origin', 'git pull --rebase', 'git worktree add ../wt-feature feature', 'git worktree remove ../wt-feature',
    'git rebase main', 'git rebase -i HEAD~3', 'git commit --amend --no-edit', 'git cherry-pick abc123', 'git merge --no-ff feature', 'git revert HEAD', 'git rm --cached .env', 'git rm src/old.ts', 'git rm -r --cached node_modules',
    'git reflog', 'git show HEAD:README.md', 'git blame src/app.ts', 'git submodule update --init --recursive', 'git submodule foreach git pull', "git rebase --exec 'npm test' main", 'git bisect run npm test',
    'git remote -v', 'git config user.name me', 'git config --get alias.st', 'git update-ref refs/heads/tmp HEAD', 'git filter-branch --help', 'git archive -o out.zip HEAD', 'git clone https://github.com/org/repo.git',
  ]) ok(l);
};
