// The order test files start in: longest first, so the two workers finish together.
//
// Vitest's own order runs projects one after another and, on a clean checkout (no results cache,
// as in CI), larger files first. The generated path suites are three-line files that hand over to
// the harness, so the longest of them (the merge wizard's 155 paths, nearly three minutes) started
// last and ran alone while the other worker had nothing left. Longest-first over all projects
// fixes that (with shared modules in the model and server projects and fewer redundant merge
// paths, the whole run went from 710 s to 577 s), and mixes the server suites (which wait on
// sockets and PostgreSQL) with the jsdom suites (which only compute), so one worker's waiting is
// the other's computing.
//
// Seconds are one file's running time on the 2-core CI machine (2026-11-27); a file not listed
// goes after these, larger files first. A stale figure only costs balance, never a test.
import { statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const MEASURED_SECONDS: Readonly<Record<string, number>> = {
  'tests/model/paths/merge.test.tsx': 70,
  'tests/model/paths/registration.test.tsx': 48,
  'tests/server/fuzz-public.test.ts': 44,
  'tests/model/paths/forced-steps.test.tsx': 43,
  'tests/model/paths/sign-in-and-handoff.test.tsx': 42,
  'tests/model/paths/password-reset.test.tsx': 40,
  'tests/model/paths/profile.test.tsx': 35,
  'tests/server/route-sweep.test.ts': 35,
  'tests/server/fuzz-signed-in.test.ts': 35,
  'tests/model/paths/admin.test.tsx': 21,
  'tests/server/shutdown.test.ts': 19,
  'tests/model/paths/admin-identities.test.tsx': 19,
  'tests/server/cookies.test.ts': 16,
  'tests/server/failure-limit.test.ts': 15,
  'tests/server/password-reset.test.ts': 14,
  'tests/server/profile.test.ts': 14,
  'tests/server/dialect.test.ts': 13,
  'tests/server/security-headers.test.ts': 13,
  'tests/model/paths/access-requests.test.tsx': 13,
  'tests/server/trusted-devices.test.ts': 12,
  'tests/server/http.test.ts': 12,
  'tests/server/outbox.test.ts': 11,
  'tests/server/captcha.test.ts': 11,
  'tests/server/registration.test.ts': 10,
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

/** Longest measured first, then the unmeasured ones by size, largest first. */
export function longestFirst<T>(files: readonly T[], root: string, moduleIdOf: (file: T) => string): T[] {
  const keyed = files.map((file) => {
    const id = moduleIdOf(file);
    return { file, seconds: expectedSeconds(root, id), size: sizeOf(id), id };
  });
  keyed.sort((a, b) => {
    if (a.seconds !== null && b.seconds !== null) return b.seconds - a.seconds;
    if (a.seconds !== null) return -1;
    if (b.seconds !== null) return 1;
    return b.size - a.size || a.id.localeCompare(b.id);
  });
  return keyed.map((k) => k.file);
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longestFirst(files, this.ctx.config.root, (spec) => spec.moduleId);
  }
}
