/// <reference types="vite/client" />

/** Federated remotes (built by their own workspaces, served under /mf/<name>/). Each exposes `./App`. */
declare module 'backoffice/App' {
  import type { ComponentType } from 'react';
  const App: ComponentType;
  export default App;
}
declare module 'kiosk/App' {
  import type { ComponentType } from 'react';
  const App: ComponentType;
  export default App;
}
