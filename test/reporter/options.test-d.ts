import { expectTypeOf, test } from 'vitest';
import type { Reporter } from 'vitest/node';
import AiEvalJestReporter from '../../reporter/jest.js';
import AiEvalVitestReporter, { type EvalReport, type ReporterOptions } from '../../reporter/vitest.js';

test('the Vitest reporter is a Vitest Reporter and takes typed options', () => {
  expectTypeOf<AiEvalVitestReporter>().toMatchTypeOf<Reporter>();
  new AiEvalVitestReporter({ outputFile: 'a.json', gate: { level: 'hard', minAverage: 3.5 } });
  // @ts-expect-error a gate level is 'hard' or 'soft'
  new AiEvalVitestReporter({ gate: { level: 'firm', minAverage: 3.5 } });
  // @ts-expect-error unknown option
  new AiEvalVitestReporter({ outputfile: 'a.json' });
  expectTypeOf<ReporterOptions['failOnError']>().toEqualTypeOf<boolean | undefined>();
  expectTypeOf<EvalReport['targets'][number]['mode']>().toEqualTypeOf<'agent' | 'chat' | null>();
});

test('the Jest reporter has the hooks Jest calls', () => {
  const reporter = new AiEvalJestReporter({ rootDir: '/repo' }, { junitFile: 'junit.xml' });
  expectTypeOf(reporter.getLastError).returns.toEqualTypeOf<Error | undefined>();
  expectTypeOf(reporter.onRunStart).toBeFunction();
  expectTypeOf(reporter.onRunComplete).toBeFunction();
});
