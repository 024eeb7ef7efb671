/**
 * System announcements (reference accounts §9.20; ShowDoc's `adminMessage` controller): texts a
 * site admin publishes to every user. An announcement is one `message_content` row; a user's
 * `message` row for it is only the marker that they have read it.
 *
 * Who sees what: admins see every announcement; other users only those dated after their
 * registration (ShowDoc's rule: a new account is not greeted by years of old news).
 *
 * The text is HTML shown as HTML by ShowDoc's clients, so it is reduced to a small allow-list of
 * tags here, before it is stored (links only to http(s), mailto, relative or in-page targets), and
 * line breaks become `<br />` as ShowDoc did.
 */
import { isSiteAdmin, type Actor } from '../access';
import { errors, events, formatNow, formatUnix, nextId } from '../platform';
import {
  ANNOUNCE_TYPES,
  MessageContent,
  type AnnounceType,
  type MessageContentDoc,
} from './schemas/messageContent';
import { Message } from './schemas/message';
import { User } from '../accounts';

export const MAX_ANNOUNCEMENT_LENGTH = 20_000;
export const ANNOUNCEMENT_SENDER = '系统公告';
const DEFAULT_TYPE: AnnounceType = 'announce_web';
const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/;

// ---------------------------------------------------------------------------------------------
// Publishing (admins)

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'ul',
  'ol',
  'li',
  'strong',
  'b',
  'em',
  'i',
  'code',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'a',
]);
const SAFE_HREF = /^(?:https?:\/\/|mailto:|\/|#)[^\s"'<>`]*$/i;
const TAG = /<!--[\s\S]*?(?:-->|$)|<\/?([A-Za-z][A-Za-z0-9]*)\b[^>]*>/g;

function escapeText(text: string): string {
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Keeps the allow-listed tags (rebuilt, without attributes but a safe `href`), escapes the rest. */
export function sanitizeAnnouncementHtml(html: string): string {
  let out = '';
  let last = 0;
  for (const match of html.matchAll(TAG)) {
    out += escapeText(html.slice(last, match.index));
    last = match.index + match[0].length;
    const name = match[1]?.toLowerCase();
    if (!name || !ALLOWED_TAGS.has(name)) continue;
    if (match[0].startsWith('</')) {
      if (name !== 'br') out += `</${name}>`;
    } else if (name === 'a') {
      const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(match[0]);
      const value = (href?.[1] ?? href?.[2] ?? href?.[3] ?? '').trim();
      out += SAFE_HREF.test(value) ? `<a href="${value}" rel="noopener noreferrer">` : '<a>';
    } else {
      out += name === 'br' ? '<br />' : `<${name}>`;
    }
  }
  return out + escapeText(html.slice(last));
}

/** `send_at` as stored: `YYYY-MM-DD HH:MM:SS` (seconds optional), a real calendar time. */
function sendTime(sendAt: string): string {
  const text = sendAt.trim();
  if (!text) return formatNow();
  const m = DATETIME.exec(text);
  if (!m) throw errors.failed('send_at must look like YYYY-MM-DD HH:MM:SS');
  const [year, month, day, hour, minute, second = '00'] = m.slice(1);
  const date = new Date(Date.UTC(+year, +month - 1, +day, +hour, +minute, +second));
  const roundTrip =
    date.getUTCFullYear() === +year &&
    date.getUTCMonth() === +month - 1 &&
    date.getUTCDate() === +day &&
    date.getUTCHours() === +hour &&
    date.getUTCMinutes() === +minute &&
    date.getUTCSeconds() === +second;
  if (!roundTrip) throw errors.failed('send_at is not a valid time');
  return `${year}-${month}-${day} ${hour}:${minute}:${second}`;
}

export interface NewAnnouncement {
  content: string;
  /** announce_web (default; anything unknown falls back to it), announce_runapi, announce_all. */
  type: string;
  /** Shown send time; '' = now. */
  sendAt: string;
}

/** adminMessage/addAnnouncement: publishes an announcement to every user. */
export async function addAnnouncement(
  actor: Actor,
  input: NewAnnouncement,
): Promise<{ id: number }> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!isSiteAdmin(actor)) throw errors.noPermission();
  if (!input.content.trim()) throw errors.failed('The announcement text is required');
  if (input.content.length > MAX_ANNOUNCEMENT_LENGTH)
    throw errors.failed(`The announcement must be at most ${MAX_ANNOUNCEMENT_LENGTH} characters`);
  const addtime = sendTime(input.sendAt);
  const type =
    (ANNOUNCE_TYPES as readonly string[]).includes(input.type) && input.type !== 'announce'
      ? input.type
      : DEFAULT_TYPE;
  const id = await nextId('message_content_id');
  const content = {
    from_name: ANNOUNCEMENT_SENDER,
    message_type: type,
    message_content: sanitizeAnnouncementHtml(input.content).replace(/\r\n|\n|\r/g, '<br />$&'),
    object_type: '',
    object_id: 0,
    addtime,
  };
  await MessageContent.create({ id, from_uid: 0, action_type: '', ...content });
  events.publish('notice.created', { kind: 'announce', uids: [], messageContentId: id, content });
  return { id };
}

