/**
 * Secret names beyond password, secret, token and key: a personal access token (`PAT`, `GITHUB_PAT`),
 * a session cookie (`SESSION`, `PHPSESSID`, `Cookie: sessionid=…`), a token word run together
 * (`csrftoken`) and a webhook URL holding its token. Each counts only in an assignment with a value of
 * its shape, so `Pat` the person, a cookie recipe or a webhook path stay.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/core/redact/index.js';

const redactor = createRedactor();
const TOKEN = 'abcd1234efgh5678ijkl';

describe('more secret names', () => {
  it.each([
    ['PAT', `PAT=${TOKEN}`, 'PAT=[redacted:token]'],
    ['GITHUB_PAT', `GITHUB_PAT=${TOKEN}`, 'GITHUB_PAT=[redacted:token]'],
    ['a PAT in YAML', `azure_devops_pat: "${TOKEN}"`, 'azure_devops_pat: "[redacted:token]"'],
    ['a PAT in JSON', `{"githubPat": "${TOKEN}"}`, '{"githubPat": "[redacted:token]"}'],
    ['a PAT flag', `gh auth --pat ${TOKEN}`, 'gh auth --pat [redacted:token]'],
    ['SESSION', `SESSION=${TOKEN}`, 'SESSION=[redacted:session-token]'],
    ['PHPSESSID', `PHPSESSID=${TOKEN}`, 'PHPSESSID=[redacted:session-token]'],
    [
      'a Cookie header',
      `Cookie: sessionid=${TOKEN}; csrftoken=Zx9${TOKEN}`,
      'Cookie: sessionid=[redacted:session-token]; csrftoken=[redacted:token]',
    ],
    [
      'a webhook URL',
      'DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/123456789/abcDEF123ghiJKL456mnoPQR789',
      'DISCORD_WEBHOOK_URL=[redacted:webhook-url]',
    ],
    ['a quoted webhook URL', `"webhookUrl": "https://hooks.example.com/services/${TOKEN}"`, '"webhookUrl": "[redacted:webhook-url]"'],
  ])('%s', (_name, input, expected) => {
    expect(redactor.redact(input).text).toBe(expected);
  });

  it.each([
    ['PASSPHRASE', 'PASSPHRASE=correct-horse-battery', 'PASSPHRASE=[redacted:password]'],
    ['PRIVATE_KEY', `PRIVATE_KEY=${TOKEN}`, 'PRIVATE_KEY=[redacted:api-key]'],
    ['CLIENT_SECRET', 'CLIENT_SECRET=abcd1234efgh5678', 'CLIENT_SECRET=[redacted:secret]'],
    ['AUTH', 'AUTH=abcd1234efgh5678ijklmnop', 'AUTH=[redacted:secret-key]'],
    ['CREDENTIALS', `CREDENTIALS=${TOKEN}`, 'CREDENTIALS=[redacted:api-key]'],
    ['DATABASE_URL', 'DATABASE_URL=postgres://app:s3cretpw@db:5432/app', 'DATABASE_URL=postgres://app:[redacted:url-password]@db:5432/app'],
    [
      'a connection string',
      'CONNECTION_STRING=Server=tcp:db;User ID=app;Password=Hunter2pass;',
      'CONNECTION_STRING=Server=tcp:db;User ID=app;Password=[redacted:password];',
    ],
    ['a DSN of pairs', 'DSN=host=db user=app password=hunter2horse', 'DSN=host=db user=app password=[redacted:password]'],
  ])('already covered: %s', (_name, input, expected) => {
    expect(redactor.redact(input).text).toBe(expected);
  });

  it.each([
    'Pat said hi',
    'pat the dog twice, then feed it',
    'Pat: meeting at 10am in room 4',
    'Pat: Room4B2023x',
    'Pat=Patricia Jones',
    'PAT_EXPIRY=2025-01-01',
    `pattern=${TOKEN}`,
    `spat=${TOKEN}`,
    'cookie: chocolate chip, two dozen',
    'session: afternoon workshop 2',
    'session_count=12',
    // an id, as in the corpus (test/fixtures/redact/ordinary.json)
    'session_id=d961955e5583288211d11fd33e56e9dc; path=/; HttpOnly',
    'session_timeout=3600s',
    `user_id=${TOKEN}`,
    'WEBHOOK_URL=https://example.com/webhook',
    'WEBHOOK_URL=https://example.com/hooks/build-finished',
    'pre_commit_hook=scripts/check.sh',
  ])('leaves %s', (input) => {
    expect(redactor.redact(input)).toEqual({ text: input, count: 0, kinds: {} });
  });
});
