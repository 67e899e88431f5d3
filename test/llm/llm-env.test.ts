import { describe, expect, it } from 'vitest';
import { llmFromEnv } from '../../src/interfaces/cli/llm-env.js';

describe('LLM configuration from the environment', () => {
  it('is off without a base URL', () => {
    expect(llmFromEnv({})).toBeUndefined();
    expect(llmFromEnv({ ENGRAM_LLM_MODEL: 'x' })).toBeUndefined();
  });

  it('reads URL, model, key, timeout, retries and the uses to switch on', () => {
    expect(
      llmFromEnv({
        ENGRAM_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
        ENGRAM_LLM_MODEL: 'llama3.1',
        ENGRAM_LLM_API_KEY: 'k',
        ENGRAM_LLM_TIMEOUT_MS: '5000',
        ENGRAM_LLM_RETRIES: '0',
        ENGRAM_LLM_USES: 'importance, reflection',
      }),
    ).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1',
      apiKey: 'k',
      timeoutMs: 5000,
      retries: 0,
      uses: { importance: true, supersession: false, extraction: false, reflection: true },
    });
    expect(llmFromEnv({ ENGRAM_LLM_BASE_URL: 'http://x/v1', ENGRAM_LLM_MODEL: 'm', ENGRAM_LLM_USES: 'none' })?.uses).toEqual({
      importance: false,
      supersession: false,
      extraction: false,
      reflection: false,
    });
  });

  it('refuses a half or wrong configuration with a message that says what to set', () => {
    expect(() => llmFromEnv({ ENGRAM_LLM_BASE_URL: 'http://x/v1' })).toThrow(/ENGRAM_LLM_MODEL/);
    expect(() => llmFromEnv({ ENGRAM_LLM_BASE_URL: 'http://x/v1', ENGRAM_LLM_MODEL: 'm', ENGRAM_LLM_RETRIES: '-1' })).toThrow(
      /ENGRAM_LLM_RETRIES/,
    );
    expect(() =>
      llmFromEnv({ ENGRAM_LLM_BASE_URL: 'http://x/v1', ENGRAM_LLM_MODEL: 'm', ENGRAM_LLM_USES: 'importance,telepathy' }),
    ).toThrow(/telepathy/);
  });
});
