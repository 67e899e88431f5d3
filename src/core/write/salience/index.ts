/** Salience of a new memory: emotion, importance and surprise; pure and fast, run on every write. */
export { analyzeEmotion, type EmotionAnalysis } from './emotion.js';
export { scoreImportance, type ImportanceSignals } from './importance.js';
export { scoreSurprise } from './surprise.js';
