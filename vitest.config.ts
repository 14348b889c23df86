import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './testing/src/sequencer.js';

// Tests run on the packages' sources (the "source" export condition), no build needed.
const conditions = ['source', ...defaultServerConditions];
// Browser test files run one at a time unless E2E_WORKERS says more (each file has its own
// server, database and browser; .ci/run passes its E2E_WORKERS on, 1 by default).
const e2eWorkers = Math.max(1, Number.parseInt(process.env.E2E_WORKERS ?? '1', 10) || 1);
// Integration test files run two at a time (each has its own database) unless INT_WORKERS says
// otherwise.
const intWorkers = Math.max(1, Number.parseInt(process.env.INT_WORKERS ?? '2', 10) || 2);

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    globalSetup: ['./testing/src/global-setup.ts'],
    reporters: ['default', './testing/src/summary-reporter.ts'],
    // The longest files start first, so that the integration workers finish together.
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits for a condition; its default of 1 s made a loaded machine fail what
    // would have held a moment later (issue 40). This only ends a wait that never comes.
    expect: { poll: { timeout: 30_000 } },
    projects: [
      { extends: true, test: { name: 'unit', include: ['*/src/**/*.unit.spec.ts'], sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: { name: 'int', include: ['*/src/**/*.int.spec.ts'], maxWorkers: intWorkers, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['*/src/**/*.e2e.spec.ts', 'web/e2e/**/*.e2e.spec.ts'],
          maxWorkers: e2eWorkers,
          // A browser test walks many pages (one of them 14, each scanned by axe): on a machine
          // under load 13 two took over 60 s and were cut off while still passing step by step.
          // This bound only ends a test that hangs; each step keeps its own wait.
          testTimeout: 180_000,
        },
      },
    ],
  },
});
