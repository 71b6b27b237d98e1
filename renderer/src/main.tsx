// Entry point: mounts the app into #root.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { makeQueryClient } from './api/query-client';
import { App } from './app/App';
import { signInFromLink } from './api/session';
import { signInThroughDesktop } from './platform';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  // Sign in first (the login link's code, or the desktop shell's), so no screen sees a 401.
  void signInFromLink()
    .then(signInThroughDesktop)
    .finally(() => {
      createRoot(root).render(
        <StrictMode>
          <App client={makeQueryClient()} />
        </StrictMode>,
      );
    });
}
