import { defineConfig } from 'tsup';

export default defineConfig({
  // parse-worker.js sits beside index.js: the ParsePool starts it from there.
  entry: { index: 'src/index.ts', vocabulary: 'src/vocabulary.ts', 'parse-worker': 'src/html/parse-worker.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'node20',
});
