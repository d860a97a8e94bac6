// The phone app's service worker (docs/decisions/installable-app.md), built on its own by
// vite-plugin-pwa (injectManifest) into /sw.js. Each concern is a module of its own.
import { keepAppShell } from './app-shell';
import { keepKnowledge } from './knowledge-cache';
import { showPushes } from './push';
import { updateWhenAsked } from './update';

declare const self: ServiceWorkerGlobalScope;

keepAppShell(self.__WB_MANIFEST);
keepKnowledge();
updateWhenAsked(self);
showPushes(self);
