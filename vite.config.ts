// Builds the portal into dist/portal; in development proxies the server's calls to it.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const serverOrigin = process.env.SERVER_ORIGIN ?? 'http://localhost:8080';
const proxied = ['/rest', '/captcha.jpg', '/saml', '/.well-known', '/demo-sp', '/dev', '/health'];

// react-router's package exports point every condition at its development build (warnings and
// checks included); production builds use the production files it also ships.
const reactRouterProduction = {
  'react-router/dom': fileURLToPath(
    new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url),
  ),
  'react-router': fileURLToPath(
    new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
  ),
};

export default defineConfig(({ mode }) => ({
  plugins: [react()],
  resolve: {
    alias: mode === 'production' ? reactRouterProduction : {},
  },
  root: 'src/client',
  publicDir: 'public',
  build: {
    outDir: '../../dist/portal',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page needs in one chunk instead of a score of small shared ones, so the
          // sign-in page (the first page most visits load) costs fewer requests and fewer bytes.
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@mantine[\\/]hooks|@mantine[\\/]core[\\/]esm[\\/]core|xstate|@xstate[\\/]react|ky|valibot)[\\/]|src[\\/](contract|client[\\/]api|client[\\/]app[\\/]session)[\\/]/,
            },
          ],
        },
      },
    },
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: serverOrigin, changeOrigin: false }])),
  },
}));
