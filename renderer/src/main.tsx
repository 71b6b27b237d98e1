// Entry point: mounts the app into #root.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { makeQueryClient } from './api/query-client';
import { App } from './app/App';
import { signInThroughDesktop } from './platform';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  // The desktop shell signs the page in first (a no-op in a browser), so no screen sees a 401.
  void signInThroughDesktop().finally(() => {
    createRoot(root).render(
      <StrictMode>
        <App client={makeQueryClient()} />
      </StrictMode>,
    );
  });
}
