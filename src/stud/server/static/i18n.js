// The web table's words in English and German, and the translation of what the engine names in
// English (hand names, streets, actions, reasons). Every page imports this module; tests may call
// the same functions through window.studI18n.

const STORAGE_KEY = "stud.lang";
export const LANGS = ["en", "de"];

const STRINGS = {
  en: {
    brand: "stud",
    lobby_title: "Seven Card Stud tables",
    tables: "Tables",
    no_tables: "No tables yet. Open one below.",
    col_name: "Table",
    col_game: "Game",
    col_stakes: "Stakes",
    col_seats: "Seats",
    col_hph: "Hands/hour",
    open_table: "Open",
    create_title: "Open a table",
    field_name: "Name",
    field_variant: "Game",
    field_small_bet: "Small bet",
    field_seats: "Seats",
    field_clock: "Clock (s per action)",
    field_rules: "Rules profile",
    rules_standard: "standard",
    rules_pokerkit: "pokerkit",
    create_submit: "Open table",
    default_table_name: "{nickname}'s table",
    nickname: "Nickname",
    nickname_placeholder: "Pick a nickname",
    nickname_submit: "Play",
    playing_as: "Playing as {nickname} · wallet {wallet}",
    need_account: "Pick a nickname first.",
    stakes_text: "{small}/{big}, ante {ante}, bring-in {bring_in}",
    seats_taken: "{taken}/{seats}",
    rules_link: "Rules",
    lobby_link: "Lobby",
    loading: "Loading…",
    connecting: "Connecting…",
    reconnecting: "Connection lost — reconnecting…",
    network_error: "The server could not be reached.",
    // table
    seat_n: "Seat {seat}",
    card_face_down: "face-down card",
    card_down: "down",
    sit_here: "Sit here",
    add_bot: "Add bot",
    remove_bot: "Remove",
    remove_bot_title: "Remove this bot",
    sit_out: "Sit out",
    sit_in: "Sit in",
    leave: "Leave",
    bot: "bot",
    you: "you",
    sitting_out: "sitting out",
    leaving: "leaving",
    disconnected: "disconnected",
    folded: "folded",
    all_in: "all-in",
    bring_in_mark: "bring-in",
    first_mark: "acts first",
    to_act_mark: "to act",
    buy_in_title: "Sit in seat {seat}",
    buy_in_label: "Buy-in",
    buy_in_hint: "From {min} to {max} chips · wallet {wallet}",
    add_chips: "Add chips",
    rebuy_title: "Add chips to seat {seat}",
    rebuy_hint: "A stack holds at most {max} chips · wallet {wallet}",
    sit_confirm: "Sit down",
    cancel: "Cancel",
    choose_bot: "A bot for seat {seat}",
    bot_random: "Random: any legal action",
    bot_station: "Calling station: calls everything",
    bot_strength: "Strength: bets its made hand",
    bot_expert: "Expert: stud charts and board reading",
    bot_equity: "Equity: Monte Carlo against what it sees",
    pot: "Pot {amount}",
    main_pot: "Main pot {amount}",
    side_pot: "Side pot {index}: {amount}",
    street_bets: "Bets this street: {amount}",
    hand_no: "Hand #{number}",
    waiting_players: "Waiting for players",
    next_hand: "The next hand starts soon",
    your_turn: "Your turn",
    watching: "You are watching: take a free seat to play.",
    watching_no_account: "You are watching: pick a nickname, then a free seat, to play.",
    waiting_for: "Waiting for {name}",
    seconds: "{s}s",
    community: "Community card",
    showdown: "Showdown",
    last_showdown: "Last hand #{number}",
    high: "High",
    low: "Low",
    wins: "wins",
    scoop: "Scoop",
    no_low: "No low: the high hand takes the whole pot",
    uncontested: "uncontested",
    net: "Result",
    mucked: "mucked",
    hand_log: "Hand log",
    no_events: "No hand in play.",
    last_hands: "Last hands",
    no_last_hands: "No finished hands yet.",
    download_phh: "PHH",
    voided: "voided",
    rules_label: "Rules",
    // actions, for buttons (lower case on purpose; the CSS capitalises the first letter)
    act_fold: "fold",
    act_check: "check",
    act_call: "call {to}",
    act_bring_in: "bring in {to}",
    act_complete: "complete to {to}",
    act_bet: "bet {to}",
    act_raise: "raise to {to}",
    act_show: "show",
    act_muck: "muck",
    // the hand log
    log_ante: "{name} posts the ante {amount}",
    log_all_in: " and is all-in",
    log_board: "Community card: {card}",
    log_street: "— {street} —",
    log_first: "{name} acts first ({reason})",
    log_fold: "{name} folds",
    log_check: "{name} checks",
    log_call: "{name} calls {to}",
    log_bring_in: "{name} brings in {to}",
    log_complete: "{name} completes to {to}",
    log_bet: "{name} bets {to}",
    log_raise: "{name} raises to {to}",
    log_show: "{name} shows",
    log_muck: "{name} mucks",
    log_returned: "{amount} returned to {name} (not called)",
    log_uncontested: " (uncontested)",
    voided_text: "The hand was cut off when the server stopped; every player got their starting stack back.",
    log_shown: "{name} shows {cards}: {hands}",
    log_mucked: "{name} mucks",
    log_pot: "{name} wins {chips} from the {pot}{half}",
    log_pot_main: "main pot",
    log_pot_side: "side pot {index}",
    log_half_high: " (high)",
    log_half_low: " (low)",
    log_half_all: "",
    log_with: " with {hand}",
    log_end: "Hand #{number} is over.",
    variant_stud: "Seven Card Stud",
    variant_stud8: "Seven Card Stud Hi/Lo (8 or better)",
    variant_razz: "Razz",
    street_3: "Third street",
    street_4: "Fourth street",
    street_5: "Fifth street",
    street_6: "Sixth street",
    street_7: "Seventh street",
    error_prefix: "",
  },
  de: {
    brand: "stud",
    lobby_title: "Seven-Card-Stud-Tische",
    tables: "Tische",
    no_tables: "Noch keine Tische. Eröffne unten einen.",
    col_name: "Tisch",
    col_game: "Spiel",
    col_stakes: "Limits",
    col_seats: "Plätze",
    col_hph: "Hände/Stunde",
    open_table: "Öffnen",
    create_title: "Tisch eröffnen",
    field_name: "Name",
    field_variant: "Spiel",
    field_small_bet: "Kleiner Einsatz",
    field_seats: "Plätze",
    field_clock: "Uhr (s pro Aktion)",
    field_rules: "Regelprofil",
    rules_standard: "Standard",
    rules_pokerkit: "PokerKit",
    create_submit: "Tisch eröffnen",
    default_table_name: "Tisch von {nickname}",
    nickname: "Spielername",
    nickname_placeholder: "Wähle einen Spielernamen",
    nickname_submit: "Spielen",
    playing_as: "Du spielst als {nickname} · Guthaben {wallet}",
    need_account: "Wähle zuerst einen Spielernamen.",
    stakes_text: "{small}/{big}, Ante {ante}, Bring-In {bring_in}",
    seats_taken: "{taken}/{seats}",
    rules_link: "Regeln",
    lobby_link: "Lobby",
    loading: "Lädt…",
    connecting: "Verbinde…",
    reconnecting: "Verbindung verloren — verbinde neu…",
    network_error: "Der Server ist nicht erreichbar.",
    seat_n: "Platz {seat}",
    card_face_down: "verdeckte Karte",
    card_down: "verdeckt",
    sit_here: "Hier setzen",
    add_bot: "Bot hinzufügen",
    remove_bot: "Entfernen",
    remove_bot_title: "Diesen Bot entfernen",
    sit_out: "Aussetzen",
    sit_in: "Wieder mitspielen",
    leave: "Aufstehen",
    bot: "Bot",
    you: "du",
    sitting_out: "setzt aus",
    leaving: "geht",
    disconnected: "getrennt",
    folded: "gepasst",
    all_in: "all-in",
    bring_in_mark: "Bring-In",
    first_mark: "beginnt",
    to_act_mark: "am Zug",
    buy_in_title: "Auf Platz {seat} setzen",
    buy_in_label: "Buy-In",
    buy_in_hint: "Von {min} bis {max} Chips · Guthaben {wallet}",
    add_chips: "Chips nachkaufen",
    rebuy_title: "Chips nachkaufen für Platz {seat}",
    rebuy_hint: "Höchstens {max} Chips am Platz · Guthaben {wallet}",
    sit_confirm: "Hinsetzen",
    cancel: "Abbrechen",
    choose_bot: "Ein Bot für Platz {seat}",
    bot_random: "Zufall: irgendeine erlaubte Aktion",
    bot_station: "Calling Station: geht immer mit",
    bot_strength: "Stärke: setzt mit fertiger Hand",
    bot_expert: "Experte: Stud-Tabellen und offene Karten",
    bot_equity: "Equity: Monte Carlo gegen das Sichtbare",
    pot: "Pot {amount}",
    main_pot: "Hauptpot {amount}",
    side_pot: "Nebenpot {index}: {amount}",
    street_bets: "Einsätze dieser Straße: {amount}",
    hand_no: "Hand Nr. {number}",
    waiting_players: "Warte auf Spieler",
    next_hand: "Die nächste Hand beginnt gleich",
    your_turn: "Du bist am Zug",
    watching: "Du schaust zu: setz dich auf einen freien Platz, um mitzuspielen.",
    watching_no_account: "Du schaust zu: wähle einen Spielernamen und einen freien Platz, um mitzuspielen.",
    waiting_for: "Warte auf {name}",
    seconds: "{s} s",
    community: "Gemeinschaftskarte",
    showdown: "Showdown",
    last_showdown: "Letzte Hand Nr. {number}",
    high: "High",
    low: "Low",
    wins: "gewinnt",
    scoop: "Scoop",
    no_low: "Kein Low: die High-Hand bekommt den ganzen Pot",
    uncontested: "ohne Showdown",
    net: "Ergebnis",
    mucked: "weggeworfen",
    hand_log: "Handverlauf",
    no_events: "Keine Hand im Spiel.",
    last_hands: "Letzte Hände",
    no_last_hands: "Noch keine beendeten Hände.",
    download_phh: "PHH",
    voided: "annulliert",
    rules_label: "Regeln",
    act_fold: "Passen",
    act_check: "Checken",
    act_call: "Mitgehen {to}",
    act_bring_in: "Bring-In {to}",
    act_complete: "Komplettieren auf {to}",
    act_bet: "Setzen {to}",
    act_raise: "Erhöhen auf {to}",
    act_show: "Zeigen",
    act_muck: "Wegwerfen",
    log_ante: "{name} setzt die Ante {amount}",
    log_all_in: " und ist all-in",
    log_board: "Gemeinschaftskarte: {card}",
    log_street: "— {street} —",
    log_first: "{name} beginnt ({reason})",
    log_fold: "{name} passt",
    log_check: "{name} checkt",
    log_call: "{name} geht mit auf {to}",
    log_bring_in: "{name} bringt {to} ein (Bring-In)",
    log_complete: "{name} komplettiert auf {to}",
    log_bet: "{name} setzt {to}",
    log_raise: "{name} erhöht auf {to}",
    log_show: "{name} zeigt",
    log_muck: "{name} wirft weg",
    log_returned: "{name} bekommt {amount} zurück (nicht gecallt)",
    log_uncontested: " (ohne Showdown)",
    voided_text: "Die Hand wurde abgebrochen, als der Server stoppte; jeder Spieler bekam seinen Stack vom Beginn der Hand zurück.",
    error_bad_json: "Die Nachricht war kein gültiges JSON.",
    error_bad_message: "Die Nachricht war unvollständig oder fehlerhaft.",
    error_no_account: "Wähle zuerst einen Spielernamen.",
    error_not_seated: "Du hast an diesem Tisch keinen Platz.",
    error_seat_taken: "Dieser Platz ist schon besetzt.",
    error_no_such_seat: "Diesen Platz gibt es nicht.",
    error_already_seated: "Du sitzt an diesem Tisch schon.",
    error_bad_buy_in: "Dieser Betrag ist nicht erlaubt.",
    error_wallet_short: "Dein Guthaben reicht dafür nicht.",
    error_in_hand: "Du spielst gerade eine Hand; Chips nachkaufen geht erst danach.",
    error_not_your_turn: "Du bist nicht am Zug.",
    error_stale_hand: "Diese Hand ist schon vorbei.",
    error_illegal_action: "Diese Aktion ist gerade nicht erlaubt.",
    log_shown: "{name} zeigt {cards}: {hands}",
    log_mucked: "{name} wirft weg",
    log_pot: "{name} gewinnt {chips} aus dem {pot}{half}",
    log_pot_main: "Hauptpot",
    log_pot_side: "Nebenpot {index}",
    log_half_high: " (High)",
    log_half_low: " (Low)",
    log_half_all: "",
    log_with: " mit {hand}",
    log_end: "Hand Nr. {number} ist beendet.",
    variant_stud: "Seven Card Stud",
    variant_stud8: "Seven Card Stud Hi/Lo (8 oder besser)",
    variant_razz: "Razz",
    street_3: "3. Straße",
    street_4: "4. Straße",
    street_5: "5. Straße",
    street_6: "6. Straße",
    street_7: "7. Straße",
    error_prefix: "",
  },
};

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

