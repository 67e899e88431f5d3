/** LLM providers: adapters of the `Llm` port. Optional; Engram is complete without them. */
export { OpenAiCompatibleLlm, type OpenAiCompatibleLlmConfig } from './openai-compatible-llm.js';
