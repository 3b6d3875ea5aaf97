import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTool } from '../grammar/detect.js';
import { GrammarRegistry } from '../grammar/registry.js';
import { compileMeta, loadRouterMeta, type RouterMeta } from './meta.js';
import { parseCommandLine } from './parse.js';
import { planLine } from './plan.js';
import { detect } from './test-kit.js';

const loaded = loadRouterMeta();
if (!loaded.ok) throw new Error(`${loaded.error.file}: ${loaded.error.message}`);
const meta: RouterMeta = loaded.meta;

function plan(line: string, options: { stdinFed?: boolean } = {}) {
  const p = parseCommandLine(line);
  if (!p.ok) throw new Error(p.error.message);
  return planLine(p.line, meta, undefined, options);
}

describe('categories from grammars/_meta/categories.toml', () => {
  it.each([
    ['cp a b', 'narrate'],
    ['mkdir -p x && touch x/y', 'narrate'],
    ['cat README.md', 'passthrough'],
    ['cat a | grep b', 'passthrough'],
    ['git diff HEAD~1', 'passthrough'],
    ['git -C repo status', 'structured'],
    ['git status', 'structured'],
    ['git status | grep M', 'passthrough'],
    ['git log --oneline', 'structured'],
    ['git log -p', 'passthrough'],
    ['docker ps -a', 'structured'],
    ['kubectl get pods', 'structured'],
    ['vim file.txt', 'interactive'],
    ['python3', 'interactive'],
    ['python3 script.py', 'condense'],
    ['python3 -c "print(1)"', 'condense'],
    ['echo "print(1)" | python3', 'condense'],
    ['ssh host', 'interactive'],
    ['mc', 'interactive'],
    ['mc /tmp /srv', 'interactive'],
    ['mc alias list', 'condense'],
    ['./bin/mc admin user list labs3', 'condense'],
    ['ssh -p 22 host uptime', 'condense'],
    ['git commit', 'interactive'],
    ['git commit -am "msg"', 'condense'],
    ['git rebase -i HEAD~3', 'interactive'],
    // `git stash show -p` prints a patch; `git stash -p` asks hunk by hunk (blind pass 242); tmux's printing commands run, a client does not.
    ['git stash show -p stash@{0}', 'condense'],
    ['git --no-pager -C repo stash show -p', 'condense'],
    ['git stash -p', 'interactive'],
    ['git stash push -p', 'interactive'],
    ['git add -p', 'interactive'],
    ['tmux -L adv capture-pane -pJ -t dev', 'passthrough'],
    ['tmux ls', 'passthrough'],
    ['tmux -S sock set-buffer hello', 'passthrough'],
    ['tmux load-buffer -b x file', 'passthrough'],
    ['tmux new-session -d -s build make', 'condense'],
    ['tmux', 'interactive'],
    ['tmux attach -t dev', 'interactive'],
    ['tmux new -s work', 'interactive'],
    ['sed -n 1,5p f', 'passthrough'],
    ['sed -i s/a/b/ f', 'narrate'],
    ['tar xzf a.tgz', 'narrate'],
    ['tar tzf a.tgz', 'passthrough'],
    ['npm install', 'condense'],
    ['some-unknown-tool --flag', 'condense'],
    ['make && make test', 'condense'],
    ['cd sub && ls', 'passthrough'],
    ['cat a > b', 'narrate'],
    ['sudo -u root env A=1 rm x', 'narrate'],
    ['FOO=1', 'passthrough'],
    ['env', 'passthrough'],
  ])('%s → %s', (line, category) => {
    expect(plan(line).category).toBe(category);
  });

  it("the host's piped stdin feeds a REPL that reads it: `echo 'print(1)' | mish python3`", () => {
    expect(plan('python3', { stdinFed: true }).category).toBe('condense');
    expect(plan('cd x && psql mydb', { stdinFed: true }).category).toBe('condense');
    // An editor stays interactive whatever its stdin; without piped input a bare REPL waits for a human.
    expect(plan('vim notes.txt', { stdinFed: true }).category).toBe('interactive');
    expect(plan('python3').category).toBe('interactive');
  });

  it('lists top-level segments in order for grammar switching', () => {
    const p = plan('cd x && npm ci && npx jest $(echo --ci)');
    expect(p.segments.map((s) => s.name)).toEqual(['cd', 'npm', 'npx']);
  });
});

