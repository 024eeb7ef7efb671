/**
 * When the item list shows search results (spec 000 §2): for a keyword longer than one
 * character, or a single Chinese character (one Latin letter would match nearly everything).
 */
const CHINESE = /^[\u4e00-\u9fa5]$/;

export function shouldSearch(rawKeyword: string): boolean {
  const keyword = rawKeyword.trim();
  const chars = [...keyword];
  if (chars.length > 1) return true;
  return chars.length === 1 && CHINESE.test(keyword);
}
