/**
 * Where the built-in grammars of tools that print content route it (issue 23): an action that
 * prints what the agent reads and acts on (a JSON reply, a resource, a plan's state, a log) passes
 * through whole; the tool's builds, installs and status go through its grammar. Real grammars
 * (grammars/), the real router meta and planner: no tool runs.
 */
import { describe, expect, it } from 'vitest';
import { detectTool } from '../src/main/core/grammar/detect.js';
import { GrammarRegistry } from '../src/main/core/grammar/registry.js';
import { loadRouterMeta } from '../src/main/core/router/meta.js';
import { parseCommandLine } from '../src/main/core/router/parse.js';
import { planLine } from '../src/main/core/router/plan.js';

const loaded = loadRouterMeta();
if (!loaded.ok) throw new Error(`${loaded.error.file}: ${loaded.error.message}`);
const meta = loaded.meta;
const registry = new GrammarRegistry({ userDir: null, projectGrammars: false });
const detect = (argv: string[]) => detectTool(argv, registry.snapshot(process.cwd()));

function routed(line: string): { category: string; grammar?: string } {
  const p = parseCommandLine(line);
  if (!p.ok) throw new Error(p.error.message);
  const seg = planLine(p.line, meta, detect).segments[0];
  return { category: seg.category, grammar: detect(p.line.commands[0].argv)?.grammar.name };
}

describe('built-in grammars: content passes through, builds and installs are condensed', () => {
  it.each([
    ['gh api repos/octo-org/shop/pulls', 'passthrough', 'gh'],
    ['gh pr view 12', 'passthrough', 'gh'],
    ['gh pr list', 'passthrough', 'gh'],
    ['gh run watch 123', 'condense', 'gh'],
    ['gh auth status', 'condense', 'gh'],
    ['kubectl describe deployment web', 'passthrough', 'kubectl'],
    ['kubectl logs web-0', 'passthrough', 'kubectl'],
    ['kubectl apply -f deploy.yaml', 'condense', 'kubectl'],
    ['kubectl -n shop rollout status deployment/web', 'condense', 'kubectl'],
    ['kubectl get pods', 'structured', 'kubectl'],
    ['terraform plan', 'condense', 'terraform'],
    ['terraform -chdir=infra apply -auto-approve', 'condense', 'terraform'],
    ['terraform show', 'passthrough', 'terraform'],
    ['terraform output -json', 'passthrough', 'terraform'],
    ['bundle exec rspec spec/cart_spec.rb', 'condense', 'rspec'],
    ['npx next build', 'condense', 'next'],
    ['npx prisma validate', 'condense', 'prisma'],
    ['npx prisma migrate dev --name init', 'condense', 'prisma'],
    ['poetry run pytest -q', 'condense', 'pytest'],
    ['vite build', 'condense', 'vite'],
    ['curl -v http://127.0.0.1:8080/', 'passthrough', undefined],
  ])('%s → %s (%s)', (line, category, grammar) => {
    expect(routed(line)).toEqual({ category, grammar });
  });
});
