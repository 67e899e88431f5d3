/** Capture: the claim-shaped sentences of a conversation turn, read by rules (an LLM's extraction may replace them). */
export { captureClaims, readTurn, type CaptureTurn, type TurnRole } from './capture-claims.js';
export { notAClaim, type NotAClaim } from './claim-shape.js';
export { turnClauses } from './turn-sentences.js';
export { capturedClaimInputs, CAPTURED_TAG } from './captured-claims.js';
export { llmCapturedClaims } from './llm-capture.js';
export {
  answeredInput,
  answeredQuestions,
  closingQuestion,
  readAnswer,
  DECISION_TAG,
  type AnswerReading,
  type OpenTurn,
} from './answers.js';
export { keepOpenQuestions, openQuestionsOf } from './open-questions.js';
