// Import cycles in src/ fail `npm run check` (the layer direction is ESLint's, eslint.config.js).
// A cycle makes two files one unit that neither can be read, tested or moved without the other,
// and with ES modules it can hand a file an import that is not yet initialised.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files in src/ must not import each other in a cycle (type-only imports count too).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports tie files together just the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
