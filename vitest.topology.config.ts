import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// `npm run test:topology` (issue 18): the compose topology as local processes, after `npm run build`.
const conditions = ['source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    include: ['*/src/**/*.topology.spec.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
