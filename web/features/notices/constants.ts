/** Business constants of the notice centre (spec 000 §9). */
export const NOTICE_PAGE_SIZE = 5;
/** Unread check: first after 2 s, then every 5 minutes — only while the live socket is down. */
export const FIRST_UNREAD_CHECK_MS = 2_000;
export const UNREAD_POLL_MS = 300_000;
/** A notice shown is marked read this much later. */
export const MARK_READ_DELAY_MS = 2_000;
/** The in-page notification stays this long (a browser notification stays until clicked). */
export const IN_PAGE_NOTICE_MS = 30_000;
export const REMIND_TAB = 'remindList';
export const ANNOUNCE_TAB = 'announcementList';
