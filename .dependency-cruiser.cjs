/**
 * The layer rules of ai-eval (see docs/architecture.md): imports point down this list, never up,
 * and nothing in src/ imports a test runner. `npm run lint` runs it.
 */
const layers = [
  ['internal', '^src/(internal/|errors\\.ts$)'],
  ['base', '^src/(logger|config)\\.ts$'],
  ['grading', '^src/grading/'],
  ['graders', '^src/(graders|judge)/'],
  ['judges', '^src/judges/'],
  ['registry', '^src/registry/'],
  ['datasets', '^src/datasets/'],
  ['run', '^src/run/'],
  ['report', '^src/report/'],
  ['validation', '^src/validation/'],
  ['index', '^src/index\\.ts$'],
  ['cli', '^src/cli/'],
  ['adapters', '^(matchers|reporter)/'],
];

const upward = layers.slice(0, -1).map(([name, path], i) => ({
  name: `layer-${name}`,
  comment: `${name} may import only from the layers below it`,
  severity: 'error',
  from: { path },
  to: {
    path: layers
      .slice(i + 1)
      .map(([, p]) => `(${p})`)
      .join('|'),
  },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycles',
      severity: 'error',
      from: { path: '^(src|matchers|reporter)/' },
      to: { circular: true },
    },
    {
      name: 'core-knows-no-runner',
      comment: 'src/ never imports a test runner',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        path: '(^|/)node_modules/(vitest|jest|@jest/[^/]+|expect|@vitest/[^/]+)/|^node:test$',
        dependencyTypesNot: [],
      },
    },
    {
      name: 'core-no-runner-builtin',
      comment: 'src/ never imports node:test',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?test$' },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
