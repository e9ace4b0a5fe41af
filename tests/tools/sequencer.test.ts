// The test-file order: longest measured first, then the unmeasured ones by size.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedSeconds, longestFirst, MEASURED_SECONDS, PROJECT_ORDER } from '../sequencer';

const root = path.resolve(import.meta.dirname, '../..');
const abs = (file: string) => path.join(root, file);

describe('the longest-first sequencer', () => {
  it('starts the longest measured files first, whatever order they come in', () => {
    const files = [
      'tests/server/captcha.test.ts',
      'tests/model/paths/merge.test.tsx',
      'tests/server/fuzz-public.test.ts',
    ].map(abs);
    expect(longestFirst(files, root, (f) => f).map((f) => path.relative(root, f))).toEqual([
      'tests/model/paths/merge.test.tsx',
      'tests/server/fuzz-public.test.ts',
      'tests/server/captcha.test.ts',
    ]);
  });

  it('puts files without a figure after the measured ones, larger files first', () => {
    const small = abs('tests/tools/sequencer.test.ts');
    const large = abs('tests/model/harness/paths.ts');
    const measured = abs('tests/server/captcha.test.ts');
    expect(longestFirst([small, large, measured], root, (f) => f)).toEqual([measured, large, small]);
  });

  it('runs the projects one after another in their order, each longest first', () => {
    const files = [
      ['client', 'tests/client/shell.test.tsx'],
      ['server', 'tests/server/captcha.test.ts'],
      ['tools', 'tests/tools/sequencer.test.ts'],
      ['model', 'tests/model/paths/admin.test.tsx'],
      ['server', 'tests/server/fuzz-public.test.ts'],
      ['model', 'tests/model/paths/merge.test.tsx'],
    ].map(([project, file]) => ({ project, id: abs(file!) }));
    const ordered = longestFirst(
      files,
      root,
      (f) => f.id,
      (f) => f.project,
    ).map((f) => `${f.project} ${path.relative(root, f.id)}`);
    expect(ordered).toEqual([
      'model tests/model/paths/merge.test.tsx',
      'model tests/model/paths/admin.test.tsx',
      'server tests/server/fuzz-public.test.ts',
      'server tests/server/captcha.test.ts',
      'client tests/client/shell.test.tsx',
      'tools tests/tools/sequencer.test.ts',
    ]);
    expect(PROJECT_ORDER.slice(0, 2)).toEqual(['model', 'server']);
  });

  it('names only test files that exist', async () => {
    const { existsSync } = await import('node:fs');
    expect(Object.keys(MEASURED_SECONDS).filter((file) => !existsSync(abs(file)))).toEqual([]);
    expect(expectedSeconds(root, abs('tests/model/paths/merge.test.tsx'))).toBe(
      MEASURED_SECONDS['tests/model/paths/merge.test.tsx'],
    );
    expect(expectedSeconds(root, abs('tests/model/paths/merge.test.tsx'))).toBeGreaterThan(0);
    expect(expectedSeconds(root, abs('tests/nowhere.test.ts'))).toBeNull();
  });
});