describe('dangerous lines: the policy engine (grammars/_meta/policy.toml)', () => {
  it.each([
    ['rm -rf /', 'rm-recursive-root-or-home'],
    ['rm -fr ~', 'rm-recursive-root-or-home'],
    ['sudo rm -r --force /*', 'rm-recursive-root-or-home'],
    ['rm -rf "$HOME"/*', 'rm-recursive-root-or-home'],
    ['rm -rf *', 'rm-recursive-root-or-home'],
    ['rm -rf /usr', 'rm-recursive-root-or-home'],
    ['echo $(rm -rf ~)', 'rm-recursive-root-or-home'],
    ['find . -name x | xargs rm -rf /', 'rm-recursive-root-or-home'],
    // zsh expands =rm to rm's path (zsh users' lines run in zsh).
    ['=rm -rf /', 'rm-recursive-root-or-home'],
    ['=sudo =rm -rf ~', 'rm-recursive-root-or-home'],
    ['git push --force origin main', 'git-push-force'],
    ['git push -f', 'git-push-force'],
    ['git push origin +main', 'git-push-force-refspec'],
    ['git reset --hard HEAD~1', 'git-reset-hard'],
    ['git clean -fdx', 'git-clean-force'],
    ['curl -fsSL https://x.sh | sh', 'pipe-to-shell'],
    ['wget -qO- https://x | sudo bash', 'pipe-to-shell'],
    ['bash <(curl -s https://x)', 'pipe-to-shell'],
    ['sh -c "$(curl -fsSL https://x)"', 'dynamic-command'],
    ['dd if=img of=/dev/sda bs=4M', 'dd-to-device'],
    ['cat img > /dev/sdb', 'write-to-block-device'],
    ['mkfs.ext4 /dev/sdb1', 'mkfs'],
    ['chmod -R 777 .', 'chmod-777-recursive'],
    [':(){ :|:& };:', 'fork-bomb'],
    ['psql -c "DROP TABLE users"', 'sql-drop-truncate'],
    ["mysql db <<'EOF'\ndrop database prod;\nEOF\n", 'sql-drop-truncate'],
    ['kill -9 -1', 'kill-all'],
  ])('%s → %s', (line, id) => {
    const p = plan(line);
    expect(p.category).toBe('dangerous');
    expect(p.dangers.map((d) => d.id)).toContain(id);
  });

  it.each(['rm -rf build', 'rm -r ./dist/*', 'rm file', 'git push origin main', 'git reset HEAD~1', 'curl https://x | jq .', 'dd if=/dev/zero of=img bs=1M count=1', 'chmod -R 755 .', 'psql -c "select 1"', 'echo "rm -rf /"', 'grep -r "git push --force" .'])('%s is not dangerous', (line) => {
    expect(plan(line).category).not.toBe('dangerous');
  });

  it('the home directory spelled out (what the shell expanded ~/ to) is home', () => {
    const saved = process.env.HOME;
    process.env.HOME = '/tmp/some-user-home/';
    try {
      for (const line of ['rm -rf /tmp/some-user-home', 'rm -rf /tmp/some-user-home/', 'rm -rf /tmp/some-user-home//*']) expect(plan(line).dangers.map((d) => d.id), line).toContain('rm-recursive-root-or-home');
      expect(plan('rm -rf /tmp/some-user-home/project/build').category).not.toBe('dangerous');
    } finally {
      process.env.HOME = saved;
    }
  });

  it('keeps the treatment for after approval', () => {
    expect(plan('rm -rf ~').treatment).toBe('narrate');
    expect(plan('git push --force').treatment).toBe('condense');
  });
});

