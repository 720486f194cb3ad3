import { detect, detectAll } from 'tinyld/light';
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
    // Written in ASCII alone, with an English "of" ("or") and "software": no letter outside ASCII tells it from English.
    const dutch = 'De lezer van dit corpus neemt een tokenizer en een model, en geeft de gelabelde zinnen van de tekst terug, een per regel, met hun positie in de bron. Het is geschreven voor studenten en onderzoekers die met grote verzamelingen teksten werken, of met de software van het project.';
    for (const [text, language] of [[german, 'de'], [french, 'fr'], [spanish, 'es'], [polish, 'pl'], [dutch, 'nl']] as const) {
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

  it('reads technical English as English: names, tables and identifiers thin out its function words', () => {
    const page = [
      'Source code for lexkit.reader.pronouncing',
      '# Lexicon Kit: Pronouncing Dictionary Reader',
      '# Copyright (C) 2003-2025 Lexicon Kit Project',
      '# Authors: Ilkka Saarinen, Marek Wojcik, Dilnoza Karimova',
      '# For licence information, see LICENCE',
      'The Pronouncing Dictionary [pronouncing.0.7]',
      'Copyright 1998 Kalevala Speech Institute',
      'File Format: Each line consists of an uppercased word,',
      'a counter (for alternative pronunciations), and a transcription.',
      'Vowels are marked for stress (1=primary, 2=secondary, 0=no stress).',
      'E.g.: NATURAL 1 N AE1 CH ER0 AH0 L',
      'The dictionary contains 127069 entries. Of these, 119400 words are assigned',
      'a unique pronunciation, 6830 words have two pronunciations, and 839 words have',
      'three or more pronunciations. Many of these are fast-speech variants.',
      'Phonemes: There are 39 phonemes, as shown below:',
      'Phoneme Example Translation Phoneme Example Translation',
      'AA odd AA D AE at AE T AH hut HH AH T AO ought AO T AW cow K AW AY hide HH AY D B be B IY',
      'CH cheese CH IY Z D dee D IY DH thee DH IY EH Ed EH D ER hurt HH ER T EY ate EY T F fee F IY',
      'G green G R IY N HH he HH IY IH it IH T IY eat IY T JH gee JH IY K key K IY L lee L IY',
    ].join('\n');
    // Function words are under a tenth of its words, where English prose has a fifth; the library reads it as Turkish.
    expect(detect(page)).not.toBe('en');
    expect(guessLanguage(page)).toBe('en');
  });

  it('leaves the language unknown where the library is unsure: an index of names, a listing without prose', () => {
    const index = [
      'N() (toolkit.lm.counter.NgramCounter method)',
      '(toolkit.lm.NgramCounter method)',
      '(toolkit.metrics.agreement.AnnotationTask method)',
      '(toolkit.probability.ConditionalFreqDist method)',
      '(toolkit.probability.FreqDist method)',
      'n_ary() (toolkit.sem.Relation method)',
      'name (toolkit.corpus.Node attribute)',
      'named_entities() (toolkit.tag.Tagger method)',
    ].join('\n');
    const modules = ['All modules for which code is available', 'namedtuple_Image', 'namedtuple_Link', 'namedtuple_PhraseTableEntry', 'toolkit']
      .concat(['chartparser', 'chunkparser', 'collocations', 'concordance', 'nemo', 'rdparser', 'srparser', 'wordfreq', 'wordnet'].map((app) => `toolkit.app.${app}_app`))
      .concat(['api', 'chart', 'combinator', 'lexicon', 'logic'].map((part) => `toolkit.ccg.${part}`))
      .join('\n');
    for (const text of [index, modules]) {
      // The library answers a language of Europe, under 5 % sure of it.
      const [best] = detectAll(text);
      expect(best!.lang).not.toBe('en');
      expect(best!.accuracy).toBeLessThan(0.05);
      expect(guessLanguage(text)).toBeNull();
    }
  });

  it('answers no language written in a script the sample does not use: an index of letters is not Hindi', () => {
    const letters = `Module Index\n\n${'abcdfghijlmprstuw'.split('').join(' | ')}`;
    expect(detect(letters)).toBe('hi');
    expect(guessLanguage(letters)).toBeNull();
    // The scripts' own languages are still read as themselves.
    expect(guessLanguage('新しいコーヒーメーカーは本日から店頭で販売され、前のモデルよりも安い価格で購入できます。詳しくは販売店にお問い合わせください。')).toBe('ja');
    expect(guessLanguage('Новая кофеварка уже продаётся в магазинах и стоит дешевле, чем предыдущая модель этой марки.')).toBe('ru');
  });

  it('answers as the library does where English function words are rare: a code listing', () => {
    const listing = Array.from({ length: 40 }, (_, i) => `inet_ops${i} cidr_ops${i} macaddr${i}`).join(' ') + ' the and of';
    expect(guessLanguage(listing)).toBe(detect(listing) || null);
  });
});
