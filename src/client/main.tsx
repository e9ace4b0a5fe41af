// Entry of the portal: styles, start-up wiring, and the React root.
import './app/styles';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startPortal } from './app/bootstrap';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App {...startPortal()} />
  </StrictMode>,
);
