import { evalSuite } from 'ai-eval/node';
import { configureDemo, DEMO_SUITES, suiteOptions } from '../editorial/demo.js';

// The same suites as examples/vitest, through node:test's evalSuite. node:test has no setup files,
// so the judges are configured here.
configureDemo();
for (const suite of DEMO_SUITES) evalSuite(suite.name, suiteOptions(suite));
