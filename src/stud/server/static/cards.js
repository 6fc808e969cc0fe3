// Drawing cards, and the small DOM helper every page builds with: shared by the table page, the
// replayer and "your hands". A card is a string ("Td"), null for a card this reader may not see.

import { cardName, cardParts } from "./i18n.js";

/** An element with attributes (class, testid, text, style, on* handlers, ...) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "testid") node.dataset.testid = value;
    else if (key === "text") node.textContent = value;
    else if (key === "style") node.setAttribute("style", value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key.includes("-") || key === "role" || key === "for") node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** One card: face up (`up`), a down card this reader may see (`up` false), or a back (null). */
export function cardNode(card, { up = true, own = false, small = false } = {}) {
  const classes = ["card"];
  if (small) classes.push("small");
  if (!card) {
    classes.push("back");
    return el("div", { class: classes.join(" "), "data-card": "", role: "img",
      "aria-label": cardName(null) });
  }
  const { rank, suit, red, letter } = cardParts(card);
  classes.push(red ? "red" : "black", `suit-${letter}`);
  if (!up) classes.push("down"); // a down card this viewer may see: its own, or shown
  if (own) classes.push("own");
  return el("div", { class: classes.join(" "), "data-card": card, "data-up": String(up),
    role: "img", "aria-label": cardName(card, { down: !up }) },
  el("span", { class: "rank", "aria-hidden": "true", text: rank }),
  el("span", { class: "suit", "aria-hidden": "true", text: suit }),
  el("span", { class: "pip", "aria-hidden": "true", text: suit }));
}

export function cardRow(cards, options = {}) {
  return el("div", { class: "cards" }, cards.map((card) => cardNode(card, options)));
}
