/** Notices: the message centre, announcements and page subscriptions. */
export { addAnnouncement, adminAnnouncements, listAnnouncements } from './announcements';
export {
  createReminders,
  deleteNotice,
  listReminders,
  markRead,
  paging,
  type Reminder,
  startNotifications,
  unreadCounts,
  unreadCountsOf,
  type UnreadCounts,
  unreadNotices,
  unreadRemindCount,
} from './notices';
export {
  listPageSubscribers,
  pageAudience,
  pageSubscriberUids,
  purgePageSubscriptions,
  subscribeToPage,
  subscribeUsers,
  unsubscribeUsers,
} from './subscriptions';

// Collections other domains still read directly (eslint `quire/domain-faces` sends them here).
export { Subscription } from './schemas';
export type { MessageContentDoc } from './schemas';