export function setLang(value) {
  if (!LANGS.includes(value)) throw new Error(`unknown language ${value}: use en or de`);
  try {
    localStorage.setItem(STORAGE_KEY, value);
  } catch {
    // a browser without storage still switches for this page
  }
  document.documentElement.lang = value;
  for (const listener of listeners) listener(value);
}

/** Calls listener(lang) after every switch; the pages re-render with it. */
export function onLangChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Lets another page (the rules page) bring its own strings: {en: {...}, de: {...}}. */
export function addStrings(more) {
  for (const l of LANGS) Object.assign(STRINGS[l], more[l] || {});
}

/** The string `key` in the language, with {name} placeholders filled from params. */
export function t(key, params = {}, l = lang()) {
  const table = STRINGS[l] || STRINGS.en;
  const text = key in table ? table[key] : (STRINGS.en[key] ?? key);
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether the language has its own text for `key`. */
export function hasText(key, l = lang()) {
  return key in (STRINGS[l] || {});
}

/** Whole chips with the language's thousands separator: 10,000 / 10.000. */
export function chips(amount, l = lang()) {
  if (amount === null || amount === undefined) return "";
  return new Intl.NumberFormat(l === "de" ? "de-DE" : "en-US").format(amount);
}

// ------------------------------------------------------------------ poker words

const RANKS = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
  "Queen", "King", "Ace"];
