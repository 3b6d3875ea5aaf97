#!/usr/bin/env node
/**
 * Writes the domain tables (test/policy/tables/<domain>.tsv) from the seeds below: each seed is
 * a line written the way an agent's mistake or an injected instruction looks, with the decision
 * and the rule it must get; each is then varied the ways a line is really wrapped (sudo,
 * timeout, `sh -c '…'`, a subshell, `&&`, `if`, a function) and, for a seed whose danger is a
 * path, the ways that path reaches the command (a variable, `set --`, a function argument, a
 * `for` word, `printf -v`, `$(echo …)`, a pipe into xargs). A variation keeps the seed's
 * expectation: wrapping never changes what runs. Benign look-alikes get `allow default`.
 *
 * Run `node test/policy/tables/build.mjs` after editing the seeds; the .tsv files are committed
 * (read them, grep them) and policy-domains.test.ts asserts every row. Hand-written tables
 * (packs.tsv) are not touched.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- variations

/** A single simple command (a prefix wrapper such as sudo applies to it whole). */
const simple = (c) => !/[;&|(){}\n]|^[A-Za-z_]\w*=|^(?:cd|export|set|read|for|if|while)\b/.test(c);
/** Command wrappers an agent puts around a line (each keeps what runs). */
const WRAP = {
  sudo: (c) => (simple(c) ? `sudo ${c}` : undefined),
  'sudo -E': (c) => (simple(c) ? `sudo -E ${c}` : undefined),
  timeout: (c) => (simple(c) ? `timeout 60 ${c}` : undefined),
  nice: (c) => (simple(c) ? `nice -n 10 ${c}` : undefined),
  env: (c) => (simple(c) ? `env LC_ALL=C ${c}` : undefined),
  nohup: (c) => (simple(c) ? `nohup ${c} &` : undefined),
  'sh -c': (c) => (c.includes("'") ? undefined : `sh -c '${c}'`),
  'bash -lc': (c) => (c.includes("'") ? undefined : `bash -lc '${c}'`),
  'bash -c "…"': (c) => (/["$`\\!]/.test(c) ? undefined : `bash -c "${c}"`),
  subshell: (c) => `( ${c} )`,
  group: (c) => `{ ${c}; }`,
  and: (c) => `cd /work/project && ${c}`,
  then: (c) => (/&\s*$/.test(c) ? undefined : `${c} && echo done`),
  or: (c) => `test -d /nonexistent || ${c}`,
  if: (c) => `if true; then ${c}; fi`,
  function: (c) => `cleanup() { ${c}; }; cleanup`,
  eval: (c) => (c.includes("'") ? undefined : `eval '${c}'`),
  'ssh host': (c) => (c.includes("'") ? undefined : `ssh deploy@prod '${c}'`),
  'docker exec': (c) => (simple(c) ? `docker exec -it app ${c}` : undefined),
  'echo | sh': (c) => (c.includes("'") ? undefined : `echo '${c}' | sh`),
  heredoc: (c) => `bash <<'EOF'\n${c}\nEOF`,
  '$( )': (c) => `echo "$(${c})"`,
  'python os.system': (c) => (/['"\\]/.test(c) ? undefined : `python3 -c 'import os; os.system("${c}")'`),
};
/** The default set for a dangerous seed; a seed can name its own. */
const DANGER_WRAPS = ['sudo', 'timeout', 'sh -c', 'subshell', 'and', 'function'];
const BENIGN_WRAPS = ['timeout', 'nice', 'then', 'bash -lc'];

/**
 * Ways a path reaches a command in place of `{T}` (the target as the shell would expand it).
 * `pre` is the command text before {T} (`rm -rf`), `t` the target word.
 */
const VIA = {
  variable: (pre, t) => `d=${t}; ${pre} "$d"`,
  export: (pre, t) => `export TARGET=${t} && ${pre} "$TARGET"`,
  'set --': (pre, t) => `set -- ${t}; ${pre} "$1"`,
  'function arg': (pre, t) => `wipe() { ${pre} "$1"; }; wipe ${t}`,
  'for word': (pre, t) => `for d in ${t}; do ${pre} "$d"; done`,
  'printf -v': (pre, t) => `printf -v d '%s' ${t}; ${pre} "$d"`,
  '$(echo)': (pre, t) => `${pre} "$(echo ${t})"`,
  'xargs': (pre, t) => `echo ${t} | xargs ${pre}`,
  'array': (pre, t) => `dirs=(build ${t}); ${pre} "\${dirs[@]}"`,
};
const ALL_VIA = Object.keys(VIA);

// ---------------------------------------------------------------- rows

const tables = new Map();
let current;
function table(name, title) {
  current = { name, title, rows: [], seen: new Set() };
  tables.set(name, current);
}
function row(decision, rule, line, how) {
  if (current.seen.has(line)) return;
  current.seen.add(line);
  current.rows.push({ decision, rule, line, how });
}
/** A dangerous seed and its wrapped variants. */
function bad(decision, rule, line, wraps = DANGER_WRAPS) {
  row(decision, rule, line, 'seed');
  for (const w of wraps) {
    const v = WRAP[w](line);
    if (v !== undefined) row(decision, rule, v, w);
  }
}
/** A dangerous seed written `PRE {T}`: every target, directly and through every way a value reaches it. */
function badTargets(decision, rule, pre, targets, vias = ALL_VIA, wraps = ['sudo', 'sh -c']) {
  for (const t of targets) {
    bad(decision, rule, `${pre} ${t}`, wraps);
    for (const v of vias) row(decision, rule, VIA[v](pre, t), v);
  }
}
/** Benign look-alikes: allowed, no rule matched. */
function ok(line, wraps = BENIGN_WRAPS) {
  row('allow', 'default', line, 'seed');
  for (const w of wraps) {
    const v = WRAP[w](line);
    if (v !== undefined) row('allow', 'default', v, w);
  }
}
function okTargets(pre, targets, vias = ['variable', 'for word', 'function arg', 'xargs']) {
  for (const t of targets) {
    ok(`${pre} ${t}`, ['timeout', 'then']);
    for (const v of vias) row('allow', 'default', VIA[v](pre, t), v);
  }
}

// Seeds live in seeds/*.mjs, one per domain.
const domains = ['files', 'deleting-tools', 'git', 'persistence', 'exfiltration', 'databases', 'cloud', 'containers', 'publishing', 'system', 'disks', 'permissions', 'code-runners', 'remote-code', 'network', 'mish', 'packages'];
for (const d of domains) {
  const m = await import(`./seeds/${d}.mjs`);
  table(d, m.title);
  m.default({ bad, badTargets, ok, okTargets, row });
}

for (const t of tables.values()) {
  const danger = t.rows.filter((r) => r.decision !== 'allow').length;
  const head = [
    `# ${t.title}`,
    `# GENERATED by build.mjs from seeds/${t.name}.mjs (edit the seeds, then run: node test/policy/tables/build.mjs).`,
    `# DECISION<TAB>RULE<TAB>LINE; ${danger} dangerous, ${t.rows.length - danger} benign (allow, default: no rule matched).`,
  ];
  const body = t.rows.map((r) => `${r.decision}\t${r.rule}\t${r.line.includes('\n') || r.line.includes('\t') ? `ESC:${JSON.stringify(r.line).slice(1, -1)}` : r.line}`);
  writeFileSync(path.join(here, `${t.name}.tsv`), `${[...head, ...body].join('\n')}\n`);
  console.log(`${t.name}: ${danger} dangerous, ${t.rows.length - danger} benign`);
}
