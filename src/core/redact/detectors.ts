/**
 * The built-in secret detectors, most specific first: provider formats (each with its own kind), then
 * credentials by position (a password in a URL, an `Authorization` header), then values announced by
 * a key-like name (`password=`, `"apiKey": "…"`, `--token …`). Repetitions are bounded and the
 * costlier patterns run only on texts that hold their marker (`when`), so a long or odd text stays cheap.
 */
import { classifyName, type NameClass } from './secret-names.js';

/** One detector: a global pattern and what to put in place of a match (null keeps the match as it is). */
export interface Detector {
  readonly kind: string;
  readonly pattern: RegExp;
  /** Runs only on texts this accepts (a cheap check that keeps an expensive pattern off most texts). */
  readonly when?: (text: string) => boolean;
  /** The replacement of one match; `placeholder(kind)` stands for the secret. Default: the whole match. */
  readonly replace?: (match: string, groups: readonly (string | undefined)[], placeholder: (kind: string) => string) => string | null;
}

/** Bits of Shannon entropy per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Does `value` look like a random credential (long, mixed letters and digits, high entropy)? */
export function looksRandom(value: string, minLength = 16): boolean {
  if (value.length < minLength || !/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  if (!/^[A-Za-z0-9+/=_\-.~]+$/.test(value)) return false;
  return entropy(value) >= (value.length >= 24 ? 3.2 : 3.0);
}

const PLACEHOLDER_VALUE =
  /^(?:\*+|x{3,}|X{3,}|\.{2,}|…|-+|_+|<[^>]*>|\{\{[^}]*\}\}|\$\{[^}]*\}|\$\(?[A-Za-z_][A-Za-z0-9_]*\)?|%[A-Za-z_]+%|\[redacted:[a-z0-9-]+\]|redacted|your[-_ ]?[a-z_-]*(?:here)?|(?:my|the|some|a|an|new|old)[-_ ]?(?:password|secret|token|key)|placeholder|example|changeit|null|nil|none|undefined|true|false|empty|string|str|number|int|bool|boolean|bytes|buffer|any|unknown|object|optional|required|env|environ|secret|password|token|key|hidden|masked|omitted|\?+)$/i;

