export { buildProgram } from './program.js';
export { main } from './main.js';
