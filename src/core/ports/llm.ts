/** A chat-completions language model, optional everywhere (DESIGN §7). */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Llm {
  readonly name: string;
  /**
   * Sends messages and returns the assistant's text. Rejects with `EngramError` on timeout or transport
   * failure; callers fall back to their deterministic path.
   */
  complete(messages: readonly LlmMessage[], options?: { json?: boolean; maxTokens?: number; signal?: AbortSignal }): Promise<string>;
}
