import { configureDemo } from '../editorial/demo.js';

configureDemo();
