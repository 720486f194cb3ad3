import { defineConfig } from 'tsup';
import { asciiOutput } from './build/ascii-output.js';

export default defineConfig({
  // parse-worker.js sits beside index.js: the ParsePool starts it from there.
  entry: { index: 'src/index.ts', vocabulary: 'src/vocabulary.ts', 'parse-worker': 'src/html/parse-worker.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'node20',
  // An application compiles the engine's code at each start: plain ASCII, it is held as one byte a character, not two.
  onSuccess: async () => {
    asciiOutput('dist');
  },
});
