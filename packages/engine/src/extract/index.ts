export { ExtractionService, type ExtractionDeps, type PageExtraction, type PageExtractionConfig } from './service.js';
export { extractHeuristic, type ExtractionInput, type FieldResult, type HeuristicExtraction } from './heuristic.js';
export { textPage } from './text-page.js';
export { classifyPage, DOCUMENT_TYPES, type Classification, type DocumentType } from './classify.js';
export { applyClassifiers, validateClassifiers, checkClassifiers, ClassifierConfig, CLASSIFIER_TYPES, type ClassifierVerdict, type ClassifierInput } from './classifiers.js';
export { intentFromSchema, intentRelevance } from './intent.js';
export { summarizeText, summarizeCrawl } from './summary.js';
export type { FieldValue } from './coerce.js';
export { scoreFields, emptyScore, precision, recall, type FieldScore } from './scoring.js';
