// The browser suite: the built product served by the real server, one server on its own fresh
// embedded database per file (tests/e2e/support/global-setup.ts), driven in Debian's Chromium
// through playwright-core. Two files at a time: a journey spends much of its time waiting (for the
// page, the server, the next TOTP step), so two browsers share the 2 cores well (serial: 492 s,
// two at a time: 386 s, 2026-11-27).
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tests/sequencer';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/support/global-setup.ts'],
    fileParallelism: true,
    // Longest first (tests/sequencer.ts), so that the two workers end together.
    sequence: { sequencer: LongestFirstSequencer },
    maxWorkers: 2,
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // A page under the load of two journeys can take more than vitest's default second to show.
    expect: { poll: { timeout: 15_000 } },
  },
});
