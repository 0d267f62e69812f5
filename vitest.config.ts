import { defineConfig } from 'vitest/config';

/**
 * Four projects (README "Tests"):
 * - unit: pure rules of core/, the CLI's table and the admin's logic; no build, no database,
 *   seconds (`npx vitest --project unit`);
 * - integration: services on a real database, the HTTP server and the `remit` binary (dist/, so
 *   `npm run build` first, as `npm test` does);
 * - browser: the back office and the form in Chromium (test/e2e, dist/ too);
 * - soak: memory at scale (test/soak), outside `npm test`: `npm run soak` runs it, then the
 *   mixed-traffic soak (scripts/soak.mjs).
 */
export default defineConfig({
  test: {
    // Three files at once on this project's two-core machines: vitest's default (cores - 1) ran
    // every file one after another, 41 minutes, though most of a file's time is spent waiting on
    // Chromium, a database or a `remit` child process. Three took the same suite to 9 minutes, green.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['core/**/*.test.ts', 'cli/**/*.test.ts', 'http/**/*.test.ts', 'admin/src/**/*.test.ts'],
          // pure functions: the same workers run every file, no fresh process per file (forks, not threads:
          // the time tests set TZ, which only a process honours)
          pool: 'forks',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/soak/**'],
          globalSetup: ['test/globalSetup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'soak',
          include: ['test/soak/**/*.test.ts'],
          globalSetup: ['test/globalSetup.ts'],
          testTimeout: 600_000,
        },
      },
      {
        extends: true,
        // a browser test waits for states, never for time; this only bounds one that never comes,
        // generously, since npm test runs the three projects side by side on a busy machine
        // expect.poll waits for a state (a sentence gone, a list settled) up to 20 s, not vitest's
        // default 1 s, which a re-render on a loaded machine outlasted
        test: {
          name: 'browser',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/globalSetup.ts'],
          testTimeout: 120_000,
          expect: { poll: { timeout: 20_000 } },
        },
      },
    ],
  },
});
