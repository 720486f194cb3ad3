export { createEngine, type Engine } from './engine.js';
export type { EngineOptions } from './core/options.js';
export { API_VERSION, ENGINE_VERSION, defaultDataDir } from './core/options.js';
export { WvrError, isWvrError, errors, type ErrorBody, type ErrorType } from './core/errors.js';
export { manualClock, systemClock, type Clock, type ManualClock } from './core/clock.js';
export { seededRandom, cryptoRandom, type RandomSource } from './core/ids.js';
export { parseInput, type FieldProblem } from './core/validate.js';
