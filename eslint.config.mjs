// Lint: typescript-eslint plus the architecture boundaries of STYLE.md §3.
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const zone = (target, from, message, except) => ({ target, from, message, ...(except !== undefined ? { except } : {}) });

// Core and the parts on it (consolidation, serving) take time, randomness, timers and the process
// through ports (Clock, Stopwatch, RandomSource, Scheduler); src/system-ports.ts builds them.
const portsOnly = {
  'no-restricted-globals': [
    'error',
    { name: 'process', message: 'Only interfaces/ read process.*.' },
    ...['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate'].map((name) => ({
      name,
      message: 'Set no timers here: take a Scheduler port.',
    })),
    { name: 'performance', message: 'Measure durations with an injected Stopwatch.' },
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'Read time from an injected Clock (domain) or SystemPorts.wallClock (leases).' },
    { object: 'Math', property: 'random', message: 'Draw randomness from an injected RandomSource.' },
    { object: 'performance', property: 'now', message: 'Measure durations with an injected Stopwatch.' },
    ...['setTimeout', 'setInterval', 'setImmediate', 'process', 'performance'].map((property) => ({
      object: 'globalThis',
      property,
      message: 'Take time, timers and the process through ports.',
    })),
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: "NewExpression[callee.name='Date'][arguments.length=0]",
      message: 'new Date() reads the wall clock: pass the instant, new Date(clock.now()).',
    },
    {
      selector: "CallExpression[callee.name='Date'][arguments.length=0]",
      message: 'Date() reads the wall clock: format an injected instant.',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'scratch/**', 'bench/results/**', 'bench/.cache/**', '.venv-ci/**', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(fs|path|os|child_process|net|http|crypto|url|worker_threads|readline|stream)$',
              message: 'Use the node: protocol.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    // relative imports name the emitted `.js`: resolve them to the `.ts` source, or the zones and the cycle check see nothing
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone('./src/core', './src/storage', 'core/ is pure: it declares ports, adapters implement them.'),
            zone('./src/core', './src/embeddings', 'core/ is pure: it declares ports, adapters implement them.'),
            zone('./src/core', './src/interfaces', 'core/ never imports an interface.'),
            zone('./src/core', './src/consolidation', 'core/ never imports consolidation.'),
            zone('./src/core', './src/serving', 'core/ never imports serving.'),
            zone('./src/storage', './src/embeddings', 'adapters do not import each other.'),
            zone('./src/embeddings', './src/storage', 'adapters do not import each other.'),
            zone('./src/storage', './src/interfaces', 'adapters never import interfaces.'),
            zone('./src/embeddings', './src/interfaces', 'adapters never import interfaces.'),
            zone('./src/core', './src/llm', 'core/ is pure: it declares the Llm port, src/llm implements it.'),
            zone('./src/storage', './src/llm', 'adapters do not import each other.'),
            zone('./src/embeddings', './src/llm', 'adapters do not import each other.'),
            zone('./src/llm', './src/storage', 'adapters do not import each other.'),
            zone('./src/llm', './src/embeddings', 'adapters do not import each other.'),
            zone('./src/llm', './src/interfaces', 'adapters never import interfaces.'),
            zone(
              './src/storage/postgres',
              './src/storage/sqlite',
              'PostgreSQL shares helpers with SQLite through src/storage/, never from sqlite/.',
            ),
            zone('./src/storage/sqlite', './src/storage/postgres', 'SQLite never imports PostgreSQL code.'),
            zone('./src/consolidation', './src/storage', 'consolidation receives ports, never adapters.'),
            zone('./src/consolidation', './src/embeddings', 'consolidation receives ports, never adapters.'),
            zone('./src/consolidation', './src/llm', 'consolidation receives ports, never adapters.'),
            zone('./src/consolidation', './src/interfaces', 'consolidation never imports an interface.'),
            zone('./src/consolidation', './src/serving', 'consolidation and serving are separate parts on core.'),
            zone('./src/serving', './src/storage', 'serving receives ports, never adapters.'),
            zone('./src/serving', './src/embeddings', 'serving receives ports, never adapters.'),
            zone('./src/serving', './src/llm', 'serving receives ports, never adapters.'),
            zone('./src/serving', './src/interfaces', 'serving never imports an interface.'),
            zone('./src/serving', './src/consolidation', 'consolidation and serving are separate parts on core.'),
            ...['storage', 'embeddings', 'llm', 'interfaces', 'consolidation', 'serving'].map((part) =>
              zone(
                './src/portability/importers',
                `./src/${part}`,
                'importers are pure mappings on core/: the CLI reads files and opens the engine.',
              ),
            ),
            zone('./src/adapters', './src', 'framework adapters use only the public API (src/index.ts).', ['./index.ts', './adapters']),
            zone(
              './src/index.ts',
              './src/adapters',
              'the root entry never loads a framework adapter: they are subpaths with optional peers.',
            ),
          ],
        },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'core/ does no I/O: take a port instead.' },
            {
              regex: '^(better-sqlite3|pg|sqlite-vec|@electric-sql/.*|@energetic-ai/.*|hono|@hono/.*|@modelcontextprotocol/.*|commander)$',
              message: 'core/ never imports a driver or SDK.',
            },
          ],
        },
      ],
      ...portsOnly,
    },
  },
  {
    files: ['src/consolidation/**/*.ts', 'src/serving/**/*.ts'],
    rules: portsOnly,
  },
  {
    files: ['src/portability/importers/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^node:', message: 'importers do no I/O: the CLI reads the files.' }] }],
      ...portsOnly,
    },
  },
);
