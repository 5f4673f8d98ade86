// `npm run build:web`: builds the dashboard into web/dist, which the service serves at /
// (src/http/dashboard.ts). Everything is bundled: the page needs nothing from outside the service.
import { defineConfig } from 'vite';

// This folder, whatever directory vite is started from (npm scripts run it from the project root).
const webRoot = decodeURIComponent(new URL('.', import.meta.url).pathname);
const projectRoot = decodeURIComponent(new URL('..', import.meta.url).pathname);
const apiPaths = [
  '/health',
  '/stocks',
  '/indices',
  '/sectors',
  '/screener',
  '/market',
  '/openapi.json',
  '/docs',
];

export default defineConfig({
  root: webRoot,
  base: '/',
  publicDir: 'public',
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    // `npx vite --config web/vite.config.ts` while `npm run demo` (port 8000) answers the API calls.
    proxy: Object.fromEntries(apiPaths.map((p) => [p, 'http://127.0.0.1:8000'])),
    // The app imports the typed client and the anomaly descriptions from src/.
    fs: { allow: [projectRoot] },
  },
});
