import { layout, type LayoutOptions } from '../html.js';
import { html, type Reply } from '../server.js';

/** The login, cart, share, print and private pages behind the junk links: real pages, worthless to a crawler. */
export function junkPage(path: string, base: Omit<LayoutOptions, 'title'>): Reply {
  if (path.startsWith('/private/')) return html(layout({ ...base, title: 'Staff only' }, '<h1>Staff only</h1><p>Internal rota and stock notes.</p>'));
  return html(layout({ ...base, title: 'Sign in' }, '<h1>Please sign in</h1><form method="post" action="/login"><input name="email"><input name="password" type="password"></form>'));
}
