/**
 * The blind-pass harness (issue 21): runs a pass file's forms — real commands printing fake
 * secrets and look-alikes the way tools print them — through everything an agent can read, and
 * reports what reached it.
 *
 *   node_modules/.bin/tsx scripts/blind-pass/harness.ts <pass.mjs> [--mish dist/mish.mjs] [--only F1,F2]
 *
 * Every path an agent has is a real one: a `mish serve` child driven by the MCP SDK's Client (the
 * `sh_run` reply; `sh_interact read_raw` whole and every 1- and 3-line window, as a read that
 * starts inside a secret sees it), and the hooked CLI an agent's Bash tool is rewritten to
 * (`MISH_AGENT=claude-code MISH_AGENT_SESSION=… mish -- '<cmd>'`). A secret form leaks when any of
 * its values shows on any path; a look-alike is damaged when any of its `keep` strings is missing
 * from the reply or the CLI's output. The pass format is in README.md beside this file.
 *
 * Why here and not in test/: a pass is written blind (by someone who has not read the rules) and
 * run once to measure; its leaks become tests in src/main/core/redact/*.test.ts once mended. The
 * harness itself was lost twice with uncommitted work (sessions 25 and 32), so it lives in the repo.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface Form {
  /** F1, L1, …: named in the report. */
  id: string;
  /** true: `values` must never reach the agent. false: a look-alike whose `keep` strings must. */
  secret: boolean;
  /** What the form is (a line for the report). */
  what?: string;
  /** Files written into the form's own directory before it runs (name → content). */
  files?: Record<string, string>;
  /** Bash run in the form's directory before the command, outside mish (the agent never sees it). */
  setup?: string;
  /** The command line the agent runs (through sh_run and through the hooked CLI). */
  cmd: string;
  values?: string[];
  keep?: string[];
}
export interface Pass {
  theme?: string;
  forms: Form[];
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** A read window's start is tried at every line up to here: a pass's outputs are short, a runaway one would cost minutes. */
const MAX_WINDOW_LINES = 400;
/** A tool call's own hang guard (the SDK's default 60 s is short on a loaded 2-core machine). */
const CALL_TIMEOUT_MS = 120_000;
/** sh_run's timeout for a form: a form's command is a printer, never a server. */
const FORM_TIMEOUT_S = 60;

function usage(): never {
  console.error('usage: tsx scripts/blind-pass/harness.ts <pass.mjs> [--mish <dist/mish.mjs>] [--only F1,F2] [--json <out.json>]');
  process.exit(2);
}

function parseArgs(argv: string[]) {
  let pass: string | undefined;
  let mish = process.env.ADV_DIST || path.join(ROOT, 'dist/mish.mjs');
  let only = process.env.ADV_ONLY ? process.env.ADV_ONLY.split(',') : undefined;
  let json: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--mish') mish = argv[++i] ?? usage();
    else if (a === '--only') only = (argv[++i] ?? usage()).split(',');
    else if (a === '--json') json = argv[++i] ?? usage();
    else if (a === '--help' || a === '-h') usage();
    else if (!pass) pass = a;
    else usage();
  }
  if (!pass) usage();
  return { pass: path.resolve(pass), mish: path.resolve(mish), only, json: json ?? pass.replace(/\.m?js$/, '') + '.result.json' };
}

