import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectTool, detectionCategory, executableName } from './detect.js';
import { GrammarRegistry, type GrammarSet } from './registry.js';
import { TempTree } from './test-helpers.js';

const tree = new TempTree();
let set: GrammarSet;

/** Tiny grammars: just enough detect/actions data to exercise detection. */
const GRAMMARS: Record<string, string> = {
  npm: `[grammar]\nname = "npm"\ncategory = "condense"\n[detect]\ncommands = ["npm", "npx"]\n[actions.install]\naliases = ["i", "ci", "add"]\n[actions.exec]\naliases = ["x"]\n[actions.test]\naliases = ["t", "tst"]\n`,
  yarn: `[detect]\ncommands = ["yarn"]\n[actions.add]\n[actions.install]\n`,
  pnpm: `[detect]\ncommands = ["pnpm"]\n[actions.install]\naliases = ["i"]\n[actions.add]\n`,
  eslint: `[detect]\ncommands = ["eslint"]\n`,
  tsc: `[detect]\ncommands = ["tsc"]\n`,
  vitest: `[detect]\ncommands = ["vitest"]\n[actions.run]\n`,
  prettier: `[detect]\ncommands = ["prettier"]\n`,
  ruff: `[detect]\ncommands = ["ruff"]\n[actions.check]\n`,
  pytest: `[detect]\ncommands = ["pytest", "py.test"]\n`,
  pip: `[detect]\ncommands = ["pip", "pip3"]\n[actions.install]\n`,
  python: `[detect]\ncommands = ["python", "python3"]\n`,
  git: `[grammar]\ncategory = "condense"\n[detect]\ncommands = ["git"]\n[actions.status]\ncategory = "structured"\n[actions.diff]\ncategory = "passthrough"\n[actions.commit]\n`,
  cargo: `[detect]\ncommands = ["cargo"]\n[actions.build]\naliases = ["b"]\n[actions.test]\naliases = ["t"]\n`,
  make: `[detect]\ncommands = ["make", "gmake"]\nvalue_flags = ["-j"]\n[actions.test]\naliases = ["check"]\n[actions.all]\n`,
  rspec: `[detect]\ncommands = ["rspec"]\n`,
  bundle: `[detect]\ncommands = ["bundle"]\n[actions.install]\n`,
  cc: `[detect]\ncommands = ["cc"]\ndialects = { gcc = ["gcc", "g++", "cc", "c++"], clang = ["clang", "clang++"] }\n`,
};

beforeAll(() => {
  for (const [name, text] of Object.entries(GRAMMARS)) tree.write(`builtin/${name}.toml`, text);
  const reg = new GrammarRegistry({ builtinDir: tree.path('builtin'), userDir: null, projectGrammars: false });
  set = reg.snapshot();
  expect(set.errors).toEqual([]);
});
afterAll(() => tree.dispose());

/** Detects a command line written as words separated by single spaces. */
function d(cmd: string) {
  const det = detectTool(cmd.split(' '), set);
  return det && { grammar: det.grammar.name, action: det.action, dialect: det.dialect, argv: det.argv.join(' '), via: det.via };
}

