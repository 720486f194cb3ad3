import { describe, expect, it } from 'vitest';
import { parseHtml } from './index.js';

const doc = (lang: string, body: string) => parseHtml(`<html${lang}><head><title>t</title></head><body><main><p>${body}</p></main></body></html>`, 'https://example.test/');

describe('page language', () => {
  it('reads <html lang> first', () => {
    expect(doc(' lang="pt-BR"', 'This text is English but the page says otherwise.').language).toBe('pt');
  });

  it.each([
    ['de', 'Die neue Kaffeemaschine ist ab sofort im Handel erhältlich und kostet weniger als das Vorgängermodell.'],
    ['fr', 'La nouvelle machine à café est disponible dès maintenant en magasin et coûte moins cher que le modèle précédent.'],
    ['es', 'La nueva cafetera ya está disponible en las tiendas y cuesta menos que el modelo anterior de la marca.'],
    ['it', 'La nuova macchina da caffè è disponibile da subito nei negozi e costa meno del modello precedente.'],
    ['nl', 'Het nieuwe koffiezetapparaat is vanaf nu verkrijgbaar in de winkel en kost minder dan het vorige model.'],
    ['pl', 'Nowy ekspres do kawy jest już dostępny w sklepach i kosztuje mniej niż poprzedni model tej marki.'],
  ])('detects %s from the text when no language is declared', (lang, text) => {
    expect(doc('', text).language).toBe(lang);
  });

  it('does not guess from a few words', () => {
    expect(doc('', 'Home · Shop').language).toBeNull();
  });
});
