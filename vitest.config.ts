import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (pure modules, Node) and `e2e` (the built site in headless Chromium,
 * served by a local static server that tests/e2e/global-setup.ts starts and stops).
 * `npm test` runs both through scripts/test-all.mjs, which builds the site first.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          // One Chromium at a time: CI machines have 2 cores, and SwiftShader is CPU-bound.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