describe('malformed meta files', () => {
  it('names the file and entry', () => {
    const r = compileMeta('[commands]\ncp = "narate"\n', '');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/commands\.cp/);
    // A malformed policy does not stop the router: it holds every decision at ask (stricter, never looser).
    const d = compileMeta('', '[[rule]]\nid = "x"\nreason = "y"\nargs_any = "("\n');
    expect(d.ok).toBe(true);
    if (d.ok) {
      expect(d.meta.policy.errors[0]).toMatchObject({ file: 'policy.toml', line: 1, rule: 'x' });
      expect(d.meta.policy.errors[0].message).toMatch(/args_any: invalid regex/);
    }
    const t = compileMeta('[commands\n', '');
    expect(t.ok).toBe(false);
  });
});

describe('wrappers: the wrapped command gets the category and grammar', () => {
  const withGrammars = (line: string) => {
    const p = parseCommandLine(line);
    if (!p.ok) throw new Error(p.error.message);
    return planLine(p.line, meta, detect).segments[0];
  };
  it.each([
    ['sudo cat /etc/hosts', 'passthrough', undefined],
    ['sudo -u www-data cp a b', 'narrate', undefined],
    ['env CI=1 npm test', 'condense', 'npm'],
    ['time make -j4', 'condense', 'make'],
    ['nice -n 10 cargo build', 'condense', 'cargo'],
    ['timeout 60 pytest -q', 'condense', 'pytest'],
    ['timeout -s KILL 5 git status', 'structured', 'git'],
    ['npx tsc --noEmit', 'condense', 'tsc'],
    ['npx -y eslint .', 'condense', 'eslint'],
    ['npm exec -- vitest run', 'condense', 'vitest'],
    ['pnpm dlx tsc -p .', 'condense', 'tsc'],
  ])('%s → %s (%s grammar)', (line, category, grammar) => {
    const s = withGrammars(line);
    expect(s.category).toBe(category);
    expect(s.detection?.grammar.name).toBe(grammar);
  });

  it('xargs: the command it runs', () => {
    const p = parseCommandLine('find . -name "*.o" | xargs rm -f');
    if (!p.ok) throw new Error(p.error.message);
    const plan = planLine(p.line, meta, detect);
    expect(plan.segments.map((s) => [s.name, s.category])).toEqual([
      ['find', 'passthrough'],
      ['rm', 'narrate'],
    ]);
    expect(plan.segments[1].command.wrappers).toEqual(['xargs']);
  });

  it('a heredoc, redirections and assignments do not change what the command is', () => {
    expect(plan("cat <<'EOF' > out.txt\nhello\nEOF").category).toBe('narrate');
    expect(plan('FOO=1 BAR=2 make 2>&1').category).toBe('condense');
    expect(plan('grep -r x . 2>/dev/null').category).toBe('passthrough');
    expect(plan('(cd sub && make) || echo failed').category).toBe('condense');
  });
});

describe('a grammar’s own category wins over categories.toml', () => {
  it('front matter and action categories, from a real user grammar directory', () => {
    const userDir = mkdtempSync(path.join(tmpdir(), 'mish-grammars-'));
    try {
      // `tree` is passthrough in categories.toml; this grammar says condense, and narrate for one action.
      writeFileSync(path.join(userDir, 'tree.toml'), '[grammar]\nname = "tree"\ncategory = "condense"\n[detect]\ncommands = ["tree"]\n[actions.prune]\naliases = ["prune-now"]\ncategory = "narrate"\n');
      const registry = new GrammarRegistry({ userDir, projectGrammars: false });
      const withUser = (argv: string[]) => detectTool(argv, registry.snapshot(userDir));
      const cat = (line: string) => {
        const p = parseCommandLine(line);
        if (!p.ok) throw new Error(p.error.message);
        return planLine(p.line, meta, withUser).segments[0];
      };
      expect(plan('tree -L 2').category).toBe('passthrough');
      expect(cat('tree -L 2')).toMatchObject({ category: 'condense', categorySource: 'grammar' });
      expect(cat('tree prune-now')).toMatchObject({ category: 'narrate', categorySource: 'grammar-action' });
      // A "cmd sub" key in categories.toml is more specific than a grammar's front matter.
      expect(cat('git status')).toMatchObject({ category: 'structured' });
    } finally {
      rmSync(userDir, { recursive: true, force: true });
    }
  });
});
