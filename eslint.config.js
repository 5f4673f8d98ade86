import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

// The layers of src/, top to bottom: http (server and routes) → market → archive, cache, limits → time,
// exchange → proxy. A file may import from its own layer or lower ones, never higher, so the
// direction a newcomer reads in the folders is the one the code has (CI fails a wrong-way import).
// Type-only imports count too: they tie the files together just the same.
// mcp (the Model Context Protocol) sits beside http's routes: it calls the market services.
const LAYERS = [
  { dir: 'http', above: [] },
  { dir: 'mcp', above: [] },
  { dir: 'market', above: ['http', 'mcp'] },
  { dir: 'archive', above: ['http', 'mcp', 'market'] },
  { dir: 'cache', above: ['http', 'mcp', 'market'] },
  { dir: 'limits', above: ['http', 'mcp', 'market'] },
  { dir: 'time', above: ['http', 'mcp', 'market', 'archive', 'cache', 'limits'] },
  { dir: 'exchange', above: ['http', 'mcp', 'market', 'archive', 'cache', 'limits'] },
  { dir: 'proxy', above: ['http', 'mcp', 'market', 'archive', 'cache', 'limits', 'time', 'exchange'] },
  // Pure computations over arrays (returns, risk, indicators): no I/O, so it imports no other layer
  // but the calendar (time, itself pure).
  {
    dir: 'analytics',
    above: ['http', 'mcp', 'market', 'archive', 'cache', 'limits', 'exchange', 'proxy', 'stream'],
  },
];

const layerRules = LAYERS.filter((l) => l.above.length > 0).map(({ dir, above }) => ({
  files: [`src/${dir}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: above.flatMap((a) => [`**/${a}/*`, `**/${a}/**`, `../${a}/*`]),
            message: `src/${dir} is below ${above.join(', ')}: it must not import from them (eslint.config.js, LAYERS).`,
          },
        ],
      },
    ],
  },
}));

// Inside exchange/: the page parsers read tables from the HTML tokenizer and table collector, which
// know nothing of the portal's pages (src/exchange/html/README.md).
const htmlBelowParsers = {
  files: ['src/exchange/html/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [
              '../parsers/*',
              '**/exchange/parsers/*',
              // The exchange client, its token store and page types.
              '../*.ts',
              ...LAYERS.find((l) => l.dir === 'exchange').above.flatMap((a) => [`**/${a}/*`, `**/${a}/**`]),
            ],
            message:
              'src/exchange/html is below the page parsers (and every layer above exchange): it must not import from them (eslint.config.js).',
          },
        ],
      },
    ],
  },
};

// Time comes from the service's injected clock (ServiceOverrides.now), so a test can move it and
// every part of the service (freshness, limits, circuits, envelopes) agrees on what "now" is. Only
// the composition root reads the platform's clock; everything else is handed it.
const clockFromCompositionRoot = {
  files: ['src/**/*.ts'],
  ignores: ['src/main.ts', 'src/config.ts', 'src/service.ts'],
  rules: {
    'no-restricted-properties': [
      'error',
      {
        object: 'Date',
        property: 'now',
        message:
          "Take the service's clock (a `now: () => number` passed in from src/service.ts) instead of Date.now.",
      },
    ],
    'no-restricted-syntax': [
      'error',
      {
        selector: "NewExpression[callee.name='Date'][arguments.length=0]",
        message:
          "Take the service's clock (a `now: () => number` passed in from src/service.ts): new Date(now()).",
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['node_modules', '**/dist', 'web/dist', '.tools', 'data', 'test-results', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    rules: {
      // `as never` silences the type checker outright: a wrong call then compiles. Give the value
      // its real type, or widen it through `unknown` where a library's type is too narrow.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > TSNeverKeyword.typeAnnotation',
          message: '`as never` hides a type error; give the value its real type.',
        },
      ],
    },
  },
  // An `async` function with nothing to wait for only wraps its result in a promise. Not in test/
  // and bench/, whose stand-ins for the service's asynchronous interfaces are `async () => value`.
  {
    files: ['src/**', 'dev/**', 'web/**', 'packages/**', 'scripts/**'],
    rules: { 'require-await': 'error' },
  },
  // The service's own code is linted with types (slower, so src/ only): a promise nobody awaits or
  // catches loses its rejection, which Node then turns into an uncaught exception that ends the service.
  {
    files: ['src/**/*.ts'],
    languageOptions: {
      parserOptions: { project: './tsconfig.build.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      'require-await': 'off',
      '@typescript-eslint/require-await': 'error',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  ...layerRules,
  // After the exchange layer's rule: for the same files and rule ESLint keeps the later one, which
  // includes the exchange layer's patterns.
  htmlBelowParsers,
  clockFromCompositionRoot,
);
