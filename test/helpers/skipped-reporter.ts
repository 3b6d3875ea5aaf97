/**
 * Ends a test run with the list of skipped tests and why (issue 14: no silent skips). The
 * reason is the `[skipped: …]` part of the name (test/helpers/skip.ts), or the note of
 * `ctx.skip(note)`; a skip with neither is listed as "no reason given", which is a bug to fix.
 * Tests left out by a name filter (-t) or `.only` are not skips and are not listed.
 */
import type { Reporter, TestModule, Vitest } from 'vitest/node';

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
        const reason = /\[skipped: ([^\]]+)\]/.exec(test.fullName)?.[1] ?? r.note ?? (test.options.mode === 'todo' ? 'todo' : 'no reason given');
        lines.push(`  ${mod.relativeModuleId} > ${test.fullName.replace(/ \[skipped: [^\]]+\]/, '')}\n      why: ${reason}`);
      }
    }
    if (lines.length === 0) {
      process.stdout.write('\nSkipped tests: none\n');
      return;
    }
    process.stdout.write(`\nSkipped tests (${lines.length}):\n${lines.join('\n')}\n`);
  }
}