const RANK_PLURALS = ["Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines",
  "Tens", "Jacks", "Queens", "Kings", "Aces"];
const DE_RANKS = ["Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Acht", "Neun", "Zehn",
  "Bube", "Dame", "König", "Ass"];
const DE_RANK_PLURALS = ["Zweien", "Dreien", "Vieren", "Fünfen", "Sechsen", "Siebenen", "Achten",
  "Neunen", "Zehnen", "Buben", "Damen", "Könige", "Asse"];

const deRank = (word) => (RANKS.includes(word) ? DE_RANKS[RANKS.indexOf(word)] : word);
const dePlural = (word) =>
  RANK_PLURALS.includes(word) ? DE_RANK_PLURALS[RANK_PLURALS.indexOf(word)] : word;

// The engine's name templates (stud.evaluate.names), each with its German form.
const DE_HAND_NAMES = [
  [/^Royal Flush$/, () => "Royal Flush"],
  [/^Straight Flush, (\w+) high$/, (m) => `Straight Flush, ${deRank(m[1])} hoch`],
  [/^Four of a Kind, (\w+)$/, (m) => `Vierling, ${dePlural(m[1])}`],
  [/^Full House, (\w+) over (\w+)$/, (m) => `Full House, ${dePlural(m[1])} über ${dePlural(m[2])}`],
  [/^Flush, (\w+) high$/, (m) => `Flush, ${deRank(m[1])} hoch`],
  [/^Straight, (\w+) high$/, (m) => `Straße, ${deRank(m[1])} hoch`],
  [/^Three of a Kind, (\w+)$/, (m) => `Drilling, ${dePlural(m[1])}`],
  [/^Two Pair, (\w+) and (\w+)$/, (m) => `Zwei Paare, ${dePlural(m[1])} und ${dePlural(m[2])}`],
  [/^Pair of (\w+)$/, (m) => `Ein Paar, ${dePlural(m[1])}`],
  [/^High Card, (\w+)$/, (m) => `Höchste Karte, ${deRank(m[1])}`],
  [/^([2-9TJQKA](?:-[2-9TJQKA]){4}) low$/, (m) => `${m[1]} Low`],
  [/^no low$/, () => "kein Low"],
  // razz: a hand that could not avoid pairing, with its five ranks
  [/^One Pair \((.+)\)$/, (m) => `Ein Paar (${m[1]})`],
  [/^Two Pair \((.+)\)$/, (m) => `Zwei Paare (${m[1]})`],
  [/^Three of a Kind \((.+)\)$/, (m) => `Drilling (${m[1]})`],
  [/^Full House \((.+)\)$/, (m) => `Full House (${m[1]})`],
  [/^Four of a Kind \((.+)\)$/, (m) => `Vierling (${m[1]})`],
];

