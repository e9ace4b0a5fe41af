// The path coverage report for people: test-results/path-coverage/index.md, one table over every
// machine whose generated paths ran, with what was missed. Each path group writes its own JSON
// (run-path-group.ts) from its own worker; this vitest globalSetup of the model project starts the
// run with no reports left from an earlier one and joins the groups' reports when every file is done.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CoverageFigures, CoverageReport } from './coverage';

export const COVERAGE_DIR = 'test-results/path-coverage';

/** `covered/total (percent%)`, as the console summary and index.md print it. */
export const fraction = ({ covered, total }: Pick<CoverageFigures, 'covered' | 'total'>) =>
  `${covered}/${total} (${total === 0 ? '100.0' : ((covered / total) * 100).toFixed(1)}%)`;

/** The Markdown report of the groups' reports (group name -> its machines). */
export function coverageIndex(groups: ReadonlyMap<string, readonly CoverageReport[]>): string {
  const rows: string[] = [];
  const missed: string[] = [];
  const sum = { states: { covered: 0, total: 0 }, transitions: { covered: 0, total: 0 } };
  for (const [group, reports] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    for (const r of reports) {
      rows.push(`| ${r.machine} | ${group} | ${fraction(r.states)} | ${fraction(r.transitions)} |`);
      for (const part of ['states', 'transitions'] as const) {
        sum[part].covered += r[part].covered;
        sum[part].total += r[part].total;
        for (const item of r[part].missing) missed.push(`- ${r.machine}, ${part.slice(0, -1)}: \`${item}\``);
      }
    }
  }
  return [
    '# Path coverage',
    '',
    'Generated paths (`xstate/graph`) of every machine, run against the mounted views with a scripted',
    'API (`npm run test:paths`). A state counts when the running actor entered it; a transition, when',
    'the actor took it. Written by tests/model/harness/coverage-index.ts after the run.',
    '',
    '| Machine | Group | States | Transitions |',
    '| --- | --- | --- | --- |',
    ...rows,
    `| **all ${rows.length}** | | ${fraction(sum.states)} | ${fraction(sum.transitions)} |`,
    '',
    ...(missed.length > 0
      ? ['## Not covered', '', ...missed]
      : ['Every state and every transition was taken.']),
    '',
  ].join('\n');
}

function readGroups(): Map<string, CoverageReport[]> {
  const groups = new Map<string, CoverageReport[]>();
  for (const file of readdirSync(COVERAGE_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const { machines } = JSON.parse(readFileSync(path.join(COVERAGE_DIR, file), 'utf8')) as {
      machines: CoverageReport[];
    };
    groups.set(file.slice(0, -'.json'.length), machines);
  }
  return groups;
}

export default function setup(): () => void {
  rmSync(COVERAGE_DIR, { recursive: true, force: true });
  mkdirSync(COVERAGE_DIR, { recursive: true });
  return () => {
    const groups = readGroups();
    if (groups.size === 0) return;
    writeFileSync(path.join(COVERAGE_DIR, 'index.md'), coverageIndex(groups));
  };
}
