// The path coverage report for people (tests/model/harness/coverage-index.ts).
import { describe, expect, it } from 'vitest';
import { coverageIndex } from '../model/harness/coverage-index';

const report = (
  machine: string,
  states: [number, number, string[]],
  transitions: [number, number, string[]],
) => ({
  machine,
  id: machine,
  states: { covered: states[0], total: states[1], missing: states[2] },
  transitions: { covered: transitions[0], total: transitions[1], missing: transitions[2] },
});

describe('coverageIndex', () => {
  it('has a row per machine, groups in order, and the sum', () => {
    const md = coverageIndex(
      new Map([
        ['sign-in-and-handoff', [report('sign-in', [20, 20, []], [40, 40, []])]],
        ['guide', [report('guide-search', [3, 3, []], [5, 5, []])]],
      ]),
    );
    const rows = md
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| Machine') && !l.startsWith('| ---'));
    expect(rows).toEqual([
      '| guide-search | guide | 3/3 (100.0%) | 5/5 (100.0%) |',
      '| sign-in | sign-in-and-handoff | 20/20 (100.0%) | 40/40 (100.0%) |',
      '| **all 2** | | 23/23 (100.0%) | 45/45 (100.0%) |',
    ]);
    expect(md).toContain('Every state and every transition was taken.');
    expect(md).not.toContain('## Not covered');
  });

  it('lists what was not covered', () => {
    const md = coverageIndex(
      new Map([
        [
          'password-reset',
          [report('password-reset', [28, 29, ['passwordReset.sms']], [60, 61, ['x -> y #0']])],
        ],
      ]),
    );
    expect(md).toContain('| password-reset | password-reset | 28/29 (96.6%) | 60/61 (98.4%) |');
    expect(md).toContain('## Not covered');
    expect(md).toContain('- password-reset, state: `passwordReset.sms`');
    expect(md).toContain('- password-reset, transition: `x -> y #0`');
    expect(md).not.toContain('Every state and every transition was taken.');
  });
});
