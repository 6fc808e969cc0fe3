// The web pages' words, in English and German, from ONE dictionary per language: the message
// catalogues of stud.text (src/stud/text/en.json and de.json, served at /i18n/{lang}.json), the
// same that the terminal and the hand histories speak from. The server sends facts (why a seat
// acts first, what a hand is worth, how a pot was split); the functions here put them into words
// with the same keys and templates as stud.text's Python renderer. Nothing here reads English.
// Every page imports this module; tests may call the same functions through window.studI18n.

const STORAGE_KEY = "stud.lang";
export const LANGS = ["en", "de"];

async function loadCatalogue(l) {
  try {
    const response = await fetch(`/i18n/${l}.json`, { headers: { Accept: "application/json" } });
    if (response.ok) return await response.json();
  } catch {
    // without its words a page still works: it shows the keys
  }
  return {};
}

const CATALOGUES = Object.fromEntries(
  await Promise.all(LANGS.map(async (l) => [l, await loadCatalogue(l)])));

// ------------------------------------------------------------------ the language

const listeners = new Set();

function storedLang() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The page's language: the remembered choice, else the browser's (de* → German), else English. */
export function lang() {
  const stored = storedLang();
  if (LANGS.includes(stored)) return stored;
  const browser = (navigator.languages && navigator.languages[0]) || navigator.language || "";
  return browser.toLowerCase().startsWith("de") ? "de" : "en";
}

function announce(value) {
  document.documentElement.lang = value;
  for (const listener of listeners) listener(value);
}

export function setLang(value) {
  if (!LANGS.includes(value)) throw new Error(`unknown language ${value}: use en or de`);
  try {
    localStorage.setItem(STORAGE_KEY, value);
  } catch {
    // a browser without storage still switches for this page
  }
  announce(value);
}

/** Calls listener(lang) after every switch; the pages re-render with it. */
export function onLangChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab (the rules page, say) may switch the language too.
window.addEventListener("storage", (event) => {
  if (event.key === STORAGE_KEY && LANGS.includes(event.newValue)) announce(event.newValue);
});

/** Whether the language has text for `key`. */
export function has(key, l = lang()) {
  return key in (CATALOGUES[l] || {});
}

/** A refusal's words from its facts ({code, message}, as the server sends them). An English
 * page says the server's own words, which name the facts (which seat, by whom, how long to
 * wait, what is legal instead), as a sentence; any other page the catalogue's sentence for the
 * code, or a plain "refused" for a code without one. */
export function refusalText(code, message = "", l = lang()) {
  if (l === "en" && message) return message.charAt(0).toUpperCase() + message.slice(1);
  if (code && has(`error.${code}`, "en")) return t(`error.${code}`, {}, l);
  return t("error.refused", {}, l);
}

/** The text of `key` in the language, its {name} placeholders filled from params (as Python's
 * str.format fills them in stud.text). */
export function t(key, params = {}, l = lang()) {
  const table = CATALOGUES[l] || {};
  const text = key in table ? table[key] : (CATALOGUES.en[key] ?? key);
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whole chips with the language's thousands separator: 10,000 / 10.000. */
export function chips(amount, l = lang()) {
  if (amount === null || amount === undefined) return "";
  return new Intl.NumberFormat(l === "de" ? "de-DE" : "en-US").format(amount);
}

/** "Third street" from "third street": the first letter of a heading in capitals. */
export function capitalized(text) {
  return text ? text[0].toLocaleUpperCase() + text.slice(1) : "";
}

// ------------------------------------------------------------------ cards

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };

/** A card string ("Td") as it is read: rank ("10") and suit symbol; red for hearts, diamonds. */
export function cardParts(card) {
  const rank = card[0] === "T" ? "10" : card[0];
  const suit = card[1];
  return { rank, suit: SUITS[suit] || suit, red: suit === "h" || suit === "d", letter: suit };
}

/** "K♦" for a card string, "🂠" for a hidden one. */
export function cardText(card) {
  if (!card) return "🂠";
  const { rank, suit } = cardParts(card);
  return rank + suit;
}

const SUIT_NAMES = { s: "ui.suit_s", h: "ui.suit_h", d: "ui.suit_d", c: "ui.suit_c" };

/** A card in words, as a screen reader says it: "Four of spades", "Pik Vier"; with `down`, a
 * down card this reader may see ("..., face down"); a hidden card (null) is "face-down card". */
