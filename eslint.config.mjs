// Lint: typescript-eslint plus the architecture boundaries of STYLE.md §3.
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const zone = (target, from, message) => ({ target, from, message });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'scratch/**', 'bench/results/**', 'bench/.cache/**', '.venv-ci/**', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(fs|path|os|child_process|net|http|crypto|url|worker_threads|readline|stream)$', message: 'Use the node: protocol.' }] }],
    },
  },
  {
    files: ['src/**/*.ts'],
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
            zone('./src/consolidation', './src/storage', 'consolidation receives ports, never adapters.'),
            zone('./src/serving', './src/storage', 'serving receives ports, never adapters.'),
          ],
        },
      ],
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
            { regex: '^(better-sqlite3|pg|sqlite-vec|@electric-sql/.*|@energetic-ai/.*|hono|@hono/.*|@modelcontextprotocol/.*|commander)$', message: 'core/ never imports a driver or SDK.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'process', message: 'Only interfaces/ read process.*.' }],
    },
  },
);
