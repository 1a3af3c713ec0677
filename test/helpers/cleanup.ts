// Setup file of both projects: removes the temporary directories a test file made outside its
// tests (see test/helpers/temp.ts) once the file is done.
import { afterAll } from 'vitest';
import { removeFileLevelDirs } from './temp.js';

afterAll(removeFileLevelDirs);
