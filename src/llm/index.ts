/** LLM providers: adapters of the `Llm` port (DESIGN §7). Optional; Engram is complete without them. */
export { OpenAiCompatibleLlm, type OpenAiCompatibleLlmConfig } from './openai-compatible-llm.js';