/** adminMessage/listAnnouncements: every announcement, newest first, a page at a time. */
export async function adminAnnouncements(
  actor: Actor,
  paging: { page: number; count: number },
): Promise<MessageContentDoc[]> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!isSiteAdmin(actor)) throw errors.noPermission();
  return MessageContent.find({ message_type: { $in: [...ANNOUNCE_TYPES] } }, { _id: 0 })
    .sort({ id: -1 })
    .skip((paging.page - 1) * paging.count)
    .limit(paging.count)
    .lean<MessageContentDoc[]>();
}

// ---------------------------------------------------------------------------------------------
// Reading (every user)

/** The filter of the announcements this user may see. */
async function visibleFilter(actor: Actor): Promise<Record<string, unknown>> {
  const filter: Record<string, unknown> = { message_type: { $in: [...ANNOUNCE_TYPES] } };
  if (isSiteAdmin(actor)) return filter;
  const user = await User.findOne({ uid: actor.uid }, { reg_time: 1, _id: 0 }).lean();
  filter.addtime = { $gt: formatUnix(user?.reg_time ?? 0) };
  return filter;
}

/** Content ids of the announcements the user has read. */
async function readIds(uid: number): Promise<number[]> {
  const rows = await Message.find(
    { to_uid: uid, message_type: 'announce' },
    { message_content_id: 1, _id: 0 },
  ).lean();
  return rows.map((r) => r.message_content_id);
}

export interface SeenAnnouncement {
  content: MessageContentDoc;
  read: boolean;
}

/** message/getAnnouncementList: what the user may see, newest first, with their read state. */
export async function listAnnouncements(
  actor: Actor,
  paging?: { page: number; count: number },
): Promise<{ total: number; list: SeenAnnouncement[] }> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const filter = await visibleFilter(actor);
  let query = MessageContent.find(filter, { _id: 0 }).sort({ id: -1 });
  if (paging) query = query.skip((paging.page - 1) * paging.count).limit(paging.count);
  const [rows, total, read] = await Promise.all([
    query.lean<MessageContentDoc[]>(),
    MessageContent.countDocuments(filter),
    readIds(actor.uid),
  ]);
  const readSet = new Set(read);
  return { total, list: rows.map((content) => ({ content, read: readSet.has(content.id) })) };
}

/** The oldest announcement the user may see and has not read (message/getUnread). */
export async function firstUnreadAnnouncement(actor: Actor): Promise<MessageContentDoc | null> {
  const filter = { ...(await visibleFilter(actor)), id: { $nin: await readIds(actor.uid) } };
  return MessageContent.findOne(filter, { _id: 0 }).sort({ id: 1 }).lean<MessageContentDoc>();
}

export async function unreadAnnouncementCount(actor: Actor): Promise<number> {
  const filter = { ...(await visibleFilter(actor)), id: { $nin: await readIds(actor.uid) } };
  return MessageContent.countDocuments(filter);
}

/**
 * Unread announcements of many users at once (the live badge after a batch of reminders): the
 * announcements and the users' read markers in two queries, the rest of visibleFilter's rule
 * (site admins see all, others those after they registered) applied here.
 */
export async function unreadAnnouncementCounts(
  users: (Actor & { reg_time?: number })[],
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (!users.length) return counts;
  const [announcements, readRows] = await Promise.all([
    MessageContent.find(
      { message_type: { $in: [...ANNOUNCE_TYPES] } },
      { id: 1, addtime: 1, _id: 0 },
    ).lean(),
    Message.find(
      { to_uid: { $in: users.map((u) => u.uid) }, message_type: 'announce' },
      { to_uid: 1, message_content_id: 1, _id: 0 },
    ).lean(),
  ]);
  const read = new Map<number, Set<number>>();
  for (const row of readRows) {
    let ids = read.get(row.to_uid);
    if (!ids) read.set(row.to_uid, (ids = new Set()));
    ids.add(row.message_content_id);
  }
  for (const user of users) {
    const since = isSiteAdmin(user) ? null : formatUnix(user.reg_time ?? 0);
    const seen = read.get(user.uid);
    counts.set(
      user.uid,
      announcements.filter((a) => (since === null || a.addtime > since) && !seen?.has(a.id)).length,
    );
  }
  return counts;
}

/** Whether this content id is an announcement the user may see (so it may be marked read). */
export async function isVisibleAnnouncement(actor: Actor, contentId: number): Promise<boolean> {
  return (await MessageContent.exists({ ...(await visibleFilter(actor)), id: contentId })) !== null;
}
