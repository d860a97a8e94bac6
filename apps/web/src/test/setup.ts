import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { notifications } from '@mantine/notifications';
import { sessionStore } from '../lib/session-store';

// Route screens load lazily; the first import of a chunk in a test file is slow on a busy machine.
configure({ asyncUtilTimeout: 15_000 });
// Whole-screen tests type into several fields of a real route; give them room on a shared CPU.
vi.setConfig({ testTimeout: 30_000 });

// jsdom lacks the layout APIs Mantine calls.
/** No media query ever matches: tests run at Mantine's default (smallest) layout. */
class MediaQueryListShim extends EventTarget implements MediaQueryList {
  readonly matches = false;
  onchange = null;

  constructor(readonly media: string) {
    super();
  }

  addListener(): void {
    // Matches never change, so listeners are never called.
  }

  removeListener(): void {
    // Nothing was kept by addListener.
  }
}
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList => new MediaQueryListShim(query),
});

class ResizeObserverShim implements ResizeObserver {
  observe(): void {
    // jsdom does no layout, so nothing ever resizes.
  }
  unobserve(): void {
    // Nothing observed, nothing to stop.
  }
  disconnect(): void {
    // Nothing observed, nothing to stop.
  }
}
window.ResizeObserver = ResizeObserverShim;
window.HTMLElement.prototype.scrollIntoView = () => undefined;
// Mantine's autosize textarea resizes once web fonts have loaded; jsdom has no FontFaceSet.
Object.defineProperty(document, 'fonts', { value: new EventTarget() });

// A test fails on any console.error it did not expect (React warnings, failed prop types, …).
let consoleErrors: string[] = [];

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(
      args
        .map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg)))
        .join(' '),
    );
  });
});

afterEach(() => {
  cleanup();
  // Mantine keeps notifications in a module-level store that outlives the rendered tree.
  notifications.clean();
  notifications.cleanQueue();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  sessionStore.clear();
  if (consoleErrors.length > 0) {
    throw new Error(`Unexpected console.error:\n${consoleErrors.join('\n---\n')}`);
  }
});
