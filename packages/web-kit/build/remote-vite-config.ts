/**
 * The Vite configuration of a federated remote (frontends/shell/README.md, "Contract for the remotes"):
 * served by the gateway at /mf/<name>/, exposing `./App` from `src/app/App.tsx`, `@/` for its `src/`,
 * and, under `npm run dev -w @crm/<name>`, the API of a running product (npm start) on the same origin.
 * Imported by relative path from the remotes' `vite.config.ts`, which Vite bundles, so no build step
 * is needed.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { federation } from '@module-federation/vite';
import type { PluginOption, UserConfig } from 'vite';
import { REMOTE_CODE_SPLITTING, remoteFederationOptions } from './federation.ts';

export interface RemoteApp {
  /** The remote's federation name, also its path under /mf/. */
  name: string;
  /** `import.meta.url` of the remote's `vite.config.ts`: its folder holds `src/`. */
  configUrl: string;
  /** The port of its Vite dev server. */
  devPort: number;
  /**
   * The remote's React plugin (`react()` of `@vitejs/plugin-react`): each app installs its own copy,
   * which this package cannot resolve from here.
   */
  react: PluginOption;
}

export function remoteViteConfig({ name, configUrl, devPort, react }: RemoteApp): UserConfig {
  const appDir = path.dirname(fileURLToPath(configUrl));
  return {
    base: `/mf/${name}/`,
    resolve: {
      alias: { '@': path.resolve(appDir, 'src') },
    },
    plugins: [react, federation(remoteFederationOptions(name, './src/app/App.tsx'))],
    server: { port: devPort, proxy: { '/api': process.env.API_URL ?? 'http://127.0.0.1:8080' } },
    build: {
      target: 'es2022',
      outDir: 'dist',
      emptyOutDir: true,
      sourcemap: false,
      rolldownOptions: { output: { codeSplitting: REMOTE_CODE_SPLITTING } },
    },
  };
}