describe('detectTool: direct', () => {
  it('matches the executable basename, absolute paths and versioned names', () => {
    expect(d('eslint .')).toEqual({ grammar: 'eslint', action: undefined, dialect: undefined, argv: 'eslint .', via: [] });
    expect(d('/usr/local/bin/tsc -p .')?.grammar).toBe('tsc');
    expect(d('./node_modules/.bin/vitest run')).toMatchObject({ grammar: 'vitest', action: 'run' });
    expect(d('python3.12 script.py')?.grammar).toBe('python');
    expect(executableName('C:\\tools\\npm.cmd')).toBe('npm');
  });

  it('returns undefined for unknown tools and empty argv', () => {
    expect(d('ls -la')).toBeUndefined();
    expect(detectTool([], set)).toBeUndefined();
  });

  it('selects dialects', () => {
    expect(d('/usr/bin/gcc -c a.c')).toMatchObject({ grammar: 'cc', dialect: 'gcc' });
    expect(d('g++ a.cc')).toMatchObject({ grammar: 'cc', dialect: 'gcc' });
    expect(d('cc a.c')).toMatchObject({ grammar: 'cc', dialect: 'gcc' });
    expect(d('clang++-17 a.cc')).toMatchObject({ grammar: 'cc', dialect: 'clang' });
    expect(d('/opt/llvm/bin/clang -O2 x.c')).toMatchObject({ grammar: 'cc', dialect: 'clang' });
  });

  it('picks the action from the first non-flag argument, skipping flags with values', () => {
    expect(d('npm install')?.action).toBe('install');
    expect(d('npm i -D vitest')?.action).toBe('install');
    expect(d('npm --prefix sub ci')?.action).toBe('install');
    expect(d('npm run build')?.action).toBeUndefined();
    expect(d('git -C some/dir status')?.action).toBe('status');
    expect(d('git -c core.pager=cat diff HEAD')?.action).toBe('diff');
    expect(d('git --no-pager --git-dir .git commit -m x')?.action).toBe('commit');
    expect(d('cargo +nightly build --release')?.action).toBe('build');
    expect(d('cargo -Z unstable-options t')?.action).toBe('test');
    expect(d('make -C dir check')?.action).toBe('test');
    expect(d('make -j 4 test')?.action).toBe('test');
    expect(d('make -j test')?.action).toBe('test');
    expect(d('make -j8 all')?.action).toBe('all');
    expect(d('make CC=clang all')?.action).toBe('all');
    expect(d('make -f Makefile.ci test')?.action).toBe('test');
    expect(d('gmake -- check')?.action).toBe('test');
  });

  it('gives the action category before the grammar category', () => {
    expect(detectionCategory(detectTool(['git', 'diff'], set)!)).toBe('passthrough');
    expect(detectionCategory(detectTool(['git', 'status'], set)!)).toBe('structured');
    expect(detectionCategory(detectTool(['git', 'commit'], set)!)).toBe('condense');
    expect(detectionCategory(detectTool(['eslint'], set)!)).toBeUndefined();
  });
});

