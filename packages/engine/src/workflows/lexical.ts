/** Small lexical tools shared by the heuristic judges (stop conditions, intent filter, assessment, planning). */

const STOPWORDS = new Set(
  `a an the and or but if then than when where which who whom whose what why how of in on at to for from by with
  about into over under after before between through during without within is are was were be been being it its
  this that these those there here any all some each every no not only also just very can could should would will
  shall may might must do does did done have has had i me my we our you your they them their he she his her
  tell let know notify alert monitor monitoring track tracking watch find show get new latest`.split(/\s+/),
);

/** Content words, lower-cased, with a plural `s` dropped so "prices" meets "price". */
export function terms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !STOPWORDS.has(w))
    .map(stem);
}

export function uniqueTerms(text: string): string[] {
  return [...new Set(terms(text))];
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Share of `wanted` terms present in `text`, 0..1, and which were found. */
export function coverage(wanted: string[], text: string): { score: number; found: string[]; missing: string[] } {
  if (wanted.length === 0) return { score: 0, found: [], missing: [] };
  const have = new Set(terms(text));
  const found = wanted.filter((w) => have.has(w));
  return { score: found.length / wanted.length, found, missing: wanted.filter((w) => !have.has(w)) };
}
