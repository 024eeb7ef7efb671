/** The dialogs the reader opens over a page (loaded on first use: none is on the first paint). */
export type ReaderDialog =
  // header
  | 'share'
  | 'notices'
  | 'user'
  | 'ask'
  | 'offline'
  // manager menu
  | 'import'
  | 'export'
  | 'members'
  | 'recycle'
  | 'update'
  | 'changeLog'
  | 'attorn'
  | 'archive'
  | 'delete'
  // editor bar / page
  | 'history'
  | 'pageInfo'
  | 'attachments';