export function cardName(card, { down = false } = {}, l = lang()) {
  if (!card) return t("ui.card_face_down", {}, l);
  const rank = card[0];
  const name = t("ui.card_name", { rank: t(`rank.${rank}`, {}, l),
    suit: t(SUIT_NAMES[card[1]], {}, l) }, l);
  return down ? t("ui.card_name_down", { card: name }, l) : name;
}

const cardsText = (cards) => (cards || []).map(cardText).join(" ");

// ------------------------------------------------------------------ facts into words
// Each function below is the twin of a method of stud.text.Words, with the same keys.

const seatWord = (l) => (seat) => t("seat", { seat }, l);

/** A rank as the cards show it ("10" for the ten). */
function rankChar(rank, l) {
  return has(`short_rank.${rank}`, l) ? t(`short_rank.${rank}`, {}, l) : rank;
}

/** {r1}, {p1}, {r2}, {p2}: the first two ranks and their plurals; {ranks}: all, as "8-6-4-2-A". */
function rankParams(ranks, l) {
  const params = {};
  (ranks || []).slice(0, 2).forEach((rank, k) => {
    params[`r${k + 1}`] = t(`rank.${rank}`, {}, l);
    params[`p${k + 1}`] = t(`ranks.${rank}`, {}, l);
  });
  params.ranks = (ranks || []).map((rank) => rankChar(rank, l)).join("-");
  return params;
}

/** A hand's name from its value ({kind, category, ranks}): "Full House, Kings over Fours". */
export function handText(value, l = lang()) {
  if (!value) return "";
  const key = value.kind === "a5" && value.category !== "low"
    ? `hand.a5.${value.category}` : `hand.${value.category}`;
  return t(key, rankParams(value.ranks, l), l);
}

/** What up cards show ({category, ranks, lowball}): "a pair of Kings", "6-4-A low". */
export function showingText(showing, l = lang()) {
  if (!showing) return "";
  const key = showing.category === "high_card" && showing.lowball
    ? "showing.low" : `showing.${showing.category}`;
  return t(key, rankParams(showing.ranks, l), l);
}

/** Why a seat acts first, naming it with name(seat): "Ann acts first: best up cards, a pair of
 * Kings"; with what follows from it (an all-in seat skipped, a tie, an open pair). */
export function firstToAct(why, name = null, l = lang()) {
  if (!why) return "";
  const who = name || seatWord(l);
  if (why.opener === "no_betting") return t("first.no_betting", {}, l);
  const decider = why.decider !== null && why.decider !== undefined ? who(why.decider) : "";
  let text;
  if (why.opener === "low_card" || why.opener === "high_card") {
    text = t(`first.${why.opener}`, { decider, card: cardsText(why.cards) }, l);
  } else if (why.opener === "sixth_street") {
    text = t("first.sixth_street", { decider }, l);
  } else {
    const key = why.showing && why.showing.lowball ? "first.best_hand.lowball" : "first.best_hand";
    text = t(key, { decider, showing: showingText(why.showing, l) }, l);
  }
  const parts = [text];
  if (why.tie) parts.push(t("first.tie", { rule: t("first.tie.seat", {}, l) }, l));
  if ((why.decider_all_in || why.decider_folded) && why.seat !== null && why.seat !== undefined) {
    const key = why.decider_folded ? "first.folded"
      : why.street === 3 ? "first.all_in.bring_in" : "first.all_in";
    parts.push(t(key, { decider, seat: who(why.seat) }, l));
  }
  if (why.open_pair) parts.push(t("first.open_pair", {}, l));
  return parts.join("; ");
}

/** "third street" from a street number (3..7). */
export function streetName(street, l = lang()) {
  return has(`street.${street}`, l) ? t(`street.${street}`, {}, l) : String(street ?? "");
}

/** An action as a button says it, with its amount: "complete to 2", "Erhöhen auf 8"; a call
 * says the chips it adds (`adds`, from the frame's legal entry), and what it calls to when the
 * seat has chips in already: "call 4 (to 12)", as the terminal's menu says it. */
export function actionLabel(action, to, l = lang(), adds = null) {
  if (action === "call" && adds !== null && adds !== undefined) {
    return t(adds === to ? "play.call" : "play.call.to",
      { added: chips(adds, l), to: chips(to, l) }, l);
  }
  return t(`action.${action}`, { to: chips(to, l) }, l);
}

/** An action taken (an "action" event), as the hand log tells it: "Ann completes to 5". */
export function takenText(event, who, l = lang()) {
  if (event.action === "show" || event.action === "muck") {
    return t(`did.${event.action}`, { who, cards: "" }, l);
  }
  const text = t(`did.${event.action}`, { who, to: chips(event.to, l), added: chips(event.added, l) }, l);
  return event.all_in ? t("did.all_in", { text }, l) : text;
}

