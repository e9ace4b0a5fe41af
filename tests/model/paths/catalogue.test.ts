// Every machine of the catalogue has a generated path suite, in exactly one group, and every group
// is a test file of its own here (the two test workers share the files, so groups run side by side).
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../machines';
import { PATH_GROUPS } from '../harness/path-groups';

// A path, not a URL: this project's global URL is jsdom's, which node:fs does not take.
const here = dirname(fileURLToPath(import.meta.url));

describe('generated path suites', () => {
  it('cover every machine of the catalogue, each in one group', () => {
    const named = Object.values(PATH_GROUPS).flatMap((group) => Object.keys(group));
    expect([...named].sort()).toEqual(catalogue.map((e) => e.name).sort());
    expect(new Set(named).size).toBe(named.length);
  });

  it('run each group from a file of its name, and no other group file', () => {
    for (const group of Object.keys(PATH_GROUPS))
      expect(existsSync(join(here, `${group}.test.tsx`)), group).toBe(true);
    const files = readdirSync(here).filter((f) => f.endsWith('.test.tsx'));
    expect(files.map((f) => f.replace('.test.tsx', '')).sort()).toEqual(Object.keys(PATH_GROUPS).sort());
  });
});
