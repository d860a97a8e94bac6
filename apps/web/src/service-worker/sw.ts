// The phone app's service worker (docs/decisions/installable-app.md), built on its own by
// vite-plugin-pwa (injectManifest) into /sw.js. Each concern is a module of its own.
import { clientsClaim } from 'workbox-core';
import { keepAppShell } from './app-shell';
import { keepKnowledge } from './knowledge-cache';
import { showPushes } from './push';
import { updateWhenAsked } from './update';

declare const self: ServiceWorkerGlobalScope;

// The first worker takes the open pages at once, so that the articles read on the first visit are
// kept too; a later version waits for the page's Reload (update.ts).
clientsClaim();
keepAppShell(self.__WB_MANIFEST);
keepKnowledge();
updateWhenAsked(self);
showPushes(self);
