import { parseDocument, textOf } from '../../html/dom.js';

/**
 * Whether a statically fetched HTML page looks like an application shell whose content only
 * scripts produce: little visible text, scripts, and either an empty mount point (#root, #app,
 * #__next, [data-reactroot], ng-app...) or a <noscript> asking for JavaScript. Static pages with
 * real text never qualify, so `render: auto` costs them nothing: no browser is started.
 */
const MOUNT_SELECTORS = ['#root', '#app', '#__next', '#__nuxt', '#svelte', '[data-reactroot]', '[ng-app]', '[data-app]', 'app-root'];
const SHELL_TEXT_CHARS = 400;

export interface ShellVerdict {
  shell: boolean;
  reason: string;
}

export function looksLikeShell(html: string): ShellVerdict {
  // Cheap exits first: no script, no application (most of the static web leaves here).
  if (!/<script\b/i.test(html)) return { shell: false, reason: 'no scripts' };
  const root = parseDocument(html);
  const body = root.querySelector('body') ?? root;
  const noscript = body.querySelectorAll('noscript').map((n) => n.text).join(' ');
  for (const n of body.querySelectorAll('noscript, script, style, template')) n.remove();
  const text = textOf(body);
  if (text.length > SHELL_TEXT_CHARS) return { shell: false, reason: `${text.length} characters of text` };
  const mount = MOUNT_SELECTORS.find((selector) => body.querySelector(selector));
  if (mount) return { shell: true, reason: `mount point ${mount} and ${text.length} characters of text` };
  if (/enable javascript|requires javascript|javascript is (disabled|required)/i.test(noscript)) {
    return { shell: true, reason: 'a <noscript> asking for JavaScript' };
  }
  return { shell: false, reason: 'no mount point' };
}
