import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { PortalApp } from './app/portal-router';
import { getPortalInfo } from './features/portal/api/portal';
import { startI18n } from './lib/i18n';
import './styles/global.css';

// The same bundle serves the panel and the sign-in portal: the server says which host this is
// (on the portal's host only the portal's routes answer), and the SPA shows only that.
const root = createRoot(document.getElementById('root')!);
Promise.all([getPortalInfo().then((info) => info.portal).catch(() => false), startI18n().catch(() => undefined)])
  .then(([portal]) => portal)
  .then((portal) =>
    root.render(
      <StrictMode>
        {portal ? <PortalApp /> : <App />}
      </StrictMode>,
    ),
  );
