// The hand replayer: a finished hand (?hand=ID, GET /api/hands/{id}/replay: your own cards if
// you played it, else the public hand) or an uploaded PHH file (POST /api/replays), step by step:
// the table after every deal and action, and each live hand's equity on every street. The server
// sends the steps as facts (stud.history.steps); this page only draws them and words them.

import {
  awardLines, capitalized, cardText, chips, firstToAct, handText, lang, oddChipsText,
  onLangChange, stakesText, streetName, t, takenText, translateStatic, variantTitle,
} from "./i18n.js";
import { cardNode, cardRow, el } from "./cards.js";
import { accountBox, api, fetchMe, mountLangSwitch } from "./lobby.js";

// ?hand=N: a finished hand; anything else there (?hand=abc) is a hand there is not.
const HAND_PARAM = new URLSearchParams(location.search).get("hand");
const HAND_ID = HAND_PARAM === null || HAND_PARAM === "" ? null
  : /^\d+$/.test(HAND_PARAM) ? Number(HAND_PARAM) : HAND_PARAM;
// A hand of a private table opens with the table's invite (?invite=...), passed on to the API.
const INVITE = new URLSearchParams(location.search).get("invite");
const invited = (path) => (INVITE ? `${path}?invite=${encodeURIComponent(INVITE)}` : path);

const view = {
  replay: null, // the replay's JSON
  bundle: null, // of a .phhs opened: {hands, hand}, its hands' names and the one chosen
  index: 0, // the step shown
  // {code, detail, index, line, name} of a refused file (name: the .phhs hand refused), or
  // {hand, status, code, table, number, detail} of a played hand the server does not replay
  error: null,
  loading: false,
};
let uploaded = null; // the text of the file opened last: another of its hands may be asked for

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ reading the replay

const steps = () => (view.replay ? view.replay.steps : []);
const current = () => steps()[view.index] || null;

function player(seat) {
  return view.replay && view.replay.players[seat - 1];
}

function nameOf(seat) {
  const p = player(seat);
  return (p && p.name) || t("ui.replay_unknown_player", { seat });
}

/** The index of the step where the street of step `index` is dealt. */
function streetStart(index) {
  for (let k = index; k >= 0; k -= 1) if (steps()[k].kind === "deal") return k;
  return 0;
}

function move(where) {
  const all = steps();
  if (!all.length) return;
  const last = all.length - 1;
  let k = view.index;
  if (where === "first") k = 0;
  else if (where === "last") k = last;
  else if (where === "next") k = Math.min(last, k + 1);
  else if (where === "prev") k = Math.max(0, k - 1);
  else if (where === "next-street") {
    const next = all.findIndex((s, i) => i > k && s.kind === "deal");
    k = next === -1 ? last : next;
  } else if (where === "prev-street") {
    const start = streetStart(k);
    k = start < k ? start : streetStart(Math.max(0, start - 1));
  }
  show(k);
}

function show(index) {
  view.index = Math.max(0, Math.min(index, steps().length - 1));
  renderStep();
}

const percent = (value) => new Intl.NumberFormat(lang() === "de" ? "de-DE" : "en-US",
  { style: "percent", maximumFractionDigits: 1 }).format(value);

const signed = (amount) => `${amount > 0 ? "+" : ""}${chips(amount)}`;

/** The equity of each seat on the street of the step shown, by seat. */
function streetEquity(step) {
  const street = view.replay.streets.find((s) => s.street === step.street);
  if (!street || step.kind === "awards") return { street, bySeat: new Map() };
  return { street, bySeat: new Map(street.seats.map((e) => [e.seat, e])) };
}

// ------------------------------------------------------------------ the words of a step

