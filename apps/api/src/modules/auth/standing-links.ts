/**
 * Ends what opens the member's data without a session, the calendar feed URL and the data
 * export's download links, when the sessions end for the member's safety: 'Sign out everywhere
 * else', a password change or a password reset (docs/decisions/calendar-export.md,
 * docs/decisions/data-export.md). They belong to other features, so the composition root
 * supplies it. Called before the sessions end, so that a failure leaves the member able to try
 * again rather than signed out with the links still working.
 */
export type EndStandingLinks = (userId: string) => Promise<void>;
