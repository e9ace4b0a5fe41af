// Prints one closing line for CI, 'tests: N passed, N failed', from the JSON reports that the
// vitest run (test-results/vitest.json) and the browser suite (test-results/e2e.json) write.
import { existsSync, readFileSync } from 'node:fs';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const found: string[] = [];

/** Adds one vitest JSON report to the totals, when the run wrote it. */
function addReport(file: string, label: string): void {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, 'utf8')) as VitestReport;
  total.passed += r.numPassedTests;
  total.failed += r.numFailedTests;
  total.skipped += r.numPendingTests + r.numTodoTests;
  found.push(`${label} ${r.numPassedTests}/${r.numPassedTests + r.numFailedTests}`);
}
addReport('test-results/vitest.json', 'vitest');
addReport('test-results/e2e.json', 'browser');
if (found.length === 0) {
  console.error('No test reports found in test-results/.');
  process.exit(1);
}
console.log(`(${found.join(', ')})`);
console.log(
  `tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`,
);
if (total.failed > 0 || total.passed === 0) process.exit(1);
