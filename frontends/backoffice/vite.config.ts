import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { remoteViteConfig } from '../../packages/web-kit/build/remote-vite-config.ts';

/**
 * The back office is a federated remote (frontends/shell/README.md "Contract for the remotes"): the
 * shell mounts `backoffice/App` under /doctor/* behind the DOCTOR/ADMIN guard; the gateway serves this
 * dist at /mf/backoffice/.
 */
export default defineConfig(
  remoteViteConfig({ name: 'backoffice', configUrl: import.meta.url, devPort: 5174, react: react() }),
);
