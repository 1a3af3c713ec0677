import { configDefaults, defineConfig } from 'vitest/config';

/** Files that start real Vitest, Jest, Node or tsc processes, or read the packed package. */
const E2E = 'test/**/*.e2e.test.ts';

// Two projects (test/README.md): `unit` runs in-process and builds nothing; `e2e` builds and packs
// the package once (its global setup) and runs real runners on fixture projects.
export default defineConfig({
  test: {
    // Every run, whichever projects it selects: one temporary root, removed at the end.
    globalSetup: ['test/helpers/temp-root.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          // A test that asserts nothing fails. (Not yet in e2e: test/judge/limits.e2e.test.ts has
          // one that relies on a timeout alone.)
          expect: { requireAssertions: true },
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, E2E],
          setupFiles: ['test/helpers/cleanup.ts'],
          // npm test runs the quick unit project first, then e2e: projects with their own
          // maxWorkers cannot share a group.
          sequence: { groupOrder: 0 },
          // Two cores: two workers (the default leaves one core idle).
          maxWorkers: 2,
          // One module graph per worker, not one per file (imports were half the time); the setup
          // file drops ai-eval's process-wide state after each file (test/api/global-state.test.ts).
          isolate: false,
          // The linear-time tests (long answers, long texts to redact) rely on the timeout, with no
          // threshold of their own: in quadratic time each takes minutes, in linear time about a
          // second, and up to 6 s on a machine whose cores other work shares, past the default 5 s.
          testTimeout: 20_000,
          typecheck: {
            enabled: true,
            include: ['test/**/*.test-d.ts'],
            tsconfig: './test/helpers/tsconfig.typecheck.json',
          },
        },
      },
      {
        test: {
          name: 'e2e',
          include: [E2E],
          setupFiles: ['test/helpers/cleanup.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
          sequence: { groupOrder: 1 },
          // Each test starts runner processes of its own; two cores share them.
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
