import { describe, expect, it } from 'vitest';
import { parseHtml } from './parse.js';

const prose = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<p>Paragraph ${i + 1} about ${topic}: the committee met on Tuesday, reviewed the figures, and agreed that the plan, costed at four million, should go ahead in spring.</p>`,
  ).join('\n');

describe('main text: shop and site chrome is left out', () => {
  // Furniture with neutral class names, inside the same container as the article, so only its text gives it away.
  const html = `<!doctype html><html><head><title>Tide mill restored</title></head><body>
    <div class="top"><a href="/login">Sign in</a> | <a href="/register">Register</a></div>
    <div class="wrap">
      <div class="box"><p>We use cookies to improve your experience on this site.</p><a href="/ok">Accept all</a></div>
      <div class="story">
        <h1>Tide mill restored</h1>
        <div class="row"><a href="/s/fb">Share</a> <a href="/s/tw">Tweet</a> <a href="/s/mail">Email</a></div>
        ${prose('the tide mill', 6)}
        <div class="buy"><a class="btn" href="/cart/add/7">Add to cart</a></div>
        <div class="more">
          <a href="/news/1">Harbour</a> <a href="/news/2">Ferries</a> <a href="/news/3">Weather</a> <a href="/news/4">Tides</a>
        </div>
      </div>
      <div class="rail"><h3>Most read</h3><ul><li><a href="/a">Storm closes pier</a></li><li><a href="/b">Council votes on fares</a></li><li><a href="/c">New lifeboat named</a></li></ul></div>
    </div>
    <div class="bottom">© 2026 Coast News · <a href="/privacy">Privacy</a></div>
  </body></html>`;
  const page = parseHtml(html, 'https://coast.example/news/tide-mill');

  it('keeps the article', () => {
    expect(page.text).toContain('Paragraph 1 about the tide mill');
    expect(page.text).toContain('Paragraph 6 about the tide mill');
  });

  it.each(['Sign in', 'Register', 'We use cookies', 'Accept all', 'Share', 'Tweet', 'Add to cart', 'Most read', 'Storm closes pier', 'Ferries', 'Privacy'])('drops "%s"', (chrome) => {
    expect(page.text).not.toContain(chrome);
    expect(page.markdown).not.toContain(chrome);
  });
});

describe('main text: which block is the article', () => {
  it('takes the prose, not the link-heavy sidebar beside it, and merges sibling paragraphs', () => {
    const links = Array.from({ length: 30 }, (_, i) => `<li><a href="/t/${i}">Topic number ${i}, with a long enough label</a></li>`).join('');
    const page = parseHtml(
      `<html><body><div id="page">
        <div class="col-a"><div class="lead">${prose('the bridge', 3)}</div><p>A closing paragraph that stands beside the lead block, long enough to read as prose on its own.</p></div>
        <div class="col-b"><ul>${links}</ul></div>
      </div></body></html>`,
      'https://x.example/a',
    );
    expect(page.text).toContain('Paragraph 3 about the bridge');
    expect(page.text).toContain('A closing paragraph that stands beside the lead block');
    expect(page.text).not.toContain('Topic number');
  });

  it('keeps a section whose id is made from its heading, even when the words look like furniture', () => {
    const page = parseHtml(
      `<html><body><div class="doc">${prose('setup', 3)}
        <div class="section" id="sharing-with-other-developers"><h2>Sharing with other developers</h2>${prose('sharing', 3)}</div>
      </div></body></html>`,
      'https://x.example/doc',
    );
    expect(page.text).toContain('Paragraph 2 about sharing');
    expect(page.markdown).toContain('## Sharing with other developers');
  });

  it('reads again with fewer rules when the strict reading finds almost nothing', () => {
    // The only wrapper of the article is named like furniture; the strict reading leaves it out.
    const page = parseHtml(`<html><body><div class="layout sidebar-right">${prose('the harvest', 5)}</div><p>Short note.</p></body></html>`, 'https://x.example/h');
    expect(page.text).toContain('Paragraph 5 about the harvest');
  });
});

describe('main text: markdown structure', () => {
  const page = parseHtml(
    `<html><body><article>
      <h1>Choosing a tent</h1>
      ${prose('tents', 3)}
      <h2>What to pack</h2>
      <ul>
        <li>A <a href="/gear/stakes">set of stakes</a></li>
        <li>Guy lines
          <ol><li>Main lines</li><li>Spare lines</li></ol>
        </li>
      </ul>
      <h3>Sizes</h3>
      <table>
        <thead><tr><th>Model</th><th>Weight</th></tr></thead>
        <tbody><tr><td>Ridge 2</td><td>1.9 kg</td></tr><tr><td>Dome 3</td><td>2.6 kg</td></tr></tbody>
      </table>
      <table class="layout"><tr><td><div><p>Pitch on level ground, away from trees.</p></div></td><td><p>Face the door away from the wind.</p></td></tr></table>
    </article></body></html>`,
    'https://camp.example/guides/tents',
  );

  it('keeps headings at their level', () => {
    expect(page.markdown).toContain('# Choosing a tent');
    expect(page.markdown).toContain('## What to pack');
    expect(page.markdown).toContain('### Sizes');
  });

  it('keeps lists, nested lists and absolute links', () => {
    expect(page.markdown).toContain('- A [set of stakes](https://camp.example/gear/stakes)');
    expect(page.markdown).toContain('- Guy lines\n  1. Main lines\n  2. Spare lines');
  });

  it('keeps tables with their header row', () => {
    expect(page.markdown).toContain('| Model | Weight |\n| --- | --- |\n| Ridge 2 | 1.9 kg |\n| Dome 3 | 2.6 kg |');
    expect(page.text).toContain('Ridge 2: 1.9 kg');
  });

  it('reads a table that lays out paragraphs (a block deep in a cell) as paragraphs, not as a grid', () => {
    expect(page.markdown).toContain('Pitch on level ground, away from trees.\n\nFace the door away from the wind.');
    expect(page.markdown).not.toContain('| Pitch on level ground');
  });
});

describe('main text: a short article above a long comment thread', () => {
  // The article is too short for the first reading to be sure of it; the retries without name rules find the
  // thread, which has more text. The thread is other people's text, so the short article stays the reading.
  const comments = Array.from(
    { length: 12 },
    (_, i) => `<li class="c"><p>Reader ${i + 1} wrote: I visited the mill last summer, and the guides, the café, and the views over the estuary were all wonderful.</p></li>`,
  ).join('\n');
  const html = `<!doctype html><html><body><div id="page">
    <div class="entry"><h1>Mill reopens</h1><p>The old tide mill reopens on Saturday after a two-year restoration.</p><p>Entry is free for the first week.</p></div>
    <div id="comments"><h3>12 comments</h3><ol>${comments}</ol></div>
  </div></body></html>`;
  const page = parseHtml(html, 'https://coast.example/news/mill-reopens');

  it('reads the article, not the thread', () => {
    expect(page.text).toContain('reopens on Saturday after a two-year restoration');
    expect(page.text).not.toContain('Reader 3 wrote');
  });
});

describe('main text: pages the parser could lose whole', () => {
  it('reads an article inside a form that wraps the page', () => {
    const html = `<!doctype html><html><body><form method="post" action="./page" id="mainform">
      <div class="top"><input type="search" name="q"><button>Search</button></div>
      <div class="recipe"><h1>Pineapple cake</h1>${prose('the pineapple cake', 5)}</div>
    </form></body></html>`;
    const page = parseHtml(html, 'https://bake.example/pineapple-cake');
    expect(page.text).toContain('Paragraph 3 about the pineapple cake');
  });

  it('still leaves out a search or login form beside the article', () => {
    const html = `<!doctype html><html><body><div class="story"><h1>Ferry timetable</h1>${prose('the ferry', 5)}</div>
      <form action="/login"><h2>Sign in to comment</h2><p>Members can save stories and follow writers.</p><input name="user"></form></body></html>`;
    const page = parseHtml(html, 'https://coast.example/ferry');
    expect(page.text).toContain('Paragraph 2 about the ferry');
    expect(page.text).not.toContain('Members can save stories');
  });

  it('ends a script where browsers do when its end tag carries junk', () => {
    // `</script` without its `>`: browsers end the script at the next `>`; read literally, the page is all script.
    const html = `<!doctype html><html><body><script>var a = 1;</script
      <!-- a note -->
      <div class="story"><h1>Harbour wall</h1>${prose('the harbour wall', 5)}</div><script>var b = 2;</script></body></html>`;
    const page = parseHtml(html, 'https://coast.example/harbour-wall');
    expect(page.text).toContain('Paragraph 4 about the harbour wall');
  });
});

describe('main text: a standfirst box before the body', () => {
  const html = `<!doctype html><html><body><div class="article"><h1>Night trains return</h1>
    <div class="intro"><p>Three routes across the border reopen in May after a decade. How did the operator make the numbers work?</p></div>
    <div class="body">${prose('the night trains', 10)}</div>
    <div class="about">Our transport desk writes about trains and buses.</div>
  </div></body></html>`;
  const page = parseHtml(html, 'https://rail.example/night-trains');

  it('opens with the standfirst', () => {
    expect(page.text).toContain('How did the operator make the numbers work?');
    expect(page.text.indexOf('Three routes reopen')).toBeLessThan(page.text.indexOf('Paragraph 1 about the night trains'));
  });
});

describe('main text: a short post among the columns of a blog', () => {
  // A photo post of one sentence: the strict reading finds it, the retries with fewer rules take the whole page of
  // category and archive lists around it, which is longer but scores far lower.
  const cats = Array.from({ length: 40 }, (_, i) => `<li><a href="/cat/${i}">Category number ${i} of crafts</a></li>`).join('');
  const archive = Array.from({ length: 12 }, (_, i) => `<li><a href="/2012/${i + 1}">Month ${i + 1} of the year 2012</a></li>`).join('');
  const html = `<!doctype html><html><body><div id="pagebody">
    <div id="alpha">
      <div class="module"><h2>About</h2><p>A blog of crafts for children and parents, with a new idea every day of the week.</p></div>
      <div class="module"><h2>Contributors</h2><p>Written by three parents and a teacher who like paper, glue and scissors.</p></div>
      <div class="module"><h2>Categories</h2><ul>${cats}</ul></div>
    </div>
    <div id="beta"><div class="entry" id="entry-123"><h3>Fall leaf bunting</h3><div class="entry-body"><p>Simple As That shares this easy fall leaf bunting that would be a lovely addition to your Thanksgiving table.</p></div></div></div>
    <div id="gamma">
      <div class="module"><h2>Archives</h2><ul>${archive}</ul></div>
      <div class="module"><p>All photos are licensed under a Creative Commons licence, so you may share them, as long as you credit the author.</p></div>
    </div>
  </div></body></html>`;
  const page = parseHtml(html, 'https://crafts.example/2012/11/bunting');

  it('reads the post, not the lists around it', () => {
    expect(page.text).toContain('Simple As That shares this easy fall leaf bunting');
    expect(page.text).not.toContain('Category number 3');
    expect(page.text).not.toContain('Month 4 of the year');
  });
});

describe('main text: a post of one line above a comment thread', () => {
  // Under 100 characters of post: still the page's own text, and the thread beside it is not.
  const comments = Array.from(
    { length: 10 },
    (_, i) => `<div class="c"><p>Reader ${i + 1} said: what a lovely idea, I will try it with my grandchildren, who love autumn, leaves and glue.</p></div>`,
  ).join('\n');
  const html = `<!doctype html><html><body><div id="content">
    <div class="hentry post"><h2>Comments without censure</h2><p>by the author on July 21</p></div>
    <div id="comments">${comments}</div>
  </div></body></html>`;
  const page = parseHtml(html, 'https://blog.example/2012/07/comments');

  it('reads the post, not the thread', () => {
    expect(page.text).toContain('Comments without censure');
    expect(page.text).not.toContain('Reader 2 said');
  });
});

describe('main text: a comment thread inside the post block', () => {
  // The thread follows the post in the same block, with no wrapper of its own; the heading its "comments" links
  // point at marks where it starts.
  const comments = Array.from(
    { length: 8 },
    (_, i) => `<div class="commentbody"><p>I took this course last year, and the lectures, the exercises, and the forum were all worth the time, number ${i + 1}.</p></div><p class="posted">Posted by: Reader ${i + 1} at 6:${10 + i} AM</p>`,
  ).join('\n');
  const html = `<!doctype html><html><body><div id="main"><div class="content">
    <h2>Free online cryptography course</h2>
    ${prose('the course', 3)}
    <p class="posted">Posted on November 13 at 6:15 AM · <a href="#comments">8 comments</a></p>
    <h2 id="comments">Comments</h2>
    ${comments}
  </div></div></body></html>`;
  const page = parseHtml(html, 'https://blog.example/2012/11/course');

  it('keeps the post and leaves out the thread', () => {
    expect(page.text).toContain('Paragraph 3 about the course');
    expect(page.text).not.toContain('Posted by: Reader 2');
    expect(page.text).not.toContain('worth the time, number 5');
  });

  it('takes the mark inside the post, not one earlier on the page outside it', () => {
    const sidebar = `<div class="widget"><a name="comments"></a><h3>Recent comments</h3><ul><li><a href="/c/1">Reader 1 on the pier</a></li></ul></div>`;
    const withSidebar = parseHtml(html.replace('<div id="main">', `${sidebar}<div id="main">`), 'https://blog.example/2012/11/course');
    expect(withSidebar.text).toContain('Paragraph 3 about the course');
    expect(withSidebar.text).not.toContain('worth the time, number 5');
  });

  it('keeps everything when the mark comes before the article', () => {
    const early = parseHtml(`<html><body><div class="content"><a name="comments"></a>${prose('the harbour', 4)}</div></body></html>`, 'https://x.example/early');
    expect(early.text).toContain('Paragraph 4 about the harbour');
  });
});

describe('main text: a comment thread between the blocks of a post', () => {
  // The post is several blocks side by side, the thread's heading and the thread after them, all children of the body.
  const reply = (i: number) => `<p>Reply ${i}: I read the whole post twice, and the part about the tides, the ferries, and the old harbour wall rang true.</p>`;
  const page = (between: string, heading: string) =>
    parseHtml(
      `<!doctype html><html><body>
        <div class="entry">${prose('the harbour', 3)}</div>${between}
        <div class="entry">${prose('the ferry', 3)}</div>
        ${heading}
        <div class="entry">${[1, 2, 3].map(reply).join('\n')}</div>
      </body></html>`,
      'https://blog.example/harbour',
    );

  it('cuts the thread from the heading between the blocks', () => {
    const read = page('', '<h2 id="comments">3 Comments</h2>');
    expect(read.text).toContain('Paragraph 3 about the harbour');
    expect(read.text).toContain('Paragraph 3 about the ferry');
    expect(read.text).not.toContain('Reply 2');
  });

  it('takes no mark from inside a block beside the post', () => {
    const read = page('<div class="widget"><a name="comments"></a><h3>Recent</h3></div>', '<h2>3 Comments</h2>');
    expect(read.text).toContain('Paragraph 3 about the ferry');
    expect(read.text).toContain('Reply 2');
  });
});

describe('main text: a list of links under a heading of the article', () => {
  const apps = ['BBEdit', 'Acorn', 'MarsEdit', 'Transmit', 'Kaleidoscope'].map((name) => `<li><a href="/apps/${name}">${name}</a></li>`).join('');
  const more = ['Storm closes pier', 'Council votes on fares', 'New lifeboat named'].map((t, i) => `<li><a href="/news/${i}">${t}</a></li>`).join('');
  const page = parseHtml(
    `<html><body><article>
      <h1>The apps I use every day</h1>
      ${prose('my desk', 4)}
      <h2>Mac apps</h2>
      <ul>${apps}</ul>
      ${prose('my phone', 2)}
      <p>More news:</p>
      <ul>${more}</ul>
    </article></body></html>`,
    'https://blog.example/apps',
  );

  it('keeps the list: it is a section of the article', () => {
    expect(page.text).toContain('MarsEdit');
    expect(page.text).toContain('Kaleidoscope');
  });

  it('still leaves out a list of short links that no heading introduces', () => {
    expect(page.text).not.toContain('Council votes on fares');
  });
});

describe('main text: a section called "Comments" in a document', () => {
  // A syntax guide's sections: the "Comments" heading has the id a thread's heading has, but more sections follow.
  const page = parseHtml(
    `<html><body><article><h1>The configuration file</h1>${prose('keys', 3)}
      <h2 id="comments">Comments</h2>${prose('comments', 2)}
      <h2 id="strings">Strings</h2>${prose('strings', 2)}
      <h2 id="tables">Tables</h2>${prose('tables', 2)}
    </article></body></html>`,
    'https://docs.example/config',
  );

  it('keeps the sections after it', () => {
    expect(page.text).toContain('Paragraph 2 about comments');
    expect(page.text).toContain('Paragraph 2 about tables');
  });
});

describe('main text: a reference page with highlighted code', () => {
  // As documentation generators write it: every token of a listing is a span, long string literals full of commas.
  const listing = (n: number) =>
    `<div class="highlight"><pre><span></span>` +
    Array.from(
      { length: 12 },
      (_, i) => `<span class="gp">&gt;&gt;&gt; </span><span class="n">tagger</span><span class="o">.</span><span class="n">tag</span><span class="p">(</span><span class="s1">'the cat, the dog, the bird, and the fish sat on mat ${n}.${i}'</span><span class="p">)</span>\n`,
    ).join('') +
    `</pre></div>`;
  const section = (n: number) =>
    `<section id="tagger-${n}"><h2>Tagger ${n}</h2><dl class="py class"><dt class="sig">class Tagger${n}(model)</dt><dd><p>Tagger ${n} assigns a part of speech to each token of a sentence, using the model it was trained with.</p>${listing(n)}</dd></dl></section>`;
  const html = `<!doctype html><html><head><title>taggers module</title></head><body>
    <div class="sphinxsidebar" role="navigation"><ul>${Array.from({ length: 20 }, (_, i) => `<li><a href="/api/m${i}.html">module ${i}</a></li>`).join('')}</ul></div>
    <div class="document"><div class="body" role="main">
      <h1>taggers module</h1><p>Classes that tag the tokens of a sentence with their parts of speech.</p>
      ${[1, 2, 3].map(section).join('\n')}
    </div></div>
  </body></html>`;
  const page = parseHtml(html, 'https://docs.example/api/taggers.html');

  it('reads the whole page, not one listing picked out by its string literals', () => {
    expect(page.text).toContain('Classes that tag the tokens of a sentence');
    for (const n of [1, 2, 3]) {
      expect(page.text).toContain(`Tagger ${n} assigns a part of speech`);
      expect(page.markdown).toContain(`>>> tagger.tag('the cat, the dog, the bird, and the fish sat on mat ${n}.11')`);
    }
    expect(page.text).not.toContain('module 7');
  });
});
