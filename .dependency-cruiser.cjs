/**
 * Which folder may import which (`npm run lint`). Core knows no edge (HTTP, CLI, back office,
 * bench); migrations are history and import nothing of the code that changes after them.
 * Core's folders import downwards only, in the order below (docs/code.md draws it).
 */

// lowest first; folders on one line know nothing of each other
const CORE_LAYERS = [
  ['spreadsheets', 'db'],
  ['audit'],
  ['backups'],
  ['users'],
  ['stores'],
  ['payments'],
  ['closes', 'links', 'reconcile', 'stats'],
];
// core's own files at its top: the public API and the start-up, which may import any folder
const CORE_TOP = '^core/(index|browser|browserSpreadsheets|config|secret|securitySettings|bootstrap)\\.ts$';

const coreOrder = CORE_LAYERS.flatMap((layer, i) =>
  layer.map((folder) => {
    const allowed = [folder, ...CORE_LAYERS.slice(0, i).flat()];
    return {
      name: `core-order-${folder}`,
      comment: `core/${folder}/ imports only ${allowed.join(', ')} and core's own files`,
      severity: 'error',
      from: { path: `^core/${folder}/` },
      to: { path: '^core/', pathNot: [`^core/(${allowed.join('|')})/`, '^core/[^/]+\\.ts$'] },
    };
  }),
);

module.exports = {
  forbidden: [
    ...coreOrder,
    {
      name: 'core-files-below-folders',
      comment: "core's own files (errors, messages, time, permissions, the records' types …) are its base: no folder",
      severity: 'error',
      from: { path: '^core/[^/]+\\.ts$', pathNot: CORE_TOP },
      to: { path: '^core/[^/]+/' },
    },
    {
      name: 'core-top-is-top',
      comment: 'nothing in core imports its public API or its start-up',
      severity: 'error',
      from: { path: '^core/', pathNot: CORE_TOP },
      to: { path: CORE_TOP },
    },
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
