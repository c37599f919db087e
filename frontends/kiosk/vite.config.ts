import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { federation } from '@module-federation/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { REMOTE_CODE_SPLITTING, remoteFederationOptions } from '../../packages/web-kit/build/federation.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The kiosk is a federated remote (frontends/shell/README.md "Contract for the remotes"): the shell
 * mounts `kiosk/App` under /onboarding/* behind the SERVICE_ACCOUNT guard; the gateway serves this
 * dist at /mf/kiosk/.
 */
export default defineConfig({
  base: '/mf/kiosk/',
  resolve: {
    alias: { '@': path.resolve(here, 'src') },
  },
  plugins: [react(), federation(remoteFederationOptions('kiosk', './src/app/App.tsx'))],
  // `npm run dev -w @crm/kiosk`: the API of a running product (npm start) on the same origin.
  server: { port: 5175, proxy: { '/api': process.env.API_URL ?? 'http://127.0.0.1:8080' } },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: { output: { codeSplitting: REMOTE_CODE_SPLITTING } },
  },
});
