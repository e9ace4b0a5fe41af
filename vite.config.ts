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
    // Every browser the portal supports (React 19, Mantine 9) preloads modules itself: the
    // polyfill would only add a script to the sign-in page.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The contract and the api modules only define schemas and call functions: importing one
      // does nothing by itself. Saying so lets a page that imports the api index keep only the
      // calls it uses, instead of every flow's calls and schemas.
      treeshake: {
        moduleSideEffects: (id: string) =>
          /src[\\/](contract|client[\\/]api)[\\/]/.test(id) ? false : undefined,
      },
      output: {
        codeSplitting: {
          // What every page needs in one chunk instead of a score of small shared ones, so the
          // sign-in page (the first page most visits load) costs fewer requests and fewer bytes.
          groups: [
            {
              name: 'framework',
              // Also the form parts and flow hooks the sign-in page shares with every other flow:
              // left to themselves they become a score of small chunks, each with its own overhead.
              // Likewise what the sign-in page shares with the forced steps (the sign-in actions
              // and texts, the forced calls and their contract, the sign-in outcome's states): as
              // four chunks of their own they cost the sign-in page 735 bytes of gzip more.
              test: new RegExp(
                [
                  String.raw`node_modules[\/](react|react-dom|scheduler|react-router|react-router-dom|@mantine[\/]hooks|@mantine[\/]core[\/]esm[\/]core|xstate|@xstate[\/]react|ky|valibot)[\/]`,
                  String.raw`node_modules[\/]@mantine[\/]core[\/]esm[\/]components[\/](Input|InputBase|TextInput|PasswordInput|ActionIcon|CloseButton|Alert|Loader|Button)[\/]`,
                  String.raw`src[\/]contract[\/](call|fields|entities|errors|session|forced)\.`,
                  String.raw`src[\/]client[\/]api[\/](api-error|global-handling|http|index|request|session|version|forced)\.`,
                  String.raw`src[\/]client[\/]app[\/]session[\/]`,
                  String.raw`src[\/]client[\/]flows[\/]shared[\/](use-flow-actor|use-flow-route|actor-calls|flow-implementations|flow-output|captcha-image)\.`,
                  String.raw`src[\/]client[\/]flows[\/]sign-in[\/]sign-in\.(actions|texts)\.`,
                  String.raw`machines[\/]shared[\/]sign-in-outcome\.`,
                ].join('|'),
              ),
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
