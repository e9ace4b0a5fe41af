// Every installed package must run on the oldest Node we support (20.19): a dependency whose
// `engines.node` leaves it out (cookie 2 and content-disposition 3 ask for Node 22) is pinned back
// through package.json's overrides. Read from the lock file, so it holds for a fresh install.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const OLDEST_NODE = '20.19.0';

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, LockedPackage>;
};
const own = JSON.parse(readFileSync('package.json', 'utf8')) as { engines?: { node?: string } };

describe('Node engines', () => {
  it('the project itself asks for Node 20.19 or newer', () => {
    expect(own.engines?.node).toBeDefined();
    expect(semver.minVersion(own.engines!.node!)?.version).toBe(OLDEST_NODE);
  });

  it(`every locked package accepts Node ${OLDEST_NODE}`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, pkg]) => {
        const range = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
        return range && !semver.satisfies(OLDEST_NODE, range) ? [`${path}@${pkg.version}: ${range}`] : [];
      });
    expect(refusing).toEqual([]);
  });
});
