// Test projects: pure machines, generated model paths against mounted views, client shell, real server.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import LongestFirstSequencer from './tests/sequencer';

export default defineConfig({
  plugins: [react()],
  test: {
    maxWorkers: 2,
    // Longest files first across every project, so the two workers end together (tests/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'contract', include: ['tests/contract/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'machines', include: ['tests/machines/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'model',
          include: ['tests/model/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // The path suites mount the same app: a worker imports it once (265 s -> 166 s alone).
          // tests/setup-computed-style.ts installs its wrappers once per worker for that.
          isolate: false,
          setupFiles: ['tests/setup-hiding-rules.ts', 'tests/setup-computed-style.ts', 'tests/setup-dom.ts'],
          // Clears the path coverage reports before the run and joins them into index.md after it.
          globalSetup: ['tests/model/harness/coverage-index.ts'],
          // Above testing-library's 5 s wait (tests/setup-dom.ts): see the client project.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          include: ['tests/client/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/setup-hiding-rules.ts', 'tests/setup-computed-style.ts', 'tests/setup-dom.ts'],
          // Above testing-library's 5 s wait (tests/setup-dom.ts), so a wait that fails reports
          // what it waited for rather than a test time-out.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // Files of a worker share its loaded modules: each builds its own server on its own
          // database, and importing the server (and compiling PGlite's WebAssembly) once per worker
          // instead of once per file took 20 of these files from 108 s to 66 s.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { extends: true, test: { name: 'tools', include: ['tests/tools/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
