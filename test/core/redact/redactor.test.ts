/**
 * The redactor as a pure function: the kind of each credential is kept in its placeholder, what
 * surrounds a secret stays (names, quotes, URL user and host), look-alikes in code stay, and the
 * options switch it off or add patterns.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor, redactInputs, redactRecord } from '../../../src/core/redact/index.js';
import type { MemoryRecord } from '../../../src/index.js';

const redactor = createRedactor();
const text = (input: string): string => redactor.redact(input).text;

describe('createRedactor().redact', () => {
  it.each([
    ['AWS access key', 'key AKIAZ7QW3ERT5YUI8OPA here', 'key [redacted:aws-access-key] here'],
    [
      'AWS secret key by name',
      'aws_secret_access_key = Zr4Tq9Wm2Xc7Vb5Nk8Lp/3Hs6Jd1Fg0Ya2Qe4Rt+',
      'aws_secret_access_key = [redacted:aws-secret-key]',
    ],
    ['GCP API key', 'key=AIzaSyZr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2', 'key=[redacted:gcp-api-key]'],
    ['GitHub token', 'token ghs_Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4 leaked', 'token [redacted:github-token] leaked'],
    [
      'GitHub fine-grained token',
      '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6Jd1Fg',
      '[redacted:github-token]',
    ],
    ['OpenAI project key', 'sk-proj-Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4_Zr4Tq9Wm2Xc7', '[redacted:openai-key]'],
    ['Anthropic key', 'sk-ant-api03-Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4-Zr4Tq9Wm2AA', '[redacted:anthropic-key]'],
    ['Slack token', 'xoxp-123456789012-1234567890123-Zr4Tq9Wm2Xc7Vb5N', '[redacted:slack-token]'],
    ['Stripe restricted key', 'rk_live_Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6', '[redacted:stripe-key]'],
    ['JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4', '[redacted:jwt]'],
    ['password in a URL', 'postgres://app:Hq7mZ2pLw9@db:5432/shop', 'postgres://app:[redacted:url-password]@db:5432/shop'],
    ['password= assignment', 'DB_PASSWORD=Hq7mZ2pLw9', 'DB_PASSWORD=[redacted:password]'],
    ['a short password', 'password: hunter22', 'password: [redacted:password]'],
    ['an unquoted token', 'token: Zr4Tq9Wm2', 'token: [redacted:token]'],
    ['secret: in YAML', 'client_secret: "Hq7mZ2pLw9xx"', 'client_secret: "[redacted:secret]"'],
    ['token= in a query', '/callback?access_token=Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6&state=1', '/callback?access_token=[redacted:token]&state=1'],
    ['Bearer header', 'Authorization: Bearer Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd', 'Authorization: Bearer [redacted:bearer-token]'],
    [
      'high-entropy value of a key-like name',
      'MAILGUN_SIGNING_KEY=zr4tq9wm2xc7vb5nk8lp3hs6jd1fg0ya',
      'MAILGUN_SIGNING_KEY=[redacted:secret-key]',
    ],
  ])('%s', (_name, input, expected) => {
    expect(text(input)).toBe(expected);
  });

  it.each([
    ['a password name run together', 'run it with PGPASSWORD=Tr0ub4dor3xK9 psql -h db', 'PGPASSWORD=[redacted:password] psql'],
    [
      'a short pass name run together',
      'PGPASS=Tr0ub4dor3xK9 and DBPASS=Hq7mZ2pLw9xy',
      'PGPASS=[redacted:password] and DBPASS=[redacted:password]',
    ],
    ['pass as the last word of a long name', 'RABBITMQ_DEFAULT_PASS=Tr0ub4dor3xK9', 'RABBITMQ_DEFAULT_PASS=[redacted:password]'],
    ['creds', 'creds=Tr0ub4dor3xK9mQ2wLz7', 'creds=[redacted:api-key]'],
    [
      'a URL password holding @ and #',
      'postgres://app:p@ss#w0rd!9@db.internal:5432/shop',
      'postgres://app:[redacted:url-password]@db.internal:5432/shop',
    ],
    [
      'a URL password holding /',
      'mysql://root:S3cr3t/Pa55word@10.0.0.5:3306/app',
      'mysql://root:[redacted:url-password]@10.0.0.5:3306/app',
    ],
    [
      'JSON-escaped name and value',
      String.raw`{\"user\": \"app\", \"password\": \"Tr0ub4dor&3xq\"}`,
      String.raw`\"password\": \"[redacted:password]\"}`,
    ],
    ['an escaped quote inside a quoted value', 'PASSWORD = "Tr0ub4\\"dor3" then', 'PASSWORD = "[redacted:password]" then'],
  ])('common credential forms: %s', (_name, input, expected) => {
    const out = text(input);
    expect(out).toContain(expected);
    expect(out).not.toMatch(/Tr0ub4|S3cr3t|Pa55word|w0rd|Hq7mZ2/);
  });

  it('leaves URLs whose path or query holds an @ and names that only contain pass', () => {
    for (const input of ['https://user:Hq7mZ2pLw9@host/reset?email=a@b.com', 'https://user:Hq7mZ2pLw9@host/path/x@y.com'])
      expect(text(input)).toBe(input.replace('Hq7mZ2pLw9', '[redacted:url-password]'));
    for (const input of ['BYPASS=Tr0ub4dor3xK9', 'first_pass_count: 12345678', 'compass: NorthEast2024']) expect(text(input)).toBe(input);
  });

  it('redacts a PEM private key block whole, and counts by kind', () => {
    const block = [
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEowIBAAKCAQEAzr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4Zr4Tq9Wm2Xc7Vb5',
      'Nk8Lp3Hs6Jd1Fg0Ya2Qe4==',
      '-----END RSA PRIVATE KEY-----',
    ].join('\n');
    const result = redactor.redact(`the key:\n${block}\nand a token ghp_Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4`);
    expect(result.text).toBe('the key:\n[redacted:private-key]\nand a token [redacted:github-token]');
    expect(result).toMatchObject({ count: 2, kinds: { 'private-key': 1, 'github-token': 1 } });
  });

  it('redacts a key block without its END line, but not the prose after a lone header', () => {
    const line = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Zq8Vb3nKx27LwPq9';
    const truncated = redactor.redact(`pasted:\n-----BEGIN RSA PRIVATE KEY-----\n${line}\n${line.slice(0, 30)}`);
    expect(truncated.text).toBe('pasted:\n[redacted:private-key]');
    const oneLine = redactor.redact(`-----BEGIN PRIVATE KEY-----${line}${line}-----END PRIVATE KEY----- ok`);
    expect(oneLine.text).toBe('[redacted:private-key] ok');
    for (const prose of [
      'How do I tell a PEM key? It starts with -----BEGIN PRIVATE KEY----- so my script greps for that line, then checks the file mode is 600 and prints OK.',
      'It starts with -----BEGIN PRIVATE KEY----- and ends with -----END PRIVATE KEY----- in the file.',
      '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----',
    ])
      expect(redactor.redact(prose)).toEqual({ text: prose, count: 0, kinds: {} });
  });

  it('leaves look-alikes in code and prose', () => {
    for (const input of [
      'interface Login { password: string; token?: string }',
      'const apiKey = process.env.OPENAI_API_KEY;',
      'token: ${{ secrets.GITHUB_TOKEN }}',
      'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 and sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
      'id 01J9ZQ4T7W2XC7VB5NK8LP3HS6 and uuid 3f0e2d1c-9b8a-4c7d-8e6f-5a4b3c2d1e0f',
      'OPENAI_API_KEY=your-api-key-here',
      'git clone git@github.com:acme/shop.git && open https://acme.dev/login?next=/home',
      'the password reset link expires after an hour',
      'token: ERC-20 standard',
      'secret: RFC-7519 says so',
      'token: abc-12',
    ]) {
      expect(redactor.redact(input)).toEqual({ text: input, count: 0, kinds: {} });
    }
  });

  it('reads an OpenAI key whole, up to 512 characters after its prefix; a longer run or "sk-" repeated is no key', () => {
    const key = `sk-proj-${'Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4_'.repeat(12)}`;
    expect(key.length).toBeGreaterThan(400);
    expect(redactor.redact(`key ${key} end`).text).toBe('key [redacted:openai-key] end');
    const run = `sk-${'Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4'.repeat(15)}`;
    expect(redactor.redact(run).count).toBe(0);
    // refused matches are searched again from their next character: the text comes back as it was
    const repeated = 'sk-'.repeat(5000);
    expect(redactor.redact(repeated)).toMatchObject({ text: repeated, count: 0 });
  });

  it('is off with enabled: false, and takes extra patterns', () => {
    const input = 'GITHUB_TOKEN=ghp_Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4 and acme_ZR4TQ9WM';
    expect(createRedactor({ enabled: false }).redact(input).text).toBe(input);
    expect(createRedactor({ patterns: [{ kind: 'acme-id', pattern: /acme_[A-Z0-9]{8}/ }] }).redact(input).text).toBe(
      'GITHUB_TOKEN=[redacted:github-token] and [redacted:acme-id]',
    );
  });

  it('refuses a pattern that matches the empty text', () => {
    expect(() => createRedactor({ patterns: [{ kind: 'empty', pattern: 'x*' }] })).toThrow(/matches the empty text/);
  });
});

describe('whole values', () => {
  it('keeps every property whose key redacts alike, numbered, with keys that do not grow with their count', () => {
    const tokens = Array.from({ length: 50 }, (_, i) => `ghp_${String(i).padStart(2, '0')}Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe`);
    const { inputs } = redactInputs(
      [{ scope: 'acme/shop', content: 'tokens by name', properties: Object.fromEntries(tokens.map((t, i) => [t, i])) }],
      redactor,
    );
    const properties = inputs[0]?.properties as Record<string, number>;
    expect(Object.values(properties).sort((a, b) => a - b)).toEqual(tokens.map((_, i) => i));
    expect(Object.keys(properties)).toContain('[redacted:github-token]~50');
    expect(Math.max(...Object.keys(properties).map((key) => key.length))).toBeLessThan(30);
    expect(JSON.stringify(properties)).not.toMatch(/ghp_/);
  });

  it('redacts every string of a remember input except its scope, and counts per input', () => {
    const { inputs, counts } = redactInputs(
      [
        {
          scope: 'acme/shop',
          content: 'uses ghp_Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd1Fg0Ya2Qe4',
          action: { tool: 'curl', args: { header: 'Authorization: Bearer Zr4Tq9Wm2Xc7Vb5Nk8Lp3Hs6Jd' } },
        },
        { scope: 'acme/shop', content: 'nothing here' },
      ],
      redactor,
    );
    expect(counts).toEqual([2, 0]);
    expect(inputs[0]).toEqual({
      scope: 'acme/shop',
      content: 'uses [redacted:github-token]',
      action: { tool: 'curl', args: { header: 'Authorization: Bearer [redacted:bearer-token]' } },
    });
  });

  it('replaces lower-cased copies and pieces of a secret in derived fields of a stored record', () => {
    const record = {
      content: 'The admin password is Zq8!vB3nKx27Lw today, key AKIAZ7QW3ERT5YUI8OPA.',
      summary: null,
      tags: [],
      entities: ['zq8', 'vb3nkx27lw', 'akiaz7qw3ert5yui8opa', 'admin'],
      provenance: { kind: 'episodic', sources: [], derivedFrom: [] },
      data: {},
    } as unknown as MemoryRecord;
    const { patch } = redactRecord(record, redactor);
    expect(patch.content).toBe('The admin password is [redacted:password] today, key [redacted:aws-access-key].');
    expect(patch.entities).toEqual(['zq8', '[redacted:password]', '[redacted:aws-access-key]', 'admin']);
  });
});
