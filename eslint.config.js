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

function layerPattern(dir, above) {
  return {
    group: above.flatMap((a) => [`**/${a}/*`, `**/${a}/**`, `../${a}/*`]),
    message: `src/${dir} is below ${above.join(', ')}: it must not import from them (eslint.config.js, LAYERS).`,
  };
}

const layerRules = LAYERS.filter((l) => l.above.length > 0).map(({ dir, above }) => ({
  files: [`src/${dir}/**/*.ts`],
  rules: { 'no-restricted-imports': ['error', { patterns: [layerPattern(dir, above)] }] },
}));

// Inside a layer, its domain folders: a domain imports only the domains it lists (each folder's
// README.md says the same), so the flow reads one way: in market, from the overviews down to the
// resources' schemas; in http, from the app down to the request pipeline. The files directly in
// src/market are shared by every domain and import none of them; those directly in src/http (the
// app and its server) are the top, and import them all.
const SHARED_ROOT = ['market'];
const DOMAINS = {
  market: {
    models: [],
    archive: ['models'],
    listings: ['models'],
    history: ['models', 'listings'],
    'corporate-actions': ['models', 'archive', 'listings', 'history'],
    analytics: ['models', 'archive', 'listings', 'history', 'corporate-actions'],
    'whole-market': ['models', 'archive', 'listings', 'history', 'corporate-actions', 'analytics'],
    feeds: ['models', 'archive', 'listings', 'history', 'corporate-actions'],
    quotes: ['models', 'listings', 'history'],
    company: ['models', 'listings'],
    overview: [
      'models',
      'archive',
      'listings',
      'history',
      'corporate-actions',
      'analytics',
      'whole-market',
      'feeds',
      'quotes',
      'company',
    ],
  },
  http: {
    pipeline: [],
    routes: ['pipeline'],
    openapi: ['pipeline', 'routes'],
  },
};

const domainRules = Object.entries(DOMAINS).flatMap(([layer, domains]) => {
  const above = LAYERS.find((l) => l.dir === layer).above;
  const layerPatterns = above.length > 0 ? [layerPattern(layer, above)] : [];
  const names = Object.keys(domains);
  const shared = {
    files: [`src/${layer}/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...layerPatterns,
            {
              group: names.flatMap((d) => [`./${d}/*`, `./${d}/**`]),
              message: `The files directly in src/${layer} are shared by its domain folders: they must not import from them (eslint.config.js, DOMAINS).`,
            },
          ],
        },
      ],
    },
  };
  const perDomain = names.map((domain) => {
    const forbidden = names.filter((d) => d !== domain && !domains[domain].includes(d));
    return {
      files: [`src/${layer}/${domain}/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...layerPatterns,
              ...(forbidden.length === 0
                ? []
                : [
                    {
                      group: forbidden.flatMap((d) => [`../${d}/*`, `../${d}/**`, `**/${layer}/${d}/*`]),
                      message: `src/${layer}/${domain} may import only ${['the shared files', ...domains[domain]].join(', ')} of src/${layer} (eslint.config.js, DOMAINS).`,
                    },
                  ]),
            ],
          },
        ],
      },
    };
  });
  return SHARED_ROOT.includes(layer) ? [shared, ...perDomain] : perDomain;
});

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
  // After the layers' rules: for the same files and rule ESLint keeps the later one, so each
  // domain's rule repeats its layer's patterns.
  ...domainRules,
  // After the exchange layer's rule: for the same files and rule ESLint keeps the later one, which
  // includes the exchange layer's patterns.
  htmlBelowParsers,
  clockFromCompositionRoot,
);
