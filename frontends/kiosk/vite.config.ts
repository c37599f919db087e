import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { remoteViteConfig } from '../../packages/web-kit/build/remote-vite-config.ts';

/**
 * The kiosk is a federated remote (frontends/shell/README.md "Contract for the remotes"): the shell
 * mounts `kiosk/App` under /onboarding/* behind the SERVICE_ACCOUNT guard; the gateway serves this
 * dist at /mf/kiosk/.
 */
export default defineConfig(
  remoteViteConfig({ name: 'kiosk', configUrl: import.meta.url, devPort: 5175, react: react() }),
);
