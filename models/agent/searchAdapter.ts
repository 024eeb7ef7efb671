/**
 * The one place the assistant asks search (models/search) for pages: the ranked search, run as
 * the asker, so it only ever hands the model pages the asker may read, best first, each with a
 * short plain-text snippet.
 *
 * Ranked search wants every word of a query; a question's keywords may not all be in one page
 * ("quokka habitat size" where no page gives the size). When the whole query finds nothing, each
 * word is searched and the hits merged: pages matching more words first, then the better score.
 */
import type { Actor, ItemAccess } from '../access';
import { isApiError } from '../platform';
import { rankedSearch, type PageHit } from '../search';

export interface SearchHit {
  page_id: number;
  item_id: number;
  item_name: string;
  page_title: string;
  snippet: string;
}

const MAX_WORDS = 6;

async function ranked(
  actor: Actor,
  access: ItemAccess | null,
  query: string,
  limit: number,
): Promise<PageHit[]> {
  try {
    const found = await rankedSearch(actor, access ? access.item.item_id : 0, query, {
      limit,
      attachments: false,
    });
    return found.pages;
  } catch (error) {
    // A keyword search refuses (too short, too long): that query finds nothing.
    if (isApiError(error)) return [];
    throw error;
  }
}

/** `access` null: every item the actor may read (logged-in users' global sessions). */
export async function searchDocs(
  actor: Actor,
  access: ItemAccess | null,
  query: string,
  limit: number,
): Promise<SearchHit[]> {
  let pages = await ranked(actor, access, query.trim(), limit);
  if (!pages.length) {
    const words = [...new Set(query.split(/[\s,;:!?。，、；：！？"'()[\]{}]+/u))]
      .filter((w) => [...w].length >= 2)
      .slice(0, MAX_WORDS);
    const merged = new Map<number, { page: PageHit; words: number; score: number }>();
    for (const word of words)
      for (const page of await ranked(actor, access, word, limit)) {
        const known = merged.get(page.page_id);
        if (known) {
          known.words++;
          known.score = Math.max(known.score, page.score);
        } else merged.set(page.page_id, { page, words: 1, score: page.score });
      }
    pages = [...merged.values()]
      .sort((a, b) => b.words - a.words || b.score - a.score)
      .map((entry) => entry.page);
  }
  return pages.slice(0, limit).map((p) => ({
    page_id: p.page_id,
    item_id: p.item_id,
    item_name: p.item_name,
    page_title: p.page_title,
    snippet: p.snippet.trim(),
  }));
}
