import { evalSuite } from 'ai-eval/vitest';
import { DEMO_SUITES, suiteOptions } from '../editorial/demo.js';

// One generated test per dataset question, per suite (see examples/README.md for who catches what).
for (const suite of DEMO_SUITES) evalSuite(suite.name, suiteOptions(suite));
