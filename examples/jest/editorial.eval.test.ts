import { evalSuite } from 'ai-eval/jest';
import { DEMO_SUITES, suiteOptions } from '../editorial/demo.js';

// The same suites as examples/vitest, through Jest's evalSuite.
for (const suite of DEMO_SUITES) evalSuite(suite.name, suiteOptions(suite));
