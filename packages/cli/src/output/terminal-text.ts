/**
 * Text from the web (a page's title, its link texts, a server's message) on its way to a terminal. A control
 * character in it is obeyed by the terminal, not shown: an escape sequence in a crawled page's title could clear the
 * screen, rewrite what an earlier line said, retitle the window or, in some terminals, set the clipboard. wvr writes no
 * escape sequences of its own outside the ink views (which color through their own props), so whatever reaches the
 * terminal is made inert here.
 */

/** C0 controls but tab and line feed, DEL, and C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

/** Each control character shown as its Unicode control picture (ESC as ␛, CR as ␍); C1 controls, which have none, as �. */
export function terminalText(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, picture) : text;
}

function picture(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  return code === 0x7f ? '\u2421' : '\ufffd';
}

/**
 * JSON text with each control character written as its `\u` escape. `JSON.stringify` escapes C0 controls inside
 * strings but leaves DEL and C1 controls raw, which some terminals obey; escaped, the JSON means the same.
 */
export function terminalJson(json: string): string {
  return CONTROL.test(json) ? json.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

/** `value` with every string in it (at any depth) made safe by `terminalText`: the data a live view renders. */
export function terminalData<T>(value: T): T {
  if (typeof value === 'string') return terminalText(value) as T;
  if (Array.isArray(value)) return value.map(terminalData) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, terminalData(v)])) as T;
}