function stepText(step) {
  const who = step.seat ? nameOf(step.seat) : "";
  switch (step.kind) {
    case "antes":
      return t("ui.replay_antes", { amount: chips(step.added) });
    case "deal":
      return t("ui.replay_dealt", { street: capitalized(streetName(step.street)) });
    case "action":
      return takenText(step, who);
    case "returned":
      return t("did.uncalled", { who, amount: chips(step.added) });
    case "shown": {
      const names = [step.high && handText(step.high), step.low && handText(step.low)]
        .filter(Boolean).join(", ");
      const seat = step.seats[step.seat - 1];
      const cards = (step.cards.length ? step.cards : seat.cards.map((c) => c.card))
        .map((c) => (c ? cardText(c) : "??")).join(" ");
      return t(names ? "did.show.named" : "did.show", { who, cards, names });
    }
    case "mucked":
      return t("did.muck", { who });
    case "awards": {
      const lines = [];
      for (const award of step.awards || []) {
        lines.push(...awardLines(award, nameOf));
        const odd = oddChipsText(award, nameOf);
        if (odd) lines.push(capitalized(odd));
      }
      return lines.join(" · ") || t("ui.replay_awards");
    }
    default:
      return "";
  }
}

// ------------------------------------------------------------------ the table

/** The seat on the oval, the reader's own at the bottom (as the table page places seats). */
function position(seat, seats, anchor) {
  const step = 360 / seats;
  const angle = ((anchor ? 90 + (seat - anchor) * step : 270 + (seat - 0.5) * step) * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return `--x:${(50 + 39.5 * cos).toFixed(2)}%;--y:${(50 + 38 * sin).toFixed(2)}%;` +
    `--wx:${(-13 * cos).toFixed(2)};--wy:${(-(sin > 0 ? 22 : 13) * sin).toFixed(2)};` +
    `--order:${seat === anchor ? -1 : seat}`;
}

function equityLine(figure, variant) {
  if (!figure) return null;
  const parts = [t("ui.replay_equity", { pct: percent(figure.equity) })];
  if (variant === "stud8") {
    parts.push(`${t("ui.high")} ${percent(figure.high)}`, `${t("ui.low")} ${percent(figure.low)}`);
  }
  return el("div", { class: "replay-seat-equity", testid: `equity-${figure.seat}`,
    "data-equity": figure.equity.toFixed(4) }, parts.join(" · "));
}

function seatNode(step, p, equity) {
  const replay = view.replay;
  const you = replay.you;
  const seats = replay.players.length;
  const winners = new Set((step.awards || []).flatMap((a) => a.shares.map(([s]) => s)));
  const classes = ["seat", "taken"];
  if (p.seat === you) classes.push("me");
  if (p.folded) classes.push("folded");
  if (step.seat === p.seat && step.kind !== "awards") classes.push("acting");
  if (winners.has(p.seat)) classes.push("winner");
  const marks = [];
  const mark = (cls, text) => marks.push(el("span", { class: `mark ${cls}`, text }));
  if (step.kind === "deal" && step.first === p.seat) mark("first", t("ui.first_mark"));
  if (step.kind === "action" && step.action === "bring_in" && step.seat === p.seat) {
    mark("bring-in", t("ui.bring_in_mark"));
  }
  if (p.all_in) mark("all-in", t("ui.all_in"));
  if (p.folded) mark("folded", t("ui.folded"));
  if (p.mucked) mark("folded", t("ui.mucked"));
  const who = player(p.seat);
  const net = step.kind === "awards" ? who.net : null;
  return el("div", { class: classes.join(" "), testid: `seat-${p.seat}`, "data-seat": p.seat,
    "data-table-seat": who.table_seat, style: position(p.seat, seats, you) },
  el("div", { class: "seat-cards cards", "data-count": p.cards.length },
    p.cards.map((c) => cardNode(c.card, { up: c.up, own: p.seat === you && !c.up }))),
  el("div", { class: "plate" },
    el("div", { class: "plate-top" },
      el("span", { class: "seat-no", text: who.table_seat }),
      el("span", { class: "name", text: nameOf(p.seat), title: nameOf(p.seat) }),
      p.seat === you && el("span", { class: "badge you-badge", text: t("ui.you") })),
    el("div", { class: "plate-mid" },
      el("span", { class: "stack", testid: `stack-${p.seat}`, text: chips(p.stack) }),
      net !== null && el("span", { class: `net ${net >= 0 ? "plus" : "minus"}`, text: signed(net) })),
    marks.length > 0 && el("div", { class: "marks" }, marks),
    !p.folded && equityLine(equity.bySeat.get(p.seat), replay.variant),
    p.wager > 0 && step.kind !== "awards" && el("div", { class: "wager", testid: `wager-${p.seat}` },
      el("span", { class: "chip-icon" }), el("span", { text: chips(p.wager) }))));
}

function renderTable(step) {
  const ring = $("ring");
  for (const old of ring.querySelectorAll(".seat")) old.remove();
  const equity = streetEquity(step);
  ring.dataset.seats = String(step.seats.length);
  for (const p of step.seats) ring.append(seatNode(step, p, equity));
  $("hand-info").textContent = [
    view.replay.hand !== null && view.replay.hand !== undefined
      ? t("ui.hand_no", { number: view.replay.hand }) : "",
    capitalized(streetName(step.street)),
  ].filter(Boolean).join(" · ");
  $("first-why").textContent = step.kind === "deal" && step.why ? firstToAct(step.why, nameOf) : "";
  const board = $("board");
  board.replaceChildren();
  if (step.board.length) {
    board.append(el("span", { class: "board-label", text: t("ui.community") }),
      cardRow(step.board, { up: true }));
  }
  const pot = $("pot");
  pot.replaceChildren(el("div", { class: "pot-total" }, el("span", { class: "chip-icon" }),
    el("span", { text: t("ui.pot", { amount: chips(step.pot) }) })));
  if (step.pots.length > 1) {
    pot.append(el("div", { class: "pot-split", text: step.pots.map((amount, i) => (i === 0
      ? t("ui.main_pot", { amount: chips(amount) })
      : t("ui.side_pot", { index: i, amount: chips(amount) }))).join(" · ") }));
  }
  $("step-text").textContent = stepText(step);
}

// ------------------------------------------------------------------ the panels

function renderControls() {
  const total = steps().length;
  $("replay-step").textContent = t("ui.replay_step", { n: view.index + 1, total });
  const slider = $("replay-slider");
  slider.max = String(Math.max(0, total - 1));
  slider.value = String(view.index);
  slider.setAttribute("aria-label", t("ui.replay_step", { n: view.index + 1, total }));
  for (const button of $("replay-controls").querySelectorAll("button[data-move]")) {
    const back = ["first", "prev", "prev-street"].includes(button.dataset.move);
    button.disabled = back ? view.index === 0 : view.index >= total - 1;
  }
}

function renderEquity(step) {
  const table = $("equity");
  const replay = view.replay;
  table.replaceChildren();
  $("equity-panel").hidden = !replay.streets.length;
  const head = el("tr", {}, el("th", { text: t("ui.replay_street_col") }),
    replay.players.map((p) => el("th", { text: nameOf(p.seat), title: nameOf(p.seat) })));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (const street of replay.streets) {
    const row = el("tr", { testid: `equity-street-${street.street}`,
      class: street.street === step.street && step.kind !== "awards" ? "now" : "" },
    el("th", {}, capitalized(streetName(street.street)),
      street.method && el("small", { class: "muted method",
        text: t(street.method === "exact" ? "ui.replay_exact" : "ui.replay_estimate") })));
    if (street.missing || !street.seats.length) {
      if (street.missing) {
        row.append(el("td", { colSpan: replay.players.length, class: "muted",
          text: t(street.missing === "community" ? "ui.replay_no_equity_community"
            : "ui.replay_no_equity_deck") }));
      } else {
        row.append(...replay.players.map((p) => el("td", { class: "muted",
          "data-name": nameOf(p.seat), text: "–" })));
      }
      body.append(row);
      continue;
    }
    const bySeat = new Map(street.seats.map((e) => [e.seat, e]));
    for (const p of replay.players) {
      const e = bySeat.get(p.seat);
      if (!e) {
        row.append(el("td", { class: "muted", "data-name": nameOf(p.seat), text: "–" }));
        continue;
      }
      const halves = replay.variant === "stud8" ? [
        el("small", { class: "muted", text: `${t("ui.high")} ${percent(e.high)}` }),
        el("small", { class: "muted", text: `${t("ui.low")} ${percent(e.low)}` })] : [];
      // data-name: a phone shows each seat's name in its cell, the streets one under another
      row.append(el("td", { "data-seat": p.seat, "data-name": nameOf(p.seat) },
        el("strong", { text: percent(e.equity) }), halves));
    }
    body.append(row);
  }
  table.append(body);
}

function renderResult() {
  const replay = view.replay;
  const box = $("result");
  box.replaceChildren();
  const over = view.index === steps().length - 1;
  $("result-panel").hidden = !over;
  if (!over) return;
  if (!replay.over) box.append(el("p", { class: "muted", text: t("ui.replay_unfinished") }));
  for (const p of replay.players) {
    box.append(el("div", { class: "replay-net", testid: `net-${p.seat}` },
      el("span", { class: "who", text: nameOf(p.seat) }),
      el("span", { class: `net ${p.net >= 0 ? "plus" : "minus"}`, text: signed(p.net) })));
  }
  if (replay.rake) box.append(el("p", { class: "muted", text: t("ui.replay_rake", { amount: chips(replay.rake) }) }));
  if (HAND_ID && view.source === "hand") {
    box.append(el("a", { class: "button", href: invited(`/api/hands/${HAND_ID}/mine.phh`),
      download: `hand-${HAND_ID}.phh`, testid: "replay-phh", text: t("ui.download_phh") }));
  }
}

function renderLog() {
  const list = $("replay-log");
  list.replaceChildren(...steps().slice(0, view.index + 1).map((step, k) =>
    el("li", { class: `log-${step.kind}${k === view.index ? " now" : ""}`,
      onclick: () => show(k) }, stepText(step))));
  list.scrollTop = list.scrollHeight;
}

function renderMeta() {
  const replay = view.replay;
  $("replay-meta").textContent = replay ? [replay.table, variantTitle(replay.variant),
    stakesText(replay.stakes)].filter(Boolean).join(" · ") : "";
  document.title = `${t("ui.replayer_title")} · stud`;
}

/** Why a played hand (?hand=ID) has no replay, from the facts the server sent: a hand of a
 * private table, one voided or still being played (named as its table names it: "Hand #13"
 * at that table, a number other than the id in the address), or none at all. */
function handErrorLines(error) {
  const id = error.hand;
  if (error.code === "private_hand" || error.status === 403) {
    return [el("p", { class: "replay-error-title", text: t("ui.replay_private") })];
  }
  if (error.code === "hand_voided") {
    return [el("p", { class: "replay-error-title",
      text: t("ui.replay_voided", { number: error.number, table: error.table }) }),
    el("p", { class: "muted", text: t("ui.replay_hand_id", { id }) })];
  }
  if (error.code === "hand_running") {
    return [el("p", { class: "replay-error-title",
      text: t("ui.replay_running", { table: error.table }) })];
  }
  if (error.status === 404) return [el("p", { text: t("ui.replay_not_found", { id }) })];
  // English readers get the server's own, fuller words.
  return [el("p", { class: "replay-error-title", text: t("ui.replay_hand_failed", { id }) }),
    lang() === "en" && error.detail && el("p", { class: "muted", text: error.detail })];
}

function renderError() {
  const box = $("replay-error");
  const error = view.error;
  box.hidden = !error;
  box.replaceChildren();
  if (!error) return;
  if (error.hand !== undefined) {
    box.append(...handErrorLines(error).filter(Boolean));
    return;
  }
  if (error.code === "phh_too_large") {
    box.append(el("p", { text: t("ui.replay_too_large") }));
    return;
  }
  box.append(el("p", { class: "replay-error-title", text: error.name
    ? t("ui.replay_bad_bundle_hand", { name: error.name }) : t("ui.replay_bad_file") }));
  // English readers get the server's own, fuller words; others the facts: which action.
  if (lang() === "en" && error.detail) box.append(el("p", { class: "muted", text: error.detail }));
  else if (error.index !== null && error.index !== undefined) {
    box.append(el("p", { class: "muted", text: t("ui.replay_bad_line", { index: error.index, line: error.line }) }));
  }
}

function renderStep() {
  const step = current();
  $("replay-play").hidden = !step;
  $("log-panel").hidden = !step;
  if (!step) {
    $("equity-panel").hidden = true;
    $("result-panel").hidden = true;
    return;
  }
  renderTable(step);
  renderControls();
  renderEquity(step);
  renderResult();
  renderLog();
}

/** A .phhs file's hands to choose from (hidden for a file of one hand, or a played hand);
 * still there when the hand chosen cannot be replayed, so that another can be. */
function renderBundle() {
  const bundle = view.bundle;
  $("replay-bundle-field").hidden = !bundle;
  if (!bundle) return;
  const select = $("replay-bundle");
  select.replaceChildren(...bundle.hands.map((name, k) => el("option", { value: name,
    text: t("ui.replay_bundle_hand", { name, number: k + 1, count: bundle.hands.length }) })));
  select.value = bundle.hand;
}

function renderAll() {
  translateStatic();
  for (const button of document.querySelectorAll("[data-i18n-title]")) {
    const words = t(button.dataset.i18nTitle);
    button.title = words;
    button.setAttribute("aria-label", words);
    const label = button.querySelector(".label");
    if (label) label.textContent = words;
  }
  renderMeta();
  renderBundle();
  renderError();
  renderStep();
}

// ------------------------------------------------------------------ loading

function open(replay, source) {
  view.replay = replay;
  view.source = source;
  view.bundle = source === "file" ? replay.bundle || null : null;
  view.error = null;
  view.index = 0;
  renderAll();
}

async function loadHand() {
  if (!HAND_ID) return;
  if (typeof HAND_ID !== "number") { // no hand is called that
    view.error = { hand: HAND_ID, status: 404 };
    renderAll();
    return;
  }
  try {
    open(await api(invited(`/api/hands/${HAND_ID}/replay`)), "hand");
  } catch (error) {
    const facts = error.facts || {};
    view.error = { hand: HAND_ID, status: error.status, code: facts.code, table: facts.table,
      number: facts.number, detail: error.message };
    renderAll();
  }
}

async function upload(file) {
  let text;
  try {
    text = await file.text();
  } catch {
    view.error = { code: "bad_phh", detail: "" };
    renderAll();
    return;
  }
  uploaded = text;
  await post(text, null);
}

/** The replay of a file's text: of a .phhs (several hands), the hand named, else its first. */
async function post(text, hand) {
  let response;
  const query = hand === null ? "" : `?hand=${encodeURIComponent(hand)}`;
  try {
    response = await fetch(`/api/replays${query}`, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "text/plain; charset=utf-8" }, body: text });
  } catch {
    view.error = { detail: t("ui.network_error") };
    renderAll();
    return;
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    // A hand of a .phhs that cannot be replayed: the file's list stays, to choose another.
    const bundle = body.bundle || (hand === null ? null : view.bundle);
    view.error = { code: body.code, detail: body.detail, index: body.index, line: body.line,
      name: bundle ? hand ?? bundle.hand : null };
    view.replay = null;
    view.bundle = bundle;
    renderAll();
    return;
  }
  history.replaceState(null, "", "/replayer");
  open(body, "file");
}

function main() {
  const account = accountBox($("account"), { onAccount: loadHand });
  mountLangSwitch();
  onLangChange(renderAll);
  $("replay-controls").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-move]");
    if (button) move(button.dataset.move);
  });
  $("replay-slider").addEventListener("input", (event) => show(Number(event.target.value)));
  $("replay-file").addEventListener("change", (event) => {
    const file = event.target.files && event.target.files[0];
    if (file) upload(file);
  });
  $("replay-bundle").addEventListener("change", (event) => {
    if (uploaded !== null) post(uploaded, event.target.value);
  });
  document.addEventListener("keydown", (event) => {
    if (!view.replay || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")
      && event.target.type !== "range") return;
    const where = { ArrowRight: "next", ArrowLeft: "prev", ArrowDown: "next-street",
      ArrowUp: "prev-street", Home: "first", End: "last" }[event.key];
    if (!where) return;
    event.preventDefault();
    move(where);
  });
  renderAll();
  fetchMe().then((me) => { if (me && !account.me) account.set(me); }).catch(() => {});
  loadHand();
}

if (document.body.dataset.page === "replayer") main();
