import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
// The console is for staff at a desk: Mantine's whole stylesheet up front, no first-paint subset
// as the patient's sign-in screen has (docs/decisions/clinic-console.md).
import '@mantine/core/styles.layer.css';
import '@mantine/notifications/styles.layer.css';
import '../app/theme-variables.css';
import '../app/global.css';
import { AppProviders, createQueryClient } from '../app/providers';
import { createClinicRouter } from './router';

const container = document.getElementById('root');
if (container === null) throw new Error('clinic.html has no #root element.');

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={createClinicRouter()} />
    </AppProviders>
  </StrictMode>,
);
