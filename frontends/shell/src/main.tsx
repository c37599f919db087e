import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { preloadCentreProfile } from '@crm/web-kit';
import '@crm/web-kit/src/styles/web-kit.css';
// In the first CSS, for the calendar pre-rendered into index.html for "/dates".
import '@crm/web-kit/src/calendar/calendar.css';
import './styles/global.css';
import './styles/placeholder.css';
import { App } from './app/App';
import { preloadPage } from './app/router';

// The centre profile (header, footer, prices) is wanted by nearly every page: ask for it before
// React renders (index.html's <link rel="preload"> has usually started it already).
preloadCentreProfile();

// The first render waits for the page's own code, so it shows the page (not "Loading..." in
// between the pre-rendered first screen and the page), and runs in a transition: React renders in
// slices that yield to the browser instead of one long task that keeps a phone from responding.
void preloadPage(location.pathname).then(() => {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
});
