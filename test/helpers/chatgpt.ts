/**
 * ChatGPT export fixtures for importer tests: the shape of `conversations.json`, built in code.
 */

/** A ChatGPT conversation of one user message (`conversations.json` holds a list of these). */
export function chatgptConversation(id: string, title: string, text: string): unknown {
  return {
    id,
    title,
    create_time: 1_700_000_000,
    current_node: 'u1',
    mapping: {
      r: { id: 'r', message: null, parent: null, children: ['u1'] },
      u1: {
        id: 'u1',
        parent: 'r',
        children: [],
        message: { id: 'u1', author: { role: 'user' }, create_time: 1_700_000_001, content: { content_type: 'text', parts: [text] } },
      },
    },
  };
}
