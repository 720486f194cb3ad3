import { contentWords } from './field.js';
import { sentencesOf } from './text.js';

/**
 * Extractive summary: the sentences that carry the document's most frequent content words,
 * favouring the opening (where writers put the point), returned in reading order.
 */
export function summarizeText(text: string, maxSentences = 3, maxChars = 600): string {
  const sentences = sentencesOf(text).filter((s) => s.split(/\s+/).length >= 5);
  if (sentences.length === 0) return text.slice(0, maxChars).trim();
  const frequency = new Map<string, number>();
  for (const word of contentWords(text)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const scored = sentences.map((sentence, index) => {
    const words = contentWords(sentence);
    const weight = words.reduce((sum, w) => sum + (frequency.get(w) ?? 0), 0) / Math.max(4, words.length);
    const position = index === 0 ? 1.5 : index < 3 ? 1.2 : 1;
    return { sentence, index, score: weight * position };
  });
  const chosen = scored
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, maxSentences)
    .sort((a, b) => a.index - b.index);
  let out = '';
  for (const { sentence } of chosen) {
    if (out.length + sentence.length + 1 > maxChars && out) break;
    out = out ? `${out} ${sentence}` : sentence;
  }
  return out.length > maxChars ? `${out.slice(0, maxChars - 1)}…` : out;
}

/** A crawl in a few sentences: each document's lead summary, most important documents first, without repeats. */
export function summarizeCrawl(docs: { title: string | null; summary: string }[], maxSentences = 6): string {
  const lines: string[] = [];
  for (const doc of docs) {
    const lead = sentencesOf(doc.summary)[0] ?? doc.title;
    if (lead && !lines.includes(lead)) lines.push(lead);
    if (lines.length >= maxSentences) break;
  }
  return lines.join(' ');
}
