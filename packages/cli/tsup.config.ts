import { defineConfig } from 'tsup';

// The CLI is a command, not a library: one entry, no type declarations. The commands' heavy imports
// (engine, server, ink, MCP) stay dynamic imports of external packages, so each loads only on use.
export default defineConfig({
  entry: ['src/bin.ts'],
  format: ['esm'],
  dts: false,
  clean: true,
  target: 'node20',
  splitting: true,
});
