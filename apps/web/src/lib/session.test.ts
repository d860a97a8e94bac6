import { afterAll, describe, expect, it } from 'vitest';
import { json, stubFetch } from '../test/fetch-stub';
import { sessionStore } from './session-store';
import { shareSessionWithOtherTabs } from './session';
import { logout } from './tab-session';

// Another tab of the browser, as the app's tabs see it: the same-origin channel.
const otherTab = new BroadcastChannel('dental.session');
afterAll(() => {
  otherTab.close();
});

function nextMessage(kind: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent<Record<string, unknown>>) => {
      if (event.data.kind !== kind) return;
      otherTab.removeEventListener('message', listener);
      resolve(event.data);
    };
    otherTab.addEventListener('message', listener);
  });
}

describe('the session among the tabs of one browser', () => {
  it('a signed-in tab offers, and when taken gives a pair of the new tab’s own', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    shareSessionWithOtherTabs();
    // A signed-in tab listens once its channel code has loaded.
    await import('./tab-session');
    const newTab = { access: 'tab-access', refresh: 'tab-refresh' };
    const api = stubFetch({
      'POST /api/account/token/handoff/': () =>
        json({ access: 'access-2', refresh: 'refresh-2', handoff: newTab }),
    });

    const offer = nextMessage('offer');
    otherTab.postMessage({ kind: 'ask', id: 'ask-1' });
    const { from } = await offer;
    const give = nextMessage('give');
    otherTab.postMessage({ kind: 'take', id: 'ask-1', from });

    expect(await give).toEqual({ kind: 'give', id: 'ask-1', tokens: newTab });
    expect(api.to('POST /api/account/token/handoff/')[0]?.body).toEqual({ refresh: 'refresh-1' });
    // This tab goes on with its own next pair, never the one it gave.
    expect(sessionStore.getSnapshot()).toEqual({ access: 'access-2', refresh: 'refresh-2' });
  });

  it('a tab taken by nobody gives nothing', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({});
    otherTab.postMessage({ kind: 'take', id: 'ask-2', from: 'another-tab' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.requests).toEqual([]);
  });

  it('signs out when another tab does, on the server too', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({
      'POST /api/account/logout/': () => new Response(null, { status: 204 }),
    });
    otherTab.postMessage({ kind: 'end' });
    await expect.poll(() => sessionStore.getSnapshot().refresh).toBeNull();
    expect(api.to('POST /api/account/logout/')[0]?.body).toEqual({ refresh: 'refresh-1' });
  });

  it('tells the other tabs when it signs out', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    stubFetch({ 'POST /api/account/logout/': () => new Response(null, { status: 204 }) });
    const end = nextMessage('end');
    await logout();
    expect(await end).toEqual({ kind: 'end' });
  });
});
