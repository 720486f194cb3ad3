import { describe, expect, it } from 'vitest';
import { runWithNativesSyntax } from '../testing/natives.js';
import { parseTree } from './parser.js';
import { CHARS, ElementFacts, LINK_CHARS } from './element-facts.js';

describe('ElementFacts', () => {
  const root = parseTree('<div><p>a</p><p>b</p><ul><li>c</li></ul></div>');
  const [div, first, second, ul, li] = root.querySelectorAll('*') as [never, never, never, never, never];

  it('adds counts up the tree and answers only for measured elements', () => {
    const facts = new ElementFacts();
    facts.addCount(first, CHARS, 10);
    facts.addCount(first, LINK_CHARS, 4);
    facts.markMeasured(first);
    facts.addCounts(div, first);
    facts.addCount(div, CHARS, 5);
    facts.markMeasured(div);
    expect(facts.stat(div)).toMatchObject({ chars: 15, linkChars: 4, commas: 0 });
    expect(facts.stat(second)).toBeUndefined();
    expect(facts.count(second, CHARS)).toBe(0);
  });

  it('keeps verdicts, flags and scores apart, scored elements in the order first scored', () => {
    const facts = new ElementFacts();
    expect(facts.verdict(ul)).toBeUndefined();
    facts.setVerdict(ul, false);
    facts.setVerdict(li, true);
    expect([facts.verdict(ul), facts.verdict(li)]).toEqual([false, true]);
    facts.markSkipped(ul);
    expect([facts.skipped(ul), facts.blocky(ul), facts.measured(ul)]).toEqual([true, false, false]);
    facts.setScore(li, 2.5);
    facts.setScore(div, -1);
    facts.setScore(li, 3.25);
    expect([facts.score(li), facts.score(div), facts.score(first)]).toEqual([3.25, -1, undefined]);
    expect(facts.scored()).toEqual([li, div]);
  });

  it('keeps a weight beside the flags, negative or not, and the flags as they were', () => {
    const facts = new ElementFacts();
    expect(facts.weight(div)).toBeUndefined();
    facts.setVerdict(div, true);
    facts.markBlocky(div);
    facts.setWeight(div, -50);
    facts.setWeight(ul, 0);
    facts.setWeight(li, 25);
    expect([facts.weight(div), facts.weight(ul), facts.weight(li), facts.weight(first)]).toEqual([-50, 0, 25, undefined]);
    expect([facts.verdict(div), facts.blocky(div), facts.measured(div), facts.verdict(ul)]).toEqual([true, true, false, undefined]);
    // A second weight replaces the first, and marks written after it keep it.
    facts.setWeight(div, 50);
    facts.markMeasured(div);
    expect([facts.weight(div), facts.verdict(div), facts.measured(div)]).toEqual([50, true, true]);
  });

  it('knows nothing of an element past its room, and makes room for one written to, keeping what it held', () => {
    const facts = new ElementFacts();
    facts.addCount(li, CHARS, 3);
    facts.markMeasured(li);
    facts.setScore(li, 1.5);
    // The 5,000th element of a large page: past the room made at first.
    const far = parseTree(`<main>${'<p>x</p>'.repeat(5_000)}</main>`).querySelectorAll('p').at(-1)!;
    expect([facts.stat(far), facts.score(far), facts.verdict(far), facts.skipped(far), facts.count(far, CHARS)]).toEqual([undefined, undefined, undefined, false, 0]);
    facts.addCount(far, CHARS, 7);
    facts.markMeasured(far);
    facts.setScore(far, 2);
    expect([facts.count(far, CHARS), facts.score(far), facts.measured(far)]).toEqual([7, 2, true]);
    expect([facts.count(li, CHARS), facts.score(li), facts.scored()]).toEqual([3, 1.5, [li, far]]);
  });

  it('keeps code optimised on its arrays when a page outgrows the room', () => {
    // A reader's first page of more than 2,048 elements once threw away every optimised function that reads the
    // facts (V8 had taken the arrays for constants).
    const facts = new URL('./element-facts.ts', import.meta.url).href;
    const parser = new URL('./parser.ts', import.meta.url).href;
    const script = `
      const { ElementFacts, CHARS } = await import(${JSON.stringify(facts)});
      const { parseTree } = await import(${JSON.stringify(parser)});
      const paragraphs = parseTree('<main>' + '<p>x</p>'.repeat(5000) + '</main>').querySelectorAll('p');
      const read = (facts, el) => facts.count(el, CHARS) + (facts.measured(el) ? 1 : 0);
      const first = new ElementFacts();
      first.addCount(paragraphs[0], CHARS, 1);
      %PrepareFunctionForOptimization(read);
      for (let i = 0; i < 1000; i++) read(first, paragraphs[i % 100]);
      %OptimizeFunctionOnNextCall(read);
      read(first, paragraphs[0]);
      // V8's status bits: 16 is optimised, 64 optimised by TurboFan.
      const optimised = () => (%GetOptimizationStatus(read) & 80) === 80;
      const before = optimised();
      const large = new ElementFacts();
      large.addCount(paragraphs[4999], CHARS, 7);
      console.log(JSON.stringify({ before, after: optimised(), count: read(large, paragraphs[4999]) }));
    `;
    const out = runWithNativesSyntax(script);
    expect(JSON.parse(out)).toEqual({ before: true, after: true, count: 7 });
  });
});