/** A hand name from the engine ("Full House, Kings over Fours") in the language. Names the
 * engine does not make come back unchanged. */
export function handName(name, l = lang()) {
  if (!name) return "";
  // A pot's name may join two ("high; low" when identical hands scoop) or add ", no low".
  if (name.includes("; ")) return name.split("; ").map((part) => handName(part, l)).join("; ");
  if (name.endsWith(", no low")) {
    return `${handName(name.slice(0, -", no low".length), l)}, ${handName("no low", l)}`;
  }
  if (l !== "de") return name;
  if (name === "uncontested") return "ohne Showdown";
  for (const [pattern, make] of DE_HAND_NAMES) {
    const match = pattern.exec(name);
    if (match) return make(match);
  }
  return name;
}

const STREET_NUMBERS = { third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7 };

/** "Third street" / "3. Straße" from a street number (3..7) or the engine's "third street". */
export function streetName(street, l = lang()) {
  let number = street;
  if (typeof street === "string") number = STREET_NUMBERS[street.split(" ")[0].toLowerCase()];
  if (!number) return String(street ?? "");
  return t(`street_${number}`, {}, l);
}

/** The label of a legal action with its amount: "call 4", "complete to 2", "Erhöhen auf 8". */
export function actionLabel(action, to, l = lang()) {
  return t(`act_${action}`, { to: chips(to, l) }, l);
}

