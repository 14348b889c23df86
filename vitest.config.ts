import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests run on the packages' sources (the "source" export condition), no build needed.
const conditions = ['source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    globalSetup: ['./testing/src/global-setup.ts'],
    reporters: ['default', './testing/src/summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['*/src/**/*.unit.spec.ts'], sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: { name: 'int', include: ['*/src/**/*.int.spec.ts'], maxWorkers: 2, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['*/src/**/*.e2e.spec.ts', 'web/e2e/**/*.e2e.spec.ts'], maxWorkers: 1 },
      },
    ],
  },
});
