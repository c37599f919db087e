import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { preloadCentreProfile } from '@crm/web-kit';
import '@crm/web-kit/src/styles/web-kit.css';
import './styles/global.css';
import './styles/placeholder.css';
import { App } from './app/App';

// The centre profile (header, footer, prices) is wanted by nearly every page: ask for it before
// React renders (index.html's <link rel="preload"> has usually started it already).
preloadCentreProfile();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