export function variantTitle(variant, fallback = "", l = lang()) {
  const key = `variant_${variant}`;
  return key in STRINGS.en ? t(key, {}, l) : fallback || variant || "";
}

/** "2/4, ante 1, bring-in 1" from a table's stakes. */
export function stakesText(stakes, l = lang()) {
  if (!stakes) return "";
  return t("stakes_text", {
    small: chips(stakes.small_bet, l), big: chips(stakes.big_bet, l),
    ante: chips(stakes.ante, l), bring_in: chips(stakes.bring_in, l),
  }, l);
}

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };

/** A card string ("Td") as it is read: rank ("10") and suit symbol; red for hearts, diamonds. */
export function cardParts(card) {
  const rank = card[0] === "T" ? "10" : card[0];
  const suit = card[1];
  return { rank, suit: SUITS[suit] || suit, red: suit === "h" || suit === "d", letter: suit };
}

/** "K♦" for a card string, "??" for a hidden one. */
export function cardText(card) {
  if (!card) return "🂠";
  const { rank, suit } = cardParts(card);
  return rank + suit;
}

// The engine's reasons for who acts first (stud.engine.hand), piece by piece.
const DE_REASONS = [
  [/^bring-in: lowest up card (\S+)/, (m) => `Bring-In: niedrigste offene Karte ${m[1]}`],
  [/^bring-in: highest up card (\S+)/, (m) => `Bring-In: höchste offene Karte ${m[1]}`],
  [/, all in from the ante; seat (\d+) acts first/, (m) => `, mit der Ante all-in; Platz ${m[1]} beginnt`],
  [/^best up cards/, () => "beste offene Karten"],
  [/^lowest up cards/, () => "niedrigste offene Karten"],
  [/ \(seat (\d+), all in; next to the left acts\)/,
    (m) => ` (Platz ${m[1]} ist all-in; der Nächste links beginnt)`],
  [/; open pair: the big bet is allowed/, () => "; offenes Paar: der große Einsatz ist erlaubt"],
  [/^no betting: at most one player has chips/,
    () => "keine Setzrunde: höchstens ein Spieler hat noch Chips"],
];

/** Why a seat acts first, in the language, with card symbols ("lowest up card 2♣"). */
export function reasonText(reason, l = lang()) {
  if (!reason) return "";
  let text = reason;
  if (l === "de") {
    for (const [pattern, make] of DE_REASONS) text = text.replace(pattern, (...m) => make(m));
  }
  return text.replace(/\b([2-9TJQKA])([shdc])\b/g, (whole, r, s) => cardText(r + s));
}

// ------------------------------------------------------------------ the switch

/** The EN/DE switch (data-testid="lang-switch"): switching re-renders through onLangChange. */
export function langSwitch() {
  const box = document.createElement("div");
  box.className = "lang-switch";
  box.dataset.testid = "lang-switch";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", "Language / Sprache");
  const paint = () => {
    for (const button of box.querySelectorAll("button")) {
      const on = button.dataset.lang === lang();
      button.classList.toggle("on", on);
      button.setAttribute("aria-pressed", String(on));
    }
  };
  for (const l of LANGS) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.lang = l;
    button.dataset.testid = `lang-${l}`;
    button.textContent = l.toUpperCase();
    button.addEventListener("click", () => setLang(l));
    box.append(button);
  }
  onLangChange(paint);
  paint();
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
  lang, setLang, onLangChange, addStrings, t, chips, handName, streetName, actionLabel,
  variantTitle, stakesText, reasonText, cardText,
};
