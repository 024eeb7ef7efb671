/** suggestion/* as the editor and the reader call them (Quire's suggest mode). */
import type { Output, SuggestionShape } from '../../../api/contracts';
import { request } from '../../api/request';

export type Suggestion = SuggestionShape;
export type SuggestionList = Output<'suggestion', 'list'>;

const QUIET = { alert: false, redirect: false, manager: false } as const;

export interface ChangeToPropose {
  from: number;
  old_text: string;
  new_text: string;
  before: string;
  after: string;
}

export const listSuggestions = (pageId: number) =>
  request<SuggestionList>('suggestion/list', { page_id: pageId }, QUIET);

export const proposeChange = (pageId: number, change: ChangeToPropose) =>
  request<{ suggestion_ids: number[] }>(
    'suggestion/propose',
    { page_id: pageId, changes: JSON.stringify([change]) },
    QUIET,
  );

/** Accept or reject some suggestions by id, or every open one of an author (`authorKey`). */
export const reviewSuggestions = (
  pageId: number,
  accept: boolean,
  pick: { ids: number[] } | { authorKey: string },
) =>
  request<Output<'suggestion', 'accept'>>(
    accept ? 'suggestion/accept' : 'suggestion/reject',
    'ids' in pick
      ? { page_id: pageId, suggestion_ids: pick.ids.join(',') }
      : { page_id: pageId, author_key: pick.authorKey },
    QUIET,
  );
