/**
 * `engram/langchain`: Engram for LangChain.js (`@langchain/core`, an optional peer dependency). Any
 * export added here becomes public API.
 */
export { EngramRetriever, type EngramRetrieverInput, type EngramDocumentMetadata } from './engram-retriever.js';
export { EngramChatMessageHistory, type EngramChatMessageHistoryInput } from './engram-chat-message-history.js';
