import { paths } from '#web/config/paths';

/** Where the login screen sends the user: the page RequireAuth turned them away from, else home. */
export function returnPath(state: unknown): string {
  if (typeof state !== 'object' || state === null || !('from' in state)) return paths.home;
  const { from } = state;
  if (typeof from !== 'object' || from === null || !('pathname' in from)) return paths.home;
  const { pathname } = from;
  if (typeof pathname !== 'string' || !pathname.startsWith('/') || pathname === paths.login)
    return paths.home;
  const search = 'search' in from && typeof from.search === 'string' ? from.search : '';
  const hash = 'hash' in from && typeof from.hash === 'string' ? from.hash : '';
  return `${pathname}${search}${hash}`;
}
