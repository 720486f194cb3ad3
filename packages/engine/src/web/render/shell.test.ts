import { describe, expect, it } from 'vitest';
import { looksLikeShell } from './shell.js';

describe('looksLikeShell', () => {
  it('finds an empty mount point and a noscript asking for JavaScript', () => {
    expect(looksLikeShell('<html><body><div id="root"></div><script src="a.js"></script></body></html>').shell).toBe(true);
    const script = `<script>var a = "${'x'.repeat(5000)}"</script>`;
    expect(looksLikeShell(`<html><body><noscript>You need to enable JavaScript</noscript><div id="x"></div>${script}</body></html>`).shell).toBe(true);
  });

  it('leaves a page with plenty of text after one scan, without building its tree', () => {
    const page = `<html><body><div id="root"></div><p>${'word '.repeat(1000)}</p><script></script></body></html>`;
    expect(looksLikeShell(page)).toEqual({ shell: false, reason: 'over 1600 characters of text' });
  });

  it('counts text in script, style and comments as nothing', () => {
    const hidden = `<style>${'p{}'.repeat(1000)}</style><!-- ${'c'.repeat(3000)} --><script>${'s'.repeat(3000)}</script>`;
    expect(looksLikeShell(`<html><body><div id="app"></div>${hidden}</body></html>`).shell).toBe(true);
  });

  it('leaves a short page with scripts but no mount point or noscript in its markup without building its tree', () => {
    const page = `<html><body><p>${'word '.repeat(150)}</p><div id="menu"></div><script src="a.js"></script></body></html>`;
    expect(looksLikeShell(page)).toEqual({ shell: false, reason: 'no mount point' });
  });

  it('still finds a mount point however its markup is written', () => {
    const shell = (mount: string) => looksLikeShell(`<html><body>${mount}<script src="a.js"></script></body></html>`).shell;
    expect(shell('<div id=root></div>')).toBe(true);
    expect(shell(`<div ID = 'app'></div>`)).toBe(true);
    expect(shell('<div id="&#114;oot"></div>')).toBe(true);
    expect(shell('<div NG-APP></div>')).toBe(true);
    expect(shell('<APP-ROOT></APP-ROOT>')).toBe(true);
    expect(shell('<div id="root-menu"></div>')).toBe(false);
  });
});