/** A bare value that is code, not a literal: `process.env.TOKEN`, `getSecret()`, `${{ secrets.X }}`. */
const CODE_VALUE =
  /^[A-Za-z_$][\w$]*(?:(?:\.|\?\.|::)[A-Za-z_$][\w$]*)+$|[()[\]{}]|^(?:=|\+|&|@|#)|^(?:process|os|env|config|settings|self|this|req|request|args|opts|options|props|params|secrets|vault|input|getenv|environ)\b/;

/** A standard, ticket or version named by letters and a number: `ERC-20`, `RFC-7519`, `JIRA-1234`. */
const NAMED_NUMBER = /^[A-Z]{2,10}-\d{1,6}$/;

/** Is an assigned value a real credential of its name's class (not a placeholder, a type or code)? */
export function isCredentialValue(value: string, nameClass: NameClass, quoted: boolean): boolean {
  if (value.length === 0 || PLACEHOLDER_VALUE.test(value)) return false;
  // a word that is also a first name (`Pat: …`) or a cookie header (`Cookie: sessionid=…`, whose
  // pairs are read one by one) counts only with a random value
  if (nameClass === 'personal-token') return looksRandom(value, 16);
  if (nameClass === 'session') return !/=[^=]/.test(value) && looksRandom(value, 16);
  if (nameClass === 'webhook') return isSecretUrl(value);
  if (nameClass === 'key' || nameClass === 'api-key' || nameClass === 'azure-key' || nameClass === 'aws-secret-key')
    return looksRandom(value, nameClass === 'key' ? 20 : 16);
  if (!quoted && CODE_VALUE.test(value)) return false;
  if (quoted) return value.length >= 4 && value.trim().split(/\s+/).length <= 4 && !/\$\{|\{\{/.test(value);
  // unquoted: a sentence's next word is not a password, a mixed or long value is; a token or secret is
  // longer than a password, and a name with a number (`ERC-20`, `JIRA-1234`) is neither
  if (value.length < (nameClass === 'password' ? 6 : 8) || NAMED_NUMBER.test(value)) return false;
  return /[0-9]/.test(value) || /[^A-Za-z0-9]/.test(value) || /[a-z][A-Z]|[A-Z][a-z].*[A-Z]/.test(value) || value.length >= 12;
}

/** A URL with a random part in its path or query (`…/webhooks/1234/aB3dE5…`): not `https://example.com/webhook`. */
function isSecretUrl(value: string): boolean {
  const url = /^[a-z][a-z0-9+.-]{1,20}:\/\/[^\s/?#]+([^\s]*)$/i.exec(value);
  return url !== null && (url[1] as string).split(/[/?&=#@]/).some((part) => looksRandom(part, 16));
}

const NAME_KIND: Record<NameClass, string> = {
  password: 'password',
  secret: 'secret',
  token: 'token',
  'personal-token': 'token',
  session: 'session-token',
  webhook: 'webhook-url',
  'api-key': 'api-key',
  'aws-secret-key': 'aws-secret-key',
  'azure-key': 'azure-key',
  key: 'secret-key',
};

/** A PEM private key block; see its detector. */
function pemBlockPattern(): RegExp {
  const lineBreak = String.raw`(?:\r?\n|\\n|[ \t])+`;
  const headers = String.raw`(?:${lineBreak}[A-Za-z-]{1,40}: [^\n\\]{0,200})*`;
  // lines of base64 (a key pasted on one line is one long line)
  const lines = (first: string): string =>
    String.raw`(?:${lineBreak})?[A-Za-z0-9+/=]{${first},4096}(?:${lineBreak}[A-Za-z0-9+/=]{1,4096}){0,200}`;
  const end = String.raw`-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`;
  return new RegExp(
    String.raw`-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----${headers}(?:(?:${lines('1')})?(?:${lineBreak})?${end}|${lines('40')})`,
    'g',
  );
}

/** Provider formats: each is a credential wherever it appears. */
const PROVIDER_FORMATS: readonly Detector[] = [
  // a PEM private key block: the header, base64 lines and the END line, or without END (a paste cut
  // short, a block cut by chunking) at least one full base64 line; also inside JSON with literal \n.
  // A header followed by prose is not a key.
  {
    kind: 'private-key',
    pattern: pemBlockPattern(),
    // words between a header and an END line in prose are not a key: a key has long base64 runs
    replace: (m, _g, placeholder) => (/[A-Za-z0-9+/=]{16,}/.test(m.slice(m.indexOf('-----', 5) + 5)) ? placeholder('private-key') : null),
  },
  // the tail of a block whose BEGIN is in another chunk: base64 lines, from a line start, up to its END
  // (at most 64 lines back, so a base64 dump without a key costs little: a 4096-bit RSA key has 50)
  {
    kind: 'private-key',
    pattern:
      /(?<![A-Za-z0-9+/=])(?:[A-Za-z0-9+/=]{40,100}(?:\r?\n|\\n)){1,64}[A-Za-z0-9+/=]{0,100}(?:\r?\n|\\n)?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
    when: (text) => text.includes('PRIVATE KEY-----'),
  },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g },
  { kind: 'gcp-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: 'gcp-oauth-secret', pattern: /\bGOCSPX-[0-9A-Za-z_-]{20,}/g },
  { kind: 'gcp-oauth-token', pattern: /\bya29\.[0-9A-Za-z_-]{20,}/g },
  { kind: 'github-token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g },
  { kind: 'github-token', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[a-z]{2,8}\d{0,3}-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'openai-key',
    // bounded, and whole: a match the check below refuses is searched again from its next character, so
    // an unbounded run made "sk-" repeated through 200,000 characters cost 54 s (each try read to the end)
    pattern: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,512}(?![A-Za-z0-9_-])/g,
    replace: (m, _g, placeholder) =>
      /[0-9]/.test(m) && /[A-Za-z].*[A-Za-z]/.test(m.slice(3)) && entropy(m) > 3 ? placeholder('openai-key') : null,
  },
  { kind: 'slack-token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/g },
  { kind: 'stripe-key', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'stripe-webhook-secret', pattern: /\bwhsec_[A-Za-z0-9]{24,}/g },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { kind: 'sendgrid-key', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { kind: 'azure-client-secret', pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g },
  {
    kind: 'azure-storage-key',
    pattern: /\b(AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{20,}={0,2})/g,
    replace: (_m, g, placeholder) => `${g[0]}=${placeholder('azure-storage-key')}`,
  },
  {
    kind: 'azure-sas-signature',
    pattern: /([?&]sig=)([A-Za-z0-9%+/=]{20,})/g,
    replace: (_m, g, placeholder) => `${g[0]}${placeholder('azure-sas-signature')}`,
  },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
];

/** Credentials by position: in a URL's authority, in an Authorization header. */
const POSITIONAL: readonly Detector[] = [
  {
    kind: 'url-password',
    // the password runs to the last `@` before the host (it may hold `@`, `#`, `/`), never past an `@host/` or into another URL
    pattern:
      /\b([a-z][a-z0-9+.-]{1,20}:\/\/)([^\s:/?#@'"]{0,128}):((?:(?!@[A-Za-z0-9.-]{1,100}(?::\d{1,5})?\/|:\/\/)[^\s?'"]){1,128})@(?=[^\s/?#@'"]+)/gi,
    when: (text) => text.includes('@') && text.includes('://'),
    // a token already redacted in the user part (`https://[redacted:github-token]@…`) is not a password
    replace: (_m, g, placeholder) =>
      PLACEHOLDER_VALUE.test(g[2] as string) || (g[1] as string).startsWith('[redacted')
        ? null
        : `${g[0]}${g[1]}:${placeholder('url-password')}@`,
  },
  {
    kind: 'bearer-token',
    pattern: /\b(Bearer|Token)(\s+)([A-Za-z0-9._~+/-]{16,}=*)/g,
    replace: (_m, g, placeholder) =>
      looksRandom((g[2] as string).replace(/=+$/, ''), 16) ? `${g[0]}${g[1]}${placeholder('bearer-token')}` : null,
  },
  {
    kind: 'basic-auth',
    pattern:
      /(?<![A-Za-z0-9_-])(Authorization:\s*Basic|-u|--user)(\s+)([A-Za-z0-9+/]{8,}={0,2}|[^\s:'"]{1,64}:[^\s'"]{4,128})(?=[\s'"]|$)/g,
    replace: (_m, g, placeholder) => {
      const value = g[2] as string;
      const flag = !(g[0] as string).startsWith('Authorization');
      if (flag && !value.includes(':')) return null;
      if (flag && PLACEHOLDER_VALUE.test(value.slice(value.indexOf(':') + 1))) return null;
      return `${g[0]}${g[1]}${flag ? `${value.slice(0, value.indexOf(':'))}:${placeholder('password')}` : placeholder('basic-auth')}`;
    },
  },
];

/** Builds the replacement of an announced value: the name, separator and quotes stay. */
function announced(
  prefix: string,
  nameClass: NameClass,
  quote: string | undefined,
  raw: string,
  placeholder: (kind: string) => string,
): string | null {
  const quoted = quote !== undefined;
  // a bare value ends at sentence punctuation ("password=hunter2." keeps the full stop)
  const value = quoted ? raw : raw.replace(/[.!?:)\]]+$/, '');
  if (!isCredentialValue(value, nameClass, quoted)) return null;
  const kept = quoted
    ? `${quote}${placeholder(NAME_KIND[nameClass])}${quote}`
    : `${placeholder(NAME_KIND[nameClass])}${raw.slice(value.length)}`;
  return `${prefix}${kept}`;
}

/**
 * A value announced by a key-like name: `NAME = value`, `NAME: "value"`, `"name": "value"`,
 * `NAME := value`, `name => value`, `--name=value`. A bare value ends at the next `&name=` of a query.
 */
const ASSIGNMENT: Detector = {
  kind: 'assignment',
  pattern:
    /(?<![A-Za-z0-9_$])(\\?["'`]?)([A-Za-z_][A-Za-z0-9_.-]{0,60})(\\?["'`]?)(\s*(?::=|=>|:|=)\s*)(?:(\\["'`])([^"'`\\\n]{0,512})\5|(["'`])((?:\\[^\n]|[^"'`\\\n]){0,512})\7|((?:[^\s"'`,;&]|&(?![A-Za-z_][\w.-]*=)){1,512}))/g,
  replace: (_m, g, placeholder) => {
    // a quote escaped in JSON text (`\"password\": \"…\"`) holds no escapes; a plain one may (`"a\"b"`)
    const [open, name, close, separator, escapedQuote, escapedValue, plainQuote, plainValue, bareValue] = g as [
      string,
      string,
      string,
      string,
      string | undefined,
      string | undefined,
      string | undefined,
      string | undefined,
      string | undefined,
    ];
    const quote = escapedQuote ?? plainQuote;
    const quotedValue = escapedValue ?? plainValue;
    const nameClass = classifyName(name);
    if (nameClass === null) return null;
    return announced(
      `${open}${name}${close}${separator}`,
      nameClass,
      quote,
      quote !== undefined ? (quotedValue as string) : (bareValue as string),
      placeholder,
    );
  },
};

/** A command-line flag and its value: `--password hunter2`, `--api-key "…"`. */
const FLAG: Detector = {
  kind: 'flag',
  pattern: /(?<![A-Za-z0-9_-])(--)([A-Za-z][A-Za-z0-9-]{1,40})(\s+)(?:(["'])([^"'\n]{1,512})\4|([^\s"'`;|&-][^\s"'`;|&]{0,511}))/g,
  replace: (_m, g, placeholder) => {
    const [dashes, name, space, quote, quotedValue, bareValue] = g as [
      string,
      string,
      string,
      string | undefined,
      string | undefined,
      string | undefined,
    ];
    const nameClass = classifyName(name);
    if (nameClass === null) return null;
    return announced(
      `${dashes}${name}${space}`,
      nameClass,
      quote,
      quote !== undefined ? (quotedValue as string) : (bareValue as string),
      placeholder,
    );
  },
};

/** A password said in prose: "my password is hunter2", "the passcode was 4417-alpha". */
const SPOKEN: Detector = {
  kind: 'password',
  pattern: /\b(pass(?:word|code|phrase)|pwd)(\s+(?:is|was|is now|will be)\s+)(["'`]?)([^\s"'`,;]{1,256})\3/gi,
  replace: (_m, g, placeholder) => {
    const [name, words, quote, value] = g as [string, string, string, string];
    return announced(`${name}${words}`, 'password', quote === '' ? undefined : quote, value, placeholder);
  },
};

/** The built-in detectors in the order they run. */
export const BUILT_IN_DETECTORS: readonly Detector[] = [...PROVIDER_FORMATS, ...POSITIONAL, ASSIGNMENT, FLAG, SPOKEN];
