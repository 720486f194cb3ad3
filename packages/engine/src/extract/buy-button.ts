import { textOf, type HTMLElement } from '../html/dom.js';

/**
 * What a shop's buy button says about stock, in the languages shops are written in: a "Sold
 * out" or "Notify me" button means out of stock; a working "Add to cart" means in stock. A
 * disabled add-to-cart button says nothing (many shops disable it until a size is chosen).
 */
const SOLD_OUT =
  /\b(sold out|out of stock|currently unavailable|notify me|email me when (it'?s )?(back|available)|ausverkauft|nicht (lieferbar|verfügbar|vorrätig)|épuisé|rupture de stock|m'avertir|agotado|sin stock|esaurito|non disponibile|uitverkocht|niet (op voorraad|leverbaar)|wyprzedane|brak w magazynie|slutsåld|udsolgt|utsolgt)\b|нет в наличии|品切れ|売り切れ/i;
const BUYABLE =
  /\b(add to (cart|bag|basket|trolley|order)|buy (it )?now|in den (warenkorb|einkaufswagen)|jetzt kaufen|ajouter au panier|añadir al (carrito|cesta)|agregar al carrito|aggiungi al carrello|in (de )?winkelwagen|toevoegen aan winkelwagen|dodaj do koszyka|lägg i varukorgen|læg i kurv|legg i handlekurv(en)?)\b|в корзину|カートに入れる/i;

const BUTTONS = 'button, input[type=submit], input[type=button], a[role=button], [class*="add-to-cart"], [class*="addtocart"], [class*="add-to-bag"], [id*="add-to-cart"], [id*="addToCart"]';

export function buyButtonState(root: HTMLElement): 'InStock' | 'OutOfStock' | null {
  let buyable = false;
  for (const el of root.querySelectorAll(BUTTONS)) {
    const label = (textOf(el) || el.getAttribute('value') || el.getAttribute('aria-label') || '').slice(0, 80);
    if (!label) continue;
    if (SOLD_OUT.test(label)) return 'OutOfStock';
    const disabled = el.getAttribute('disabled') !== undefined && el.getAttribute('disabled') !== null;
    if (!disabled && BUYABLE.test(label)) buyable = true;
  }
  return buyable ? 'InStock' : null;
}
