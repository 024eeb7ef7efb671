/**
 * The one place the assistant asks search (models/search) for pages. Kept apart so the ranked
 * search (issue 35 part 1) replaces this body alone: the assistant needs hits the asker may read,
 * best first, each with a short plain-text snippet.
 *
 * Today's search matches the query as one literal substring, so a question's keywords ("quokka
 * habitat") would find nothing in "the habitat of the quokka": when the whole query finds nothing,
 * each word is searched and the hits merged, pages matching more words first.
 */
import type { Actor, ItemAccess } from '../access';
import { isApiError } from '../platform';
import { unescapeFromClient } from '../pages';
import { searchPages } from '../search';

export interface SearchHit {
  page_id: number;
  item_id: number;
  item_name: string;
  page_title: string;
  snippet: string;
}

const MAX_WORDS = 6;

async function literal(actor: Actor, access: ItemAccess | null, query: string) {
  try {
    return (await searchPages(actor, query, access)).pages;
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
  let pages = await literal(actor, access, query.trim());
  if (!pages.length) {
    const words = [...new Set(query.split(/[\s,;:!?。，、；：！？"'()[\]{}]+/u))]
      .filter((w) => [...w].length >= 2)
      .slice(0, MAX_WORDS);
    const score = new Map<string, { page: (typeof pages)[number]; words: number; order: number }>();
    let order = 0;
    for (const word of words)
      for (const page of await literal(actor, access, word)) {
        const known = score.get(page.page_id);
        if (known) known.words++;
        else score.set(page.page_id, { page, words: 1, order: order++ });
      }
    pages = [...score.values()]
      .sort((a, b) => b.words - a.words || a.order - b.order)
      .map((entry) => entry.page);
  }
  return pages.slice(0, limit).map((p) => ({
    page_id: Number(p.page_id),
    item_id: p.item_id,
    item_name: p.item_name,
    page_title: p.page_title,
    snippet: unescapeFromClient(p.search_content)
      .replace(/^\.\.\.|\.\.\.$/g, '')
      .trim(),
  }));
}
