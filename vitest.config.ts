import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // a command run without --db must not write to the real home
    setupFiles: ['test/helpers/isolated-data-home.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Each worker process runs its test files one after another with the modules it has already
    // imported: with a fresh import per file the suite spent ~170 s of its ~830 s importing. A file that
    // changes process-wide state (process.env, fake timers, listeners) puts it back in afterAll/finally;
    // the setup file still runs for every file, so each keeps its own data home.
    isolate: false,
    reporters: ['default'],
  },
});
