/**
 * The always-on log grammar (grammars/_shared/log-levels.toml) through the real Squasher, on the
 * formats the recorded fixtures do not cover (no journald, nginx, klog or Go ≥ 1.21 here): one
 * line per format as its documentation shows it, and lines that must NOT be read as levels.
 * The recorded logs (fixtures/recorded/log-*) are checked in test/golden.test.ts.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAlwaysGrammar } from './always-rules.js';
import { Squasher } from './squasher.js';
import type { SquashResult } from './types.js';

const GRAMMARS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../grammars');

function squash(lines: string[], always = true): SquashResult {
  const loaded = loadAlwaysGrammar(GRAMMARS);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  const sq = new Squasher({ now: () => 0, always: always ? loaded.value : null });
  // Padding so the output is past the show-whole threshold and classification shows.
  for (let i = 0; i < 30; i++) sq.write(`filler line number ${i} of the test\n`);
  sq.write(lines.join('\n') + '\n');
  return sq.finish({ exitCode: 0 });
}

const hazardOf = (r: SquashResult, text: string) => r.hazards.find((h) => h.text === text)?.severity;

describe('log-levels grammar', () => {
  it('loads', () => {
    const r = loadAlwaysGrammar(GRAMMARS);
    expect(r.ok ? [] : r.errors).toEqual([]);
  });

  it.each([
    ['Go slog TextHandler', 'time=2026-11-26T18:40:00.123Z level=ERROR msg="db down" err="dial tcp: refused"'],
    ['Go slog default handler', '2026/11/26 18:40:00 ERROR payment failed order=4711'],
    ['slog JSONHandler', '{"time":"2026-11-26T18:40:00.1Z","level":"ERROR","msg":"payment failed"}'],
    ['pino fatal', '{"level":60,"time":1795718545183,"pid":1,"hostname":"h","msg":"out of memory"}'],
    ['GCP severity', '{"severity":"ERROR","message":"quota exceeded"}'],
    ['klog', 'E1122 10:40:00.123456   12345 controller.go:123] sync failed for default/web'],
    ['nginx error log', '2026/11/26 18:40:00 [error] 1234#1234: *1 open() "/var/www/x" failed (2: No such file or directory)'],
    ['apache error log', '[Thu Nov 26 18:40:00.123456 2026] [core:error] [pid 1234] [client 10.0.0.1:5000] AH00037: Symbolic link not allowed'],
    ['journalctl short', 'Nov 26 18:40:00 web-1 sshd[812]: error: kex_exchange_identification: Connection closed by remote host'],
    ['docker compose logs', 'api-1  | 2026-11-26 18:40:00,123 ERROR [orders] payment failed'],
    ['logback default layout', '18:40:00.123 [main] ERROR c.e.orders.App - payment failed'],
    ['Spring Boot', '2026-11-26T18:40:00.123Z ERROR 4711 --- [main] c.e.orders.App : payment failed'],
    ['logrus text', 'ERRO[0012] payment failed                          order=4711'],
    ['Rust env_logger', '[2026-11-26T18:40:00Z ERROR orders] payment failed'],
    ['zap console', '2026-11-26T18:40:00.123Z\terror\torders/pay.go:12\tpayment failed'],
  ])('%s: an error', (_, line) => {
    expect(hazardOf(squash([line]), line)).toBe('error');
  });

  it.each([
    ['Go slog TextHandler', 'time=2026-11-26T18:40:00.123Z level=WARN msg="slow query" ms=1200'],
    ['pino warn', '{"level":40,"time":1795718545183,"msg":"slow"}'],
    ['klog', 'W1122 10:40:00.123456   12345 reflector.go:424] watch closed'],
    ['nginx', '2026/11/26 18:40:00 [warn] 1234#1234: *1 an upstream response is buffered'],
    ['docker compose logs', 'web-1  | [WARN] cache miss storm'],
  ])('%s: a warning', (_, line) => {
    expect(hazardOf(squash([line]), line)).toBe('warning');
  });

  it("a YAML key alone on its line is data, not a log's level (adversary pass 20: a Grafana contact point's `severity: critical`)", () => {
    const yaml = ['        settings:', '          severity: critical', '          severity: warning', '  - level: error', 'logging:', '  level: warn'];
    const r = squash(yaml);
    for (const line of yaml) expect(hazardOf(r, line), line).toBeUndefined();
    // A quoted field line is one (a fragment: `grep -n severity`'s match)...
    const json = '  "severity": "ERROR",';
    expect(hazardOf(squash([json, '  "message": "quota exceeded"']), json)).toBe('error');
    // ...but not inside a pretty-printed JSON document: there it is data, shown in place (pretty-json.ts; adversary pass 61, F48).
    expect(hazardOf(squash(['{', json, '  "message": "quota exceeded"', '}']), json)).toBeUndefined();
  });

  it('INFO/DEBUG lines of one shape become one template with a count, first and last line', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `time=2026-11-26T18:40:${String(i % 60).padStart(2, '0')}.${i}Z level=INFO msg="request done" id=req-${(0xa00000 + i * 977).toString(16)} ms=${i % 90}`);
    const r = squash(lines);
    const g = r.groups.find((x) => x.first === lines[0]);
    expect(g).toMatchObject({ count: 200, last: lines[199] });
  });

  it.each([
    ['a count of nothing', '2026-11-26 18:40:00 build finished: 0 ERROR, 0 WARN'],
    ['prose mentioning info', 'For more info see the manual'],
    ['a word containing a level', 'INFORMATION_SCHEMA tables: 12'],
  ])('%s is not a level', (_, line) => {
    const r = squash([line]);
    expect(hazardOf(r, line)).toBeUndefined();
    expect(r.groups.some((g) => g.first === line)).toBe(false);
  });

  it('an INFO line that mentions a failure is not folded into a template', () => {
    const line = '2026-11-26 18:40:00,123 INFO [orders] upstream call failed once, retried after timeout';
    const r = squash([line, line.replace('18:40:00', '18:40:01')]);
    expect(r.groups.some((g) => g.first === line)).toBe(false);
  });
});
