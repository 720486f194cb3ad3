import { parseDocument, textOf, type HTMLElement } from '../../html/dom.js';

/**
 * Whether a statically fetched HTML page looks like an application shell whose content only
 * scripts produce: little visible text, scripts, and either an empty mount point (#root, #app,
 * #__next, [data-reactroot], ng-app...) or a <noscript> asking for JavaScript. Static pages with
 * real text never qualify, so `render: auto` costs them nothing: no browser is started.
 */
const MOUNT_SELECTORS = ['#root', '#app', '#__next', '#__nuxt', '#svelte', '[data-reactroot]', '[ng-app]', '[data-app]', 'app-root'];
const SHELL_TEXT_CHARS = 400;
/** More characters of text than this, however counted, and a page is no shell. */
export const PAST_SHELL_TEXT_CHARS = SHELL_TEXT_CHARS * 4;
/**
 * Markup one of MOUNT_SELECTORS needs, read off the selectors: an id as written (or written with a character
 * reference, `&`), an attribute's name, an element's name. It may match where no selector does (an id of "root-menu");
 * then the tree decides.
 */
const MOUNT_MARKUP = mountMarkup(MOUNT_SELECTORS);

function mountMarkup(selectors: readonly string[]): RegExp {
  const of = (kind: RegExp, strip: (s: string) => string) => selectors.filter((s) => kind.test(s)).map((s) => strip(s).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const ids = [...of(/^#/, (s) => s.slice(1)), '&'].join('|');
  const attributes = of(/^\[/, (s) => s.slice(1, -1)).join('|');
  const elements = of(/^[a-z]/, (s) => s).join('|');
  return new RegExp(`\\bid\\s*=\\s*["']?[^"'\\s>]*(?:${ids})|${attributes}|<(?:${elements})`, 'i');
}

export interface ShellVerdict {
  shell: boolean;
  reason: string;
}

export function looksLikeShell(html: string): ShellVerdict {
  // Cheap exits first: no script, no application (most of the static web leaves here).
  if (!/<script\b/i.test(html)) return { shell: false, reason: 'no scripts' };
  // A page with plenty of text between its tags is no shell: one linear scan, no tree (a crawl asks this of every page).
  const visible = visibleChars(html, PAST_SHELL_TEXT_CHARS);
  if (visible > PAST_SHELL_TEXT_CHARS) return { shell: false, reason: `over ${PAST_SHELL_TEXT_CHARS} characters of text` };
  // A shell needs a mount point or a <noscript>: with neither in the markup, no tree can show one (a quarter of a
  // documentation site's short pages came this far and were parsed for nothing).
  if (!MOUNT_MARKUP.test(html) && !/<noscript\b/i.test(html)) return { shell: false, reason: 'no mount point' };
  const body = bodyOf(html);
  const noscript = body.querySelectorAll('noscript').map((n) => n.text).join(' ');
  const text = textOf(withoutHidden(body));
  if (text.length > SHELL_TEXT_CHARS) return { shell: false, reason: `${text.length} characters of text` };
  const mount = MOUNT_SELECTORS.find((selector) => body.querySelector(selector));
  if (mount) return { shell: true, reason: `mount point ${mount} and ${text.length} characters of text` };
  if (/enable javascript|requires javascript|javascript is (disabled|required)/i.test(noscript)) {
    return { shell: true, reason: 'a <noscript> asking for JavaScript' };
  }
  return { shell: false, reason: 'no mount point' };
}

/** The text a reader sees in a page's body (script, style, noscript and template left out). */
export function visibleText(html: string): string {
  return textOf(withoutHidden(bodyOf(html)));
}

function bodyOf(html: string): HTMLElement {
  const root = parseDocument(html);
  return root.querySelector('body') ?? root;
}

function withoutHidden(body: HTMLElement): HTMLElement {
  for (const n of body.querySelectorAll('noscript, script, style, template')) n.remove();
  return body;
}

/** Blocks whose content is never visible text. */
const HIDDEN_BLOCK = /<(script|style|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/giy;

/**
 * Characters of text outside tags, comments and script, style, noscript and template blocks after
 * `<body` (runs of white space count once; entities count as written), counting stops past `limit`.
 * An over-count of what textOf would read, never an under-count by more than the entities' length,
 * so "more than 4x the shell limit" here is safely more than the limit there.
 */
function visibleChars(html: string, limit: number): number {
  const body = html.search(/<body\b/i);
  let i = body < 0 ? 0 : body;
  let n = 0;
  let space = true;
  while (i < html.length && n <= limit) {
    const c = html.charCodeAt(i);
    if (c === 60 /* < */) {
      HIDDEN_BLOCK.lastIndex = i;
      if (HIDDEN_BLOCK.test(html)) {
        i = HIDDEN_BLOCK.lastIndex;
        continue;
      }
      const close = html.indexOf('>', i + 1);
      if (close < 0) break;
      i = close + 1;
      continue;
    }
    const isSpace = c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
    if (!isSpace) n++;
    else if (!space) n++;
    space = isSpace;
    i++;
  }
  return n;
}
