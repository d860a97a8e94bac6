import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
// Only the styles of what the sign-in screen shows block the first paint; every other screen
// brings Mantine's whole stylesheet with it (lib/mantine-styles.ts). Mantine's files are the
// layered ones, so the app's own styles win over them whatever order the files arrive in. The
// order below is the one of Mantine's whole stylesheet.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Container.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Title.layer.css';
import '@mantine/notifications/styles.layer.css';
import './app/theme-variables.css';
import './app/global.css';
import { AppProviders, createQueryClient } from './app/providers';
import { createAppRouter } from './app/router';
import { shareSessionWithOtherTabs } from './lib/session';

shareSessionWithOtherTabs();

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element.');

// The installable app's service worker, registered once the page has loaded so that it takes
// nothing from the first paint; its code is a small chunk of its own (docs/decisions/installable-app.md).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    import('./lib/app-update')
      .then((update) => update.watchForUpdates())
      .catch((error: unknown) => {
        // The app works as before without it: online only.
        console.warn('The service worker could not be registered.', error);
      });
  });
}

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
);
