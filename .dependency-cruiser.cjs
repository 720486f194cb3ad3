// The house rules ARCHITECTURE.md describes, checked on every test run (`pnpm check:deps`).
// Layers point downward only: a folder may import the folders listed before it, never after.
const ENGINE = '^packages/engine/src/';

/** The engine's layers, bottom first. Between the ground and the capabilities sit the store and the context. */
const GROUND = ['core'];
const TEXT = ['text', 'html'];
/** Capabilities, each above the ones it may call. A new capability folder gets its place here. */
const CAPABILITIES = ['ai', 'web', 'accounts', 'credits', 'notify', 'jobs', 'extract', 'brand', 'search', 'crawl', 'map', 'ask', 'sessions', 'workflows', 'monitors'];

/** The composition root and test scaffolding may import anything. */
const TOP = `${ENGINE}(engine|index|vocabulary)\\.ts$|${ENGINE}operations/|${ENGINE}testing/|\\.(child|fixture)\\.ts$|/testing\\.ts$`;
const folders = (names) => `${ENGINE}(${names.join('|')})/`;
/** A capability's own vocabulary: what the store's ports speak in. */
const DECLARATIONS = `${ENGINE}[^/]+/(schemas|vocabulary)\\.ts$`;

const upward = CAPABILITIES.slice(0, -1).map((name, i) => ({
  name: 'no-upward-import',
  comment: `${name}/ may use only core, text, html, the store, the context and the capabilities listed before it`,
  severity: 'error',
  from: { path: `${ENGINE}${name}/`, pathNot: TOP },
  to: { path: folders(CAPABILITIES.slice(i + 1)) },
}));

module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', comment: 'Import cycles, type-only ones included.', from: {}, to: { circular: true } },
    {
      name: 'core-is-ground',
      severity: 'error',
      comment: 'core/ depends on nothing of the engine but itself.',
      from: { path: folders(GROUND) },
      to: { path: ENGINE, pathNot: folders(GROUND) },
    },
    {
      name: 'text-below-capabilities',
      severity: 'error',
      from: { path: folders(TEXT) },
      to: { path: ENGINE, pathNot: folders([...GROUND, ...TEXT]) },
    },
    {
      name: 'store-below-services',
      severity: 'error',
      comment: "The store speaks the capabilities' vocabulary (their schemas), never their services.",
      from: { path: `${ENGINE}store/`, pathNot: TOP },
      to: { path: ENGINE, pathNot: `${folders([...GROUND, ...TEXT, 'store'])}|${DECLARATIONS}` },
    },
    {
      name: 'context-below-capabilities',
      severity: 'error',
      from: { path: `${ENGINE}context\\.ts$` },
      to: { path: ENGINE, pathNot: folders([...GROUND, 'store']) },
    },
    ...upward,
    {
      name: 'no-import-of-the-root',
      severity: 'error',
      comment: 'Only the composition root (engine.ts, index.ts) and test scaffolding see the whole engine.',
      from: { path: ENGINE, pathNot: TOP },
      to: { path: TOP },
    },
    {
      name: 'every-folder-has-a-layer',
      severity: 'error',
      comment: 'A new folder in the engine takes its place in the layer lists of this file.',
      from: { path: `${ENGINE}[^/]+/`, pathNot: `${folders([...GROUND, ...TEXT, 'store', 'testing', 'operations', ...CAPABILITIES])}` },
      to: {},
    },
    {
      name: 'sql-only-in-store',
      severity: 'error',
      comment: 'Database drivers and query builders are the store\'s business (packages/engine/src/store/).',
      from: { path: ENGINE, pathNot: `${ENGINE}store/` },
      to: { path: 'node_modules/(better-sqlite3|drizzle-orm|pg|@types/better-sqlite3|@types/pg)/' },
    },
    { name: 'engine-stands-alone', severity: 'error', from: { path: '^packages/engine/' }, to: { path: '^packages/(server|sdk|cli)/' } },
    { name: 'server-over-the-engine', severity: 'error', from: { path: '^packages/server/' }, to: { path: '^packages/(sdk|cli)/' } },
    { name: 'sdk-is-a-client', severity: 'error', from: { path: '^packages/sdk/src/', pathNot: '/testing\\.ts$' }, to: { path: '^packages/(engine|server|cli)/' } },
    { name: 'testkit-stands-alone', severity: 'error', from: { path: '^packages/testkit/' }, to: { path: '^packages/(engine|server|sdk|cli)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$|/dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
