/**
 * Key-like names: which assignment names (`DB_PASSWORD`, `"apiKey"`, `client-secret`, `X-Api-Key`)
 * announce a secret, and of which kind. Names are split into lower-case words at separators and
 * camelCase boundaries, so `githubToken`, `GITHUB_TOKEN` and `github-token` read alike.
 */

/**
 * What a name says its value is. `key`, `personal-token` and `session` values must also look random to
 * count, a `webhook` value must be a URL holding a random part (see `detectors.ts`).
 */
export type NameClass =
  'password' | 'secret' | 'token' | 'personal-token' | 'session' | 'webhook' | 'api-key' | 'aws-secret-key' | 'azure-key' | 'key';

/** Last words that make the name about the secret, not the secret itself (`secret_name`, `tokenCount`). */
const META_WORDS = new Set([
  'id',
  'ids',
  'name',
  'names',
  'arn',
  'type',
  'types',
  'file',
  'files',
  'path',
  'paths',
  'url',
  'uri',
  'endpoint',
  'length',
  'len',
  'count',
  'size',
  'field',
  'fields',
  'env',
  'var',
  'ref',
  'hint',
  'prompt',
  'label',
  'header',
  'placeholder',
  'policy',
  'rotation',
  'expiry',
  'expires',
  'expiration',
  'ttl',
  'version',
  'manager',
  'store',
  'vault',
  'provider',
  'limit',
  'limits',
  'budget',
  'usage',
  'format',
  'pattern',
  'regex',
  'schema',
  'reset',
  'strength',
  'min',
  'max',
  'required',
  'hash',
  'hashed',
  'salt',
  'algorithm',
  'mode',
  'source',
  'kind',
  'prefix',
  'suffix',
  'index',
  'offset',
  'position',
  'lifetime',
  'location',
  'dir',
  'folder',
  'exists',
  'set',
  'changed',
  'enabled',
  'visible',
  'input',
  'error',
  'errors',
  'message',
  'created',
  'updated',
  'at',
  'bucket',
  'fingerprint',
]);

/** Words before `key` that make it an ordinary key (`cache_key`, `public_key`, `sortKey`). */
const ORDINARY_KEYS = new Set([
  'public',
  'cache',
  'primary',
  'foreign',
  'sort',
  'partition',
  'idempotency',
  'object',
  'hot',
  'shortcut',
  'map',
  'dict',
  'lookup',
  'row',
  'composite',
  'unique',
  'react',
  'list',
  'item',
  'group',
  'route',
  'i18n',
  'translation',
  'storage',
  'local',
  'dedup',
  'source',
  'hash',
  'join',
  'range',
  'shard',
  'routing',
  'natural',
  'surrogate',
  'query',
  'state',
  'config',
  'registry',
  'host',
  'ssh',
  'gpg',
  'pgp',
  'publishable',
  'site',
  'anon',
  'next',
]);

/** Splits a name into lower-case words: `githubApiToken` → github, api, token. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Every announcing name contains one of these (a cheap first check: most names are `id`, `type`, `url`…). */
const HINT = /pass|pw|secret|token|key|auth|cred|pat|sess|cookie|hook/i;

/** Names seen lately and their class: a text repeats its names (`token=…&token=…`, a log). */
const recent = new Map<string, NameClass | null>();
const RECENT_MAX = 512;

/** Words ending in `pass` that are not passwords. */
const ORDINARY_PASS = new Set(['bypass', 'compass', 'encompass', 'surpass', 'trespass', 'overpass', 'underpass', 'multipass', 'subpass']);

/** A password word run together with what it is for: `pgpassword`, `rootpasswd`, `pgpass`, `dbpass`. */
function isCompoundPassword(word: string): boolean {
  if (/^[a-z0-9]{1,12}pass(?:word|wd)$/.test(word)) return true;
  return /^[a-z0-9]{2,8}pass$/.test(word) && !ORDINARY_PASS.has(word);
}

/** The class of secret a name announces, or null when it announces none. */
export function classifyName(name: string): NameClass | null {
  if (!HINT.test(name)) return null;
  const known = recent.get(name);
  if (known !== undefined) return known;
  const nameClass = classifyWords(nameWords(name));
  if (recent.size >= RECENT_MAX) recent.clear();
  recent.set(name, nameClass);
  return nameClass;
}

/** Last words of a session cookie's name (`PHPSESSID`, `sessionid`, `SESSION`, `Cookie`). */
const SESSION_WORDS = new Set(['session', 'sessionid', 'sessid', 'phpsessid', 'jsessionid', 'cookie', 'cookies']);
/** Last words of a webhook's name: its URL is the credential (`DISCORD_WEBHOOK_URL`, `slackWebhook`). */
const WEBHOOK_LAST = new Set(['webhook', 'webhooks', 'hook', 'url', 'uri', 'endpoint']);

/**
 * The class a name's last word gives before the meta words are read (`webhook_url` is a secret,
 * `avatar_url` is not). `session_id` stays an id, as in the corpus: a log line's id, not its cookie.
 */
function classifyEnding(words: readonly string[], last: string): NameClass | null {
  if (SESSION_WORDS.has(last)) return 'session';
  if (WEBHOOK_LAST.has(last) && words.some((w) => w === 'webhook' || w === 'webhooks' || (w === 'hook' && last !== 'hook')))
    return 'webhook';
  return null;
}

function classifyWords(words: readonly string[]): NameClass | null {
  if (words.length === 0 || words.length > 6) return null;
  const last = words[words.length - 1] as string;
  const ending = classifyEnding(words, last);
  if (ending !== null) return ending;
  if (META_WORDS.has(last)) return null;
  const has = (w: string): boolean => words.includes(w);
  if (has('aws') && (has('secret') || has('key'))) return has('secret') ? 'aws-secret-key' : null;
  if (has('secretaccesskey') || (has('secret') && has('access') && has('key'))) return 'aws-secret-key';
  if (has('azure') && (has('key') || has('secret'))) return 'azure-key';
  if (['password', 'passwd', 'pwd', 'passphrase', 'pw'].some(has) || words.some(isCompoundPassword)) return 'password';
  // `pass` is a password as the last word (`RABBITMQ_DEFAULT_PASS`) or in a short name, not in `first_pass_count`
  if (has('pass')) return words.length <= 2 || last === 'pass' ? 'password' : null;
  if (has('secret') || has('secrets') || has('clientsecret')) return 'secret';
  // `csrftoken`, `idtoken`: a token word run together with what it is for
  if (has('token') || words.some((w) => /^[a-z0-9]{2,12}token$/.test(w))) return 'token';
  // a personal access token (`GITHUB_PAT`, `AZURE_DEVOPS_PAT`), never `Pat` the name (the value must look random)
  if (last === 'pat') return 'personal-token';
  if (
    has('apikey') ||
    has('apikeys') ||
    (has('api') && has('key')) ||
    has('credential') ||
    has('credentials') ||
    has('creds') ||
    (has('private') && has('key'))
  )
    return 'api-key';
  if (has('subscription') && has('key')) return 'api-key';
  if ((has('access') || has('signing') || has('master') || has('encryption') || has('license')) && has('key')) return 'key';
  // a lone `key` is too common (`"Key": "uploads/a.png"`, `key={item.id}`); `mailgun_key` is not
  if (last === 'key' && words.length >= 2 && !words.slice(0, -1).some((w) => ORDINARY_KEYS.has(w))) return 'key';
  if (has('auth') && words.length <= 2 && last === 'auth') return 'key';
  return null;
}