/** Every string a tool result carries (its text and its structured content), so a value anywhere in it is found. */
function strings(x: unknown, out: string[] = []): string[] {
  if (typeof x === 'string') out.push(x);
  else if (Array.isArray(x)) for (const v of x) strings(v, out);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) strings(v, out);
  return out;
}
const textOf = (r: CallToolResult) => (r.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const pass = (await import(pathToFileURL(args.pass).href)).default as Pass;
  if (!pass || !Array.isArray(pass.forms)) throw new Error(`${args.pass}: its default export has no forms array`);
  const forms = pass.forms.filter((f) => !args.only || args.only.includes(f.id));
  const home = mkdtempSync(path.join(tmpdir(), 'mish-blind-'));
  const env: Record<string, string> = { ...(process.env as Record<string, string>), HOME: home, MISH_HOME: path.join(home, '.mish'), XDG_STATE_HOME: path.join(home, '.state'), MISH_OPERATOR_DIR: path.join(home, '.mish-run') };
  const transport = new StdioClientTransport({ command: process.execPath, args: [args.mish, 'serve'], cwd: home, env, stderr: 'pipe' });
  const client = new Client({ name: 'blind-pass', version: '0.0.0' });
  await client.connect(transport);
  const call = async (name: string, a: Record<string, unknown>) => (await client.callTool({ name, arguments: a }, undefined, { timeout: CALL_TIMEOUT_MS })) as CallToolResult;

  const results: any[] = [];
  try {
    for (const form of forms) {
      const dir = path.join(home, 'forms', form.id);
      mkdirSync(dir, { recursive: true });
      for (const [name, content] of Object.entries(form.files ?? {})) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), content);
      }
      if (form.setup) {
        const s = spawnSync('bash', ['-c', form.setup], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
        if (s.status !== 0) console.error(`${form.id}: setup exited ${s.status}: ${(s.stderr || '').slice(0, 300)}`);
      }
      // The MCP paths.
      const run = await call('sh_run', { cmd: form.cmd, cwd: dir, timeout: FORM_TIMEOUT_S });
      const reply = strings(run).join('\n');
      const sc = (run.structuredContent ?? {}) as Record<string, any>;
      const id = sc.id as string | undefined;
      let rawWhole = '';
      const windows: string[] = [];
      if (id) {
        rawWhole = strings(await call('sh_interact', { id, action: 'read_raw' })).join('\n');
        const lines = Math.min(Number(sc.raw_lines ?? 0) || 0, MAX_WINDOW_LINES);
        for (let s = 1; s <= lines; s++) {
          windows.push(strings(await call('sh_interact', { id, action: 'read_raw', from_line: s, to_line: s })).join('\n'));
          if (s + 2 <= lines) windows.push(strings(await call('sh_interact', { id, action: 'read_raw', from_line: s, to_line: s + 2 })).join('\n'));
        }
      }
      // The hooked CLI path.
      const cli = spawnSync(process.execPath, [args.mish, '--', form.cmd], {
        cwd: dir,
        env: { ...env, MISH_AGENT: 'claude-code', MISH_AGENT_SESSION: 'blind-pass' },
        encoding: 'utf8',
        timeout: 120_000,
      });
      const cliOut = `${cli.stdout ?? ''}\n${cli.stderr ?? ''}`;
      const paths: Record<string, string> = { reply, read_raw: rawWhole, windows: windows.join('\n\u0000\n'), cli: cliOut };
      const r: any = { id: form.id, secret: form.secret, what: form.what, exit: sc.exit_code };
      if (form.secret) {
        r.leaked = (form.values ?? []).map((v) => ({ value: v, on: Object.keys(paths).filter((p) => paths[p].includes(v)) })).filter((x) => x.on.length);
        r.values = (form.values ?? []).length;
      } else {
        const replyText = textOf(run);
        r.damaged = (form.keep ?? []).map((k) => ({ keep: k, missing: [...(replyText.includes(k) ? [] : ['reply']), ...(cliOut.includes(k) ? [] : ['cli'])] })).filter((x) => x.missing.length);
      }
      r.replyText = textOf(run);
      r.cliText = cliOut;
      results.push(r);
      const mark = form.secret ? (r.leaked.length ? `LEAK ${r.leaked.length}/${r.values} (${[...new Set(r.leaked.flatMap((x: any) => x.on))].join(',')})` : 'ok') : r.damaged.length ? `DAMAGED (${r.damaged.map((d: any) => d.missing.join('+')).join(';')})` : 'kept';
      console.log(`${form.id.padEnd(5)} ${form.secret ? 'secret' : 'alike '} ${mark}${form.what ? `  — ${form.what}` : ''}`);
    }
  } finally {
    await client.close().catch(() => {});
    rmSync(home, { recursive: true, force: true });
  }
  const secrets = results.filter((r) => r.secret);
  const alikes = results.filter((r) => !r.secret);
  const summary = {
    theme: pass.theme,
    formsLeaked: `${secrets.filter((r) => r.leaked.length).length} of ${secrets.length}`,
    valuesLeaked: `${secrets.reduce((n, r) => n + r.leaked.length, 0)} of ${secrets.reduce((n, r) => n + r.values, 0)}`,
    lookAlikesDamaged: `${alikes.filter((r) => r.damaged.length).length} of ${alikes.length}`,
  };
  writeFileSync(args.json, JSON.stringify({ summary, results }, null, 2));
  console.log(`\nforms leaked ${summary.formsLeaked} · values ${summary.valuesLeaked} · look-alikes damaged ${summary.lookAlikesDamaged}  (details: ${args.json})`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
