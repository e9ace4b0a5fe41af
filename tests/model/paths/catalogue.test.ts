// Every machine of the catalogue has a generated path suite, in exactly one group.
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../machines';
import { PATH_GROUPS } from '../harness/path-groups';

describe('generated path suites', () => {
  it('cover every machine of the catalogue, each in one group', () => {
    const named = Object.values(PATH_GROUPS).flatMap((group) => Object.keys(group));
    expect([...named].sort()).toEqual(catalogue.map((e) => e.name).sort());
    expect(new Set(named).size).toBe(named.length);
  });
});
