/**
 * Ends a test run with the list of skipped tests and why (issue 14: no silent skips). The
 * reason is in the name, `[skipped: …]` (test/helpers/skip.ts) or `(skipped: …)` /
 * `(skipped when …)`, or the note of `ctx.skip(note)`; a skip with none is listed as
 * "no reason given" and fails the run.
 * Tests left out by a name filter (-t) or `.only` are not skips and are not listed.
 */
import type { Reporter, TestModule, Vitest } from 'vitest/node';

const NO_REASON = 'no reason given';
/** A reason written in the test's name: `[skipped: …]` (test/helpers/skip.ts), or `(skipped: …)` / `(skipped when …)`. */
const REASON_IN_NAME = [/\[skipped: ([^\]]+)\]/, /\(skipped(?::| when| if) ([^)]+)\)/];

export default class SkippedReporter implements Reporter {
  private namePattern: RegExp | undefined;

  onInit(vitest: Vitest): void {
    const p = vitest.config.testNamePattern;
    this.namePattern = p ? new RegExp(p) : undefined;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests('skipped')) {
        const r = test.result();
        if (r.state !== 'skipped') continue;
        // A test that did not match -t is filtered, not skipped.
        if (this.namePattern && !this.namePattern.test(test.fullName)) continue;
        const inName = REASON_IN_NAME.map((re) => re.exec(test.fullName)?.[1]).find(Boolean);
        const reason = inName ?? r.note ?? (test.options.mode === 'todo' ? 'todo' : NO_REASON);
        lines.push(`  ${mod.relativeModuleId} > ${test.fullName.replace(/ \[skipped: [^\]]+\]/, '')}\n      why: ${reason}`);
      }
    }
    if (lines.length === 0) {
      process.stdout.write('\nSkipped tests: none\n');
      return;
    }
    process.stdout.write(`\nSkipped tests (${lines.length}):\n${lines.join('\n')}\n`);
    const silent = lines.filter((l) => l.endsWith(`why: ${NO_REASON}`)).length;
    if (silent) {
      // A skip nobody can read the reason of is a silent skip: the run fails until it says why.
      process.stdout.write(`\n${silent} skipped test(s) give no reason: use itUnless/describeUnless (test/helpers/skip.ts) or ctx.skip(note)\n`);
      process.exitCode = 1;
    }
  }
}
