/** A chat-completions language model, optional everywhere. */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Options of one completion. */
export interface LlmCompleteOptions {
  /** Ask for a JSON object answer (providers that support it enforce it; callers still validate). */
  json?: boolean;
  maxTokens?: number;
  /** Sampling temperature (default 0: the most deterministic answer). */
  temperature?: number;
  signal?: AbortSignal;
}

export interface Llm {
  readonly name: string;
  /**
   * Sends messages and returns the assistant's text. Rejects with `EngramError` on timeout or transport
   * failure (after the provider's own retries); callers fall back to their deterministic path.
   */
  complete(messages: readonly LlmMessage[], options?: LlmCompleteOptions): Promise<string>;
}
