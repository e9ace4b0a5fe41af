// Runs one group of generated path suites (see path-groups.ts): each machine's paths against its
// mounted views, then the check that every state and transition was taken, and the group's part of
// the coverage report in test-results/path-coverage/<group>.json (joined into index.md after the
// run by coverage-index.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../../machines';
import { MachineCoverage, type CoverageReport } from './coverage';
import { COVERAGE_DIR, fraction } from './coverage-index';
import { PATH_GROUPS, type PathGroup, type PathSuite } from './path-groups';

export function runPathGroup(group: PathGroup): void {
  const suites: Record<string, PathSuite> = PATH_GROUPS[group];
  const coverages = catalogue
    .filter((entry) => suites[entry.name])
    .map((entry) => new MachineCoverage(entry.name, entry.machine));

  for (const coverage of coverages) suites[coverage.name]!(coverage);

  afterAll(async () => {
    const reports: CoverageReport[] = coverages.map((c) => c.report());
    console.log(
      [`Path coverage, ${group} (states, transitions):`]
        .concat(
          reports.map(
            (r) =>
              `  ${r.machine.padEnd(32)} states ${fraction(r.states)}` +
              `  transitions ${fraction(r.transitions)}`,
          ),
        )
        .join('\n'),
    );
    await mkdir(COVERAGE_DIR, { recursive: true });
    await writeFile(`${COVERAGE_DIR}/${group}.json`, `${JSON.stringify({ machines: reports }, null, 2)}\n`);
  });

  describe(`path coverage: ${group}`, () => {
    it('names only machines of the catalogue', () => {
      expect(Object.keys(suites).filter((name) => !catalogue.some((e) => e.name === name))).toEqual([]);
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
}