/** "the main pot", "side pot 1". */
export function potName(index, l = lang()) {
  return index === 0 ? t("pot.main", {}, l) : t("pot.side", { index }, l);
}

/** What won a pot or half (an award's facts): a hand's name, "... and ... (scoop)"; with
 * `withNoLow`, "...; no low, so the high hand takes the whole pot" when no low qualified. */
export function awardHand(award, { withNoLow = true } = {}, l = lang()) {
  if (award.high && award.low) { // a scoop is one player's: hands tied for both halves share
    const key = award.shares.length === 1 ? "award.scoop" : "award.both";
    return t(key, { high: handText(award.high, l), low: handText(award.low, l) }, l);
  }
  if (award.high) {
    const text = handText(award.high, l);
    return award.no_low && withNoLow ? t("award.no_low", { hand: text }, l) : text;
  }
  if (award.low) return handText(award.low, l);
  return award.no_low ? t("award.low_unclaimed", {}, l) : "";
}

/** One line per winner of an award: "Ann wins 40 from the main pot (high) with ...". */
export function awardLines(award, name = null, l = lang()) {
  const who = name || seatWord(l);
  const pot = potName(award.pot, l);
  const half = award.half === "high" || award.half === "low" ? t(`pot.half.${award.half}`, {}, l) : "";
  return (award.shares || []).map(([seat, amount]) => (award.uncontested
    ? t("award.uncontested", { who: who(seat), chips: chips(amount, l), pot }, l)
    : t("award.won", { who: who(seat), chips: chips(amount, l), pot, half,
      hand: awardHand(award, {}, l) }, l)));
}

function listing(items, l) {
  if (items.length < 2) return items.join("");
  return t("list.and", { rest: items.slice(0, -1).join(", "), last: items[items.length - 1] }, l);
}

/** Who got the odd chips of a split, and by which rule; "" when it divided evenly. */
export function oddChipsText(award, name = null, l = lang()) {
  const odd = award.odd;
  if (!odd) return "";
  const who = name || seatWord(l);
  const rule = odd.by === "suit" && (award.half === "low" || !award.high)
    ? "odd_chip.suit.low" : `odd_chip.${odd.by}`;
  const seats = listing((odd.seats || []).map(who), l);
  return odd.chips === 1
    ? t("award.odd_chip", { seats, rule: t(rule, {}, l) }, l)
    : t("award.odd_chips", { chips: odd.chips, seats, rule: t(rule, {}, l) }, l);
}

// ------------------------------------------------------------------ the table's words

export function variantTitle(variant, fallback = "", l = lang()) {
  return has(`variant.${variant}`, l) ? t(`variant.${variant}`, {}, l) : fallback || variant || "";
}

/** "2/4, ante 1, bring-in 1" from a table's stakes. */
export function stakesText(stakes, l = lang()) {
  if (!stakes) return "";
  return t("ui.stakes_text", {
    small: chips(stakes.small_bet, l), big: chips(stakes.big_bet, l),
    ante: chips(stakes.ante, l), bring_in: chips(stakes.bring_in, l),
  }, l);
}

// ------------------------------------------------------------------ the switch

/** Marks the pressed button of an EN/DE switch. */
export function paintSwitch(box) {
  for (const button of box.querySelectorAll("button")) {
    const on = button.dataset.lang === lang();
    button.classList.toggle("on", on);
    button.setAttribute("aria-pressed", String(on));
  }
}

/** The EN/DE switch (data-testid="lang-switch"): switching re-renders through onLangChange. */
export function langSwitch() {
  const box = document.createElement("div");
  box.className = "lang-switch";
  box.dataset.testid = "lang-switch";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "Language / Sprache");
  for (const l of LANGS) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.lang = l;
    button.dataset.testid = `lang-${l}`;
    button.textContent = l.toUpperCase();
    button.addEventListener("click", () => setLang(l));
    box.append(button);
  }
  onLangChange(() => paintSwitch(box));
  paintSwitch(box);
  return box;
}

/** Fills every [data-i18n] element under root with its string (static parts of the pages). */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  document.documentElement.lang = lang();
}

window.studI18n = {
  lang, setLang, onLangChange, has, t, refusalText, chips, capitalized, cardText, cardName, handText,
  showingText,
  firstToAct, streetName, actionLabel, takenText, potName, awardHand, awardLines, oddChipsText,
  variantTitle, stakesText,
};
