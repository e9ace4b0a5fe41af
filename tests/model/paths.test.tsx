// `npm run test:paths`: for every machine of the catalogue, paths generated with xstate/graph run
// against the mounted views (or the running machine where it has no view of its own), and a
// coverage report of states and transitions taken, printed and written to
// test-results/path-coverage.json. Machines of the catalogue must be covered completely.
import { mkdir, writeFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../machines';
import { defineAppVersionPaths } from './app-version.paths';
import { MachineCoverage, type CoverageReport } from './harness/coverage';
import { defineSignInPaths } from './sign-in.paths';

const suites: Record<string, (coverage: MachineCoverage) => void> = {
  'sign-in': defineSignInPaths,
  'session/app-version': defineAppVersionPaths,
};

const coverages = catalogue.map((entry) => new MachineCoverage(entry.name, entry.machine));

for (const coverage of coverages) suites[coverage.name]?.(coverage);

const percent = ({ covered, total }: { covered: number; total: number }) =>
  total === 0 ? '100.0' : ((covered / total) * 100).toFixed(1);

afterAll(async () => {
  const reports: CoverageReport[] = coverages.map((c) => c.report());
  console.log(
    ['Path coverage (states, transitions):']
      .concat(
        reports.map(
          (r) =>
            `  ${r.machine.padEnd(24)} states ${r.states.covered}/${r.states.total} (${percent(r.states)}%)` +
            `  transitions ${r.transitions.covered}/${r.transitions.total} (${percent(r.transitions)}%)`,
        ),
      )
      .join('\n'),
  );
  await mkdir('test-results', { recursive: true });
  await writeFile('test-results/path-coverage.json', `${JSON.stringify({ machines: reports }, null, 2)}\n`);
});

describe('path coverage', () => {
  it('has a path suite for every machine of the catalogue', () => {
    expect(catalogue.map((e) => e.name).filter((name) => !suites[name])).toEqual([]);
  });

  // Runs after the suites above (tests of a file run in order).
  it.each(coverages.map((c) => [c.name, c] as const))(
    '%s: every state and every transition is taken',
    (_, coverage) => {
      const report = coverage.report();
      expect(report.states.missing).toEqual([]);
      expect(report.transitions.missing).toEqual([]);
      expect(report.states.covered).toBe(report.states.total);
      expect(report.transitions.covered).toBe(report.transitions.total);
    },
  );
});
