// The order test files start in: project by project, each longest first, so that the two workers
// keep their loaded modules and finish together.
//
// Vitest's own order, on a clean checkout (no results cache, as in CI), starts larger files first.
// The generated path suites are three-line files that hand over to the harness, so the longest of
// them (the merge wizard's paths, over a minute) started last and ran alone while the other worker
// had nothing left. Longest first fixes that.
//
// Projects run one after another in PROJECT_ORDER. The model and server projects share modules
// between the files of a worker (vitest.config.ts), and a worker keeps them only while its next file
// is of the same project: longest first over all projects at once interleaved them, and vitest
// imported the app or the server again at almost every file. Grouped, the whole run went from 529 s
// to 443 s (import time 91 s -> 44 s). The path suites go first, since their longest file is over a
// minute; the many small client files go last, where they even out the two workers' ends.
//
// Seconds are one file's running time in the whole run on the 2-core machine (2026-11-27); a file
// not listed goes after these in its project, larger files first. A stale figure only costs
// balance, never a test.
import { statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const MEASURED_SECONDS: Readonly<Record<string, number>> = {
  'tests/model/paths/merge.test.tsx': 61,
  'tests/model/paths/registration.test.tsx': 41,
  'tests/server/fuzz-public.test.ts': 42,
  'tests/server/fuzz-signed-in.test.ts': 34,
  'tests/model/paths/forced-steps.test.tsx': 51,
  'tests/model/paths/sign-in-and-handoff.test.tsx': 23,
  'tests/model/paths/password-reset.test.tsx': 35,
  'tests/server/route-sweep.test.ts': 19,
  'tests/model/paths/profile.test.tsx': 30,
  'tests/server/shutdown.test.ts': 15,
  'tests/server/dialect.test.ts': 8,
  'tests/model/paths/admin-identities.test.tsx': 14,
  'tests/model/paths/admin.test.tsx': 15,
  'tests/server/profile.test.ts': 12,
  'tests/server/failure-limit.test.ts': 11,
  'tests/server/registration.test.ts': 11,
  'tests/server/login.test.ts': 10,
  'tests/server/password-reset.test.ts': 10,
  'tests/model/paths/access-requests.test.tsx': 10,
  // The browser suite (vitest.e2e.config.ts): its longest journeys start first there too.
  'tests/e2e/keyboard-forced.e2e.test.ts': 84,
  'tests/e2e/keyboard.e2e.test.ts': 48,
  'tests/e2e/keyboard-admin.e2e.test.ts': 39,
  'tests/e2e/keyboard-profile.e2e.test.ts': 35,
  'tests/e2e/forced-steps.e2e.test.ts': 27,
  'tests/e2e/handoff.e2e.test.ts': 27,
  'tests/e2e/access-requests.e2e.test.ts': 26,
  'tests/e2e/profile.e2e.test.ts': 21,
  'tests/e2e/merge.e2e.test.ts': 17,
  'tests/e2e/user-guide.e2e.test.ts': 14,
};

/** Seconds a file is expected to take, or null when it has no measured figure. */
export function expectedSeconds(root: string, moduleId: string): number | null {
  return MEASURED_SECONDS[path.relative(root, moduleId).split(path.sep).join('/')] ?? null;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Projects in the order they run; one not named runs after these. */
export const PROJECT_ORDER: readonly string[] = ['model', 'server', 'client'];

const rankOf = (project: string | undefined) => {
  const rank = PROJECT_ORDER.indexOf(project ?? '');
  return rank === -1 ? PROJECT_ORDER.length : rank;
};

/**
 * Project by project (PROJECT_ORDER); in each, longest measured first, then the unmeasured ones by
 * size, largest first.
 */
export function longestFirst<T>(
  files: readonly T[],
  root: string,
  moduleIdOf: (file: T) => string,
  projectOf: (file: T) => string | undefined = () => undefined,
): T[] {
  const keyed = files.map((file) => {
    const id = moduleIdOf(file);
    return { file, rank: rankOf(projectOf(file)), seconds: expectedSeconds(root, id), size: sizeOf(id), id };
  });
  keyed.sort((a, b) => {
    if (a.rank !== b.rank) return a.rank - b.rank;
    if (a.seconds !== null && b.seconds !== null) return b.seconds - a.seconds;
    if (a.seconds !== null) return -1;
    if (b.seconds !== null) return 1;
    return b.size - a.size || a.id.localeCompare(b.id);
  });
  return keyed.map((k) => k.file);
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longestFirst(
      files,
      this.ctx.config.root,
      (spec) => spec.moduleId,
      (spec) => spec.project.name,
    );
  }
}
