/**
 * Where the sleep cycle keeps its identity keys: the state document `consolidate/key/<key>` of a scope
 * holds `{ id }`, the record or edge a phase made for that key, so a later run finds it instead of
 * making it again. Exports that carry the scope's state (the dump, the Markdown trailers) keep them.
 */
export const IDENTITY_KEY_PREFIX = 'consolidate/key/';
