import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { ROOT } from './paths.js';

/**
 * The shipped JSON Schema of the report (schema/report.json), compiled once. Its `date-time`
 * format is checked too, by Date.parse, so a malformed timestamp fails validation.
 */
export const validateReport = new Ajv2020.default({
  allErrors: true,
  strict: false,
  formats: { 'date-time': (value: string) => !Number.isNaN(Date.parse(value)) },
}).compile(JSON.parse(readFileSync(join(ROOT, 'schema', 'report.json'), 'utf8')) as object);
