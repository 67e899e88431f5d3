/**
 * What kind of tool a name is (package manager, test runner, database, CI, host, …), for the rules that
 * need it: "we switched to bun" names no attribute and no old value, so it replaces the speaker's tool of
 * the same kind ("we use pnpm") and nothing else ("we use Postgres"); and "we moved CI to GitHub Actions"
 * moves CI to a tool, not to a place. A short list of common tools; a name not in it has no kind, and
 * the rules then do nothing.
 */
import { dictionary } from '../../text/dictionary.js';

const KINDS: Readonly<Record<string, readonly string[]>> = dictionary({
  'package manager': ['npm', 'pnpm', 'yarn', 'yarn berry', 'bun', 'uv', 'poetry', 'pipenv', 'conda'],
  runtime: ['node', 'node.js', 'nodejs', 'deno', 'bun'],
  'unit test runner': ['jest', 'vitest', 'mocha', 'jasmine', 'ava', 'pytest', 'unittest', 'rspec', 'minitest'],
  'end-to-end test runner': ['playwright', 'cypress', 'puppeteer', 'selenium', 'webdriverio'],
  bundler: ['webpack', 'vite', 'rollup', 'esbuild', 'parcel', 'turbopack', 'rspack', 'snowpack'],
  'CI service': [
    'github actions',
    'circleci',
    'jenkins',
    'gitlab ci',
    'travis',
    'travis ci',
    'buildkite',
    'drone',
    'teamcity',
    'azure pipelines',
  ],
  host: [
    'heroku',
    'fly.io',
    'fly',
    'render',
    'vercel',
    'netlify',
    'railway',
    'aws',
    'gcp',
    'azure',
    'google cloud',
    'digitalocean',
    'hetzner',
    'linode',
    'cloudflare pages',
  ],
  database: [
    'postgres',
    'postgresql',
    'mysql',
    'mariadb',
    'sqlite',
    'mongodb',
    'mongo',
    'dynamodb',
    'cockroachdb',
    'cassandra',
    'sql server',
    'oracle',
    'supabase',
    'planetscale',
    'neon',
  ],
  ORM: ['prisma', 'drizzle', 'typeorm', 'sequelize', 'kysely', 'mikro-orm', 'sqlalchemy', 'django orm', 'activerecord'],
  'error tracker': ['sentry', 'honeybadger', 'rollbar', 'bugsnag', 'airbrake'],
  'observability service': ['datadog', 'grafana', 'grafana cloud', 'new relic', 'honeycomb', 'dynatrace', 'splunk'],
  linter: ['eslint', 'biome', 'oxlint', 'tslint', 'rubocop', 'ruff', 'flake8', 'pylint'],
  formatter: ['prettier', 'biome', 'black', 'dprint', 'rustfmt', 'gofmt'],
  'issue tracker': ['jira', 'linear', 'asana', 'trello', 'shortcut', 'clickup', 'youtrack', 'github issues'],
  editor: ['vim', 'neovim', 'vs code', 'vscode', 'emacs', 'helix', 'intellij', 'webstorm', 'zed', 'sublime', 'cursor'],
  orchestrator: ['airflow', 'dagster', 'prefect', 'luigi', 'temporal'],
  'CSS framework': ['tailwind', 'bootstrap', 'styled-components', 'emotion', 'css modules', 'sass', 'chakra'],
  'frontend framework': ['react', 'vue', 'svelte', 'sveltekit', 'angular', 'solid', 'next.js', 'nextjs', 'nuxt', 'remix', 'astro'],
  cache: ['redis', 'memcached', 'valkey'],
  // "edge" and "arc" alone are common words: only their full names
  browser: ['chrome', 'google chrome', 'chromium', 'firefox', 'safari', 'microsoft edge', 'brave', 'vivaldi', 'arc browser', 'opera'],
  'message queue': ['kafka', 'rabbitmq', 'sqs', 'nats', 'pulsar'],
  'chat tool': ['slack', 'discord', 'microsoft teams', 'teams', 'mattermost'],
  'version control host': ['github', 'gitlab', 'bitbucket'],
});

const BY_NAME = new Map<string, string[]>();
for (const [kind, names] of Object.entries(KINDS)) for (const name of names) BY_NAME.set(name, [...(BY_NAME.get(name) ?? []), kind]);
const LONGEST_FIRST = [...BY_NAME.keys()].sort((a, b) => b.length - a.length);

/**
 * The kinds of the tools a text names, each with the tool that has it (longer names first).
 * @example
 * toolKindsIn('We use pnpm for this repo.'); // Map { 'package manager' => 'pnpm' }
 */
export function toolKindsIn(text: string): Map<string, string> {
  let rest = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}.+ -]+/gu, ' ')} `;
  const found = new Map<string, string>();
  for (const name of LONGEST_FIRST) {
    const at = rest.search(new RegExp(`(?<=[\\s(])${name.replace(/[.+]/g, (c) => `\\${c}`)}(?=[\\s.,)])`));
    if (at < 0) continue;
    for (const kind of BY_NAME.get(name) ?? []) if (!found.has(kind)) found.set(kind, name);
    rest = `${rest.slice(0, at)}${' '.repeat(name.length)}${rest.slice(at + name.length)}`;
  }
  return found;
}

/**
 * Is the phrase a known tool by name, with at most a leading article and a trailing version ("GitHub
 * Actions", "the Redis", "Postgres 16")? A phrase that only contains one ("the Azure building") is not.
 * @example
 * isToolName('GitHub Actions'); // true
 * isToolName('Lisbon'); // false
 */
export function isToolName(phrase: string): boolean {
  const name = phrase
    .trim()
    .toLowerCase()
    .replace(/^(?:the|an?) /, '')
    .replace(/ v?\d[\w.]*$/, '');
  return BY_NAME.has(name);
}

/**
 * The other tools of the kinds a text names (all but the ones it names): what a claim about one of them
 * is compared with ("we switched to bun" meets "we use pnpm" however many claims lie between).
 * @example
 * toolsOfSameKind('We switched to deno.'); // ['node', 'node.js', 'nodejs', 'bun']
 */
export function toolsOfSameKind(text: string): string[] {
  const named = toolKindsIn(text);
  const own = new Set(named.values());
  return [...new Set([...named.keys()].flatMap((kind) => KINDS[kind] ?? []))].filter((name) => !own.has(name));
}