describe('detectTool: wrappers', () => {
  it('npx, pnpx, bunx (with flags, versions and scopes)', () => {
    expect(d('npx eslint .')).toEqual({ grammar: 'eslint', action: undefined, dialect: undefined, argv: 'eslint .', via: ['npx'] });
    expect(d('npx -y --package=typescript tsc --noEmit')).toMatchObject({ grammar: 'tsc', argv: 'tsc --noEmit' });
    expect(d('npx -p typescript tsc')).toMatchObject({ grammar: 'tsc', argv: 'tsc' });
    expect(d('npx prettier@3.1.0 --check .')).toMatchObject({ grammar: 'prettier', argv: 'prettier --check .' });
    expect(d('npx @acme/eslint@latest src')).toMatchObject({ grammar: 'eslint', argv: 'eslint src' });
    expect(d('pnpx vitest run')).toMatchObject({ grammar: 'vitest', action: 'run', via: ['pnpx'] });
    expect(d('bunx tsc')).toMatchObject({ grammar: 'tsc', via: ['bunx'] });
    expect(d('bun x eslint')).toMatchObject({ grammar: 'eslint', via: ['bun x'] });
  });

  it('falls back to the wrapper’s own grammar when the wrapped tool is unknown', () => {
    expect(d('npx cowsay hi')).toEqual({ grammar: 'npm', action: undefined, dialect: undefined, argv: 'npx cowsay hi', via: [] });
    expect(d('npx')).toMatchObject({ grammar: 'npm' });
    expect(d('npm exec -- cowsay')).toMatchObject({ grammar: 'npm', action: 'exec' });
  });

  it('npm exec / npm x', () => {
    expect(d('npm exec -- vitest run')).toMatchObject({ grammar: 'vitest', action: 'run', argv: 'vitest run', via: ['npm exec'] });
    expect(d('npm exec --package=eslint -- eslint .')).toMatchObject({ grammar: 'eslint', argv: 'eslint .' });
    expect(d('npm x -y tsc')).toMatchObject({ grammar: 'tsc', via: ['npm x'] });
    expect(d('npm -w pkg exec tsc')).toMatchObject({ grammar: 'tsc' });
  });

  it('pnpm dlx / exec / <bin>, and pnpm built-ins stay pnpm', () => {
    expect(d('pnpm dlx tsc -p .')).toMatchObject({ grammar: 'tsc', via: ['pnpm dlx'] });
    expect(d('pnpm exec eslint .')).toMatchObject({ grammar: 'eslint', via: ['pnpm exec'] });
    expect(d('pnpm -C packages/app exec tsc')).toMatchObject({ grammar: 'tsc' });
    expect(d('pnpm vitest run')).toMatchObject({ grammar: 'vitest', action: 'run', via: ['pnpm'] });
    expect(d('pnpm install')).toMatchObject({ grammar: 'pnpm', action: 'install', via: [] });
    expect(d('pnpm i')).toMatchObject({ grammar: 'pnpm', action: 'install' });
    expect(d('pnpm build')).toMatchObject({ grammar: 'pnpm', action: undefined }); // a script
  });

  it('yarn dlx / exec / run / <bin> / workspace, and yarn built-ins stay yarn', () => {
    expect(d('yarn dlx eslint .')).toMatchObject({ grammar: 'eslint', via: ['yarn dlx'] });
    expect(d('yarn eslint .')).toMatchObject({ grammar: 'eslint', argv: 'eslint .', via: ['yarn'] });
    expect(d('yarn --cwd app vitest run')).toMatchObject({ grammar: 'vitest', action: 'run' });
    expect(d('yarn run tsc')).toMatchObject({ grammar: 'tsc', via: ['yarn run'] });
    expect(d('yarn exec tsc')).toMatchObject({ grammar: 'tsc', via: ['yarn exec'] });
    expect(d('yarn add lodash')).toMatchObject({ grammar: 'yarn', action: 'add', via: [] });
    expect(d('yarn test')).toMatchObject({ grammar: 'yarn', action: undefined }); // a script
    expect(d('yarn')).toMatchObject({ grammar: 'yarn' });
    expect(d('yarn workspace app add lodash')).toMatchObject({ grammar: 'yarn', action: 'add' });
    expect(d('yarn workspace app vitest')).toMatchObject({ grammar: 'vitest', via: ['yarn workspace', 'yarn'] });
  });

  it('python -m module', () => {
    expect(d('python -m pytest -x tests')).toEqual({ grammar: 'pytest', action: undefined, dialect: undefined, argv: 'pytest -x tests', via: ['python -m'] });
    expect(d('python3 -m pip install requests')).toMatchObject({ grammar: 'pip', action: 'install', argv: 'pip install requests', via: ['python3 -m'] });
    expect(d('/usr/bin/python3.12 -u -X dev -m pytest')).toMatchObject({ grammar: 'pytest', via: ['python3.12 -m'] });
    expect(d('python -mpytest')).toMatchObject({ grammar: 'pytest', argv: 'pytest' });
    expect(d('python script.py -m pytest')).toMatchObject({ grammar: 'python', argv: 'python script.py -m pytest' });
    expect(d('python -c pass')).toMatchObject({ grammar: 'python' });
    expect(d('python -m http.server')).toMatchObject({ grammar: 'python', via: [] });
  });

  it('uv run, uvx, uv tool run, poetry run, pipx run', () => {
    expect(d('uv run pytest -q')).toMatchObject({ grammar: 'pytest', argv: 'pytest -q', via: ['uv run'] });
    expect(d('uv run --with rich --python 3.12 pytest')).toMatchObject({ grammar: 'pytest' });
    expect(d('uv run python -m pytest')).toMatchObject({ grammar: 'pytest', via: ['uv run', 'python -m'] });
    expect(d('uvx ruff check .')).toMatchObject({ grammar: 'ruff', action: 'check', via: ['uvx'] });
    expect(d('uv tool run ruff check')).toMatchObject({ grammar: 'ruff', via: ['uv tool run'] });
    expect(d('poetry run pytest')).toMatchObject({ grammar: 'pytest', via: ['poetry run'] });
    expect(d('pipx run ruff check')).toMatchObject({ grammar: 'ruff', action: 'check', via: ['pipx run'] });
  });

  it('bundle exec: the command it runs with the bundle (bundle install stays bundle)', () => {
    expect(d('bundle exec rspec spec/cart_spec.rb')).toMatchObject({ grammar: 'rspec', argv: 'rspec spec/cart_spec.rb', via: ['bundle exec'] });
    expect(d('bundle --gemfile gems/Gemfile exec rspec')).toMatchObject({ grammar: 'rspec', via: ['bundle exec'] });
    expect(d('bundle install --local')).toMatchObject({ grammar: 'bundle', action: 'install', via: [] });
  });

  it('command prefixes: env, time, nice, timeout, nohup', () => {
    expect(d('env CI=1 FORCE_COLOR=0 npx vitest run')).toMatchObject({ grammar: 'vitest', action: 'run', via: ['env', 'npx'] });
    expect(d('time make test')).toMatchObject({ grammar: 'make', action: 'test', via: ['time'] });
    expect(d('nice -n 10 cargo build')).toMatchObject({ grammar: 'cargo', action: 'build' });
    expect(d('timeout -s KILL 30s npm ci')).toMatchObject({ grammar: 'npm', action: 'install', via: ['timeout'] });
    expect(d('nohup python3 -m pytest')).toMatchObject({ grammar: 'pytest', via: ['nohup', 'python3 -m'] });
    expect(d('env')).toBeUndefined();
  });
});
