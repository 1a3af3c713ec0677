// Types of the validators scripts/compile-schemas.mjs generates from schema/dataset.json.
import type { ValidateFunction } from 'ajv';

/** Validates a whole dataset document. */
export declare const document: ValidateFunction;
/** Validates one question (`#/$defs/question`). */
export declare const question: ValidateFunction;
