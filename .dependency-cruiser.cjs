/**
 * Which folder may import which (`npm run lint`). Core knows no edge (HTTP, CLI, back office,
 * bench); migrations are history and import nothing of the code that changes after them.
 */
module.exports = {
  forbidden: [
    {
      name: 'migrations-are-history',
      comment: 'A migration keeps a copy of what it needs: core changing must not change what an old migration does.',
      severity: 'error',
      from: { path: '^migrations/' },
      to: { path: '^(core|http|cli|admin|bench)/' },
    },
    {
      name: 'core-knows-no-edge',
      comment: 'core/ is the library the edges call; it never calls them.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(http|cli|admin|bench|test)/' },
    },
    {
      name: 'product-knows-no-bench',
      comment: 'The bench measures the product; nothing shipped imports it.',
      severity: 'error',
      from: { path: '^(core|http|cli|admin/src)/' },
      to: { path: '^bench/' },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself through what it imports to run (types alone are free).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|^build/|\\.test\\.tsx?$)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
