/** The OpenAI-compatible embeddings adapter (`openai:<model>`): OpenAI, Ollama, vLLM, LM Studio. */
export { OpenAiEmbedder, createOpenAiEmbedder, type OpenAiEmbedderOptions } from './openai-embedder.js';
export { openAiEmbedderFromEnv, openAiModelOf, DEFAULT_EMBEDDINGS_URL } from './openai-embedder-env.js';
