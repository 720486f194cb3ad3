import { detect } from 'tinyld/light';
import { describe, expect, it } from 'vitest';
import { parseHtml } from './index.js';
import { guessLanguage } from './language.js';

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

  it('guesses from the main content, not the menus before it: an English article under German menus is English', () => {
    const menu = Array.from({ length: 80 }, (_, i) => `<li><a href="/k/${i}">Startseite Angebote Damenmode Herrenmode Kinderschuhe Geschenkideen ${i}</a></li>`).join('');
    const article =
      'The reader of this corpus takes a tokenizer and a model, and it returns the tagged sentences of the text, one per line, with offsets into the source. ' +
      'It was written for the students and researchers who work with large collections of texts, and it runs on any machine that has the framework installed.';
    const html = `<html><head><title>t</title></head><body><nav><ul>${menu}</ul></nav><main><h1>Corpus readers</h1><p>${article}</p></main></body></html>`;
    const page = parseHtml(html, 'https://example.test/');
    expect(page.text).toContain('The reader of this corpus');
    expect(page.language).toBe('en');
  });

  it('does not guess from a few words', () => {
    expect(doc('', 'Home · Shop').language).toBeNull();
  });
});


describe('guessLanguage', () => {
  it('reads English prose, names and all, as English', () => {
    const text =
      'The reader of this corpus takes a tokenizer and a model, and it returns the tagged sentences of the text, one per line, with offsets into the source. José wrote most of it for the project, which has been used by students and researchers for years.';
    expect(guessLanguage(text)).toBe('en');
  });

  it('leaves other languages to the library, even with English words in them', () => {
    const german = 'Die Funktion liest den Text der Seite und gibt die Sätze zurück, einen pro Zeile. Sie ist für Studenten und Forscher geschrieben worden, die mit großen Sammlungen von Texten arbeiten, und sie läuft auf jedem Rechner mit dem Framework.';
    const french = "Le lecteur de ce corpus prend un découpeur et un modèle, et il renvoie les phrases étiquetées du texte, une par ligne, avec leur position dans la source. Il a été écrit pour les étudiants et les chercheurs qui travaillent sur de grands ensembles de textes.";
    const spanish = 'El lector de este corpus toma un separador y un modelo, y devuelve las frases etiquetadas del texto, una por línea, con su posición en la fuente. Fue escrito para los estudiantes y los investigadores que trabajan con grandes colecciones de textos.';
    const polish = 'To jest czytnik korpusu, który bierze tokenizer i model, a potem zwraca zdania z tekstu, jedno na linię, razem z ich położeniem w źródle. To narzędzie napisano dla studentów i badaczy, którzy pracują z dużymi zbiorami tekstów.';
    for (const [text, language] of [[german, 'de'], [french, 'fr'], [spanish, 'es'], [polish, 'pl']] as const) {
      expect(guessLanguage(text)).toBe(language);
      expect(guessLanguage(text)).toBe(detect(text));
    }
  });

  it('reads an English source listing as English: its identifiers are not words of another language', () => {
    const listing = [
      '# Text Toolkit: chat corpus reader',
      '# Copyright (C) 2001-2025 The Toolkit Project',
      '# Author: Edda Lopes <elopes@example.org>',
      'import re',
      'import textwrap',
      'from toolkit.corpus.reader.api import *',
      'from toolkit.corpus.reader.util import *',
      'from toolkit.corpus.reader.xmldocs import *',
      'from toolkit.internals import ElementWrapper',
      'from toolkit.tag import map_tag',
      'from toolkit.util import LazyConcatenation',
      'class ChatCorpusReader(XMLCorpusReader):',
      '    def __init__(self, root, fileids, wrap_etree=False, tagset=None):',
      '        XMLCorpusReader.__init__(self, root, fileids, wrap_etree)',
      '        self._tagset = tagset',
      '    def xml_posts(self, fileids=None):',
      '        if self._wrap_etree:',
      '            return concat([XMLCorpusView(fileid, "Session/Posts/Post", self._wrap_elt) for fileid in self.abspaths(fileids)])',
      '        else:',
      '            return concat([XMLCorpusView(fileid, "Session/Posts/Post") for fileid in self.abspaths(fileids)])',
    ].join('\n');
    // The library, given the identifiers too, reads it as another language.
    expect(detect(listing)).not.toBe('en');
    expect(guessLanguage(listing)).toBe('en');
  });

  it('answers as the library does where English function words are rare: a code listing', () => {
    const listing = Array.from({ length: 40 }, (_, i) => `inet_ops${i} cidr_ops${i} macaddr${i}`).join(' ') + ' the and of';
    expect(guessLanguage(listing)).toBe(detect(listing) || null);
  });
});
