/** Twelve unrelated facts about a software project, for tests that need a scope with many other claims. */
export const PROJECT_FACTS: readonly string[] = Object.freeze([
  'The database is PostgreSQL 14.',
  'Our CI runs on GitHub Actions.',
  'The API server listens on port 8080.',
  'We deploy to staging on Fridays.',
  'The main entry point is src/server/index.ts.',
  'Logging uses pino.',
  'Our test runner is Jest.',
  'The frontend uses React 18.',
  'The auth service is owned by Priya.',
  'We use Sentry for error tracking.',
  'Our docs live in Notion.',
  'We use Terraform for infrastructure.',
]);
