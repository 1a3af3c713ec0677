import { resolve } from 'node:path';
import type { TestModule, Vitest } from 'vitest/node';

/** How long changes to dataset files gather before one rerun (Vitest waits 100 ms for its own). */
const DEBOUNCE_MS = 100;

/**
 * Watch mode for datasets and rubrics. They are read with `fs`, so they are not in Vite's module
 * graph and Vitest would not rerun anything when one changes. Each generated test names the files
 * its suite was loaded from on `task.meta.aiEvalFiles`; after every run this adds them to Vite's
 * file watcher, and a change to one reruns exactly the test files whose suites use it, through
 * Vitest's public `rerunTestSpecifications`.
 *
 * @example
 * ```ts
 * onInit(vitest) { if (vitest.config.watch) this.watch = new DatasetWatch(vitest); }
 * onTestRunEnd(modules) { this.watch?.learn(modules); }
 * ```
 */
export class DatasetWatch {
  /** Dataset or rubric file -> the test files whose suites read it. */
  private readonly users = new Map<string, Set<string>>();
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly vitest: Vitest) {
    const watcher = vitest.vite.watcher;
    const onChange = (file: string): void => this.changed(resolve(file));
    watcher.on('change', onChange);
    watcher.on('add', onChange);
  }

  /** Records which files the tests of these modules were loaded from, and watches them. */
  learn(modules: ReadonlyArray<TestModule>): void {
    const added: string[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const files = (test.meta() as { aiEvalFiles?: unknown }).aiEvalFiles;
        if (!Array.isArray(files)) continue;
        for (const file of files) {
          if (typeof file !== 'string') continue;
          const path = resolve(file);
          let users = this.users.get(path);
          if (!users) {
            users = new Set();
            this.users.set(path, users);
            added.push(path);
          }
          users.add(module.moduleId);
        }
      }
    }
    if (added.length > 0) this.vitest.vite.watcher.add(added);
  }

  /** The test files that read `file`, for tests. */
  usersOf(file: string): string[] {
    return [...(this.users.get(resolve(file)) ?? [])].sort();
  }

  private changed(file: string): void {
    const users = this.users.get(file);
    if (!users) return;
    for (const user of users) this.pending.add(user);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.rerun(), DEBOUNCE_MS);
  }

  private async rerun(): Promise<void> {
    const modules = [...this.pending];
    this.pending.clear();
    const specifications = modules.flatMap((id) => this.vitest.getModuleSpecifications(id));
    if (specifications.length === 0) return;
    try {
      await this.vitest.rerunTestSpecifications(specifications);
    } catch (error) {
      this.vitest.logger.error(`[ai-eval] could not rerun after a dataset changed: ${String(error)}`);
    }
  }
}
