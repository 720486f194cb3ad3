export { buildProgram } from './program.js';
export { main } from './main.js';
export type { Backend } from './backends/backend.js';
export { LocalBackend } from './backends/local.js';
export { RemoteBackend } from './backends/remote.js';
