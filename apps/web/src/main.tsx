import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/theme-variables.css';
import './app/global.css';
import { AppProviders, createQueryClient } from './app/providers';
import { createAppRouter } from './app/router';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element.');

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
);
