// Builds the portal into dist/portal; in development proxies the server's calls to it.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const serverOrigin = process.env.SERVER_ORIGIN ?? 'http://localhost:8080';
const proxied = ['/rest', '/captcha.jpg', '/saml', '/.well-known', '/demo-sp', '/dev', '/health'];

export default defineConfig({
  plugins: [react()],
  root: 'src/client',
  publicDir: 'public',
  build: {
    outDir: '../../dist/portal',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: serverOrigin, changeOrigin: false }])),
  },
});
