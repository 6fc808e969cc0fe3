// The table page: one WebSocket to /ws/tables/{id}, and studRender(state), which draws a state
// frame (docs/protocol.md) onto the page. Every button comes from the frame: the actions are the
// frame's `legal` entries, sent back exactly as given; nothing here decides a rule.

import {
  actionLabel, awardHand, awardLines, capitalized, cardName, cardText, chips, firstToAct,
  handText, lang, oddChipsText, onLangChange, refusalText, streetName, t, takenText,
  translateStatic,
} from "./i18n.js";
import { cardNode, cardRow, el } from "./cards.js";
import { accountBox, api, fetchMe, mountLangSwitch, toast } from "./lobby.js";
import { mountTogether } from "./together.js";
import { renderTableMeta } from "./game_line.js";

const TABLE_ID = Number((location.pathname.match(/\/tables\/(\d+)/) || [])[1]) || null;
// A private table's invite secret, from the link its host shared (?invite=...).
const INVITE = new URLSearchParams(location.search).get("invite");
const withInvite = (path) => (INVITE ? `${path}${path.includes("?") ? "&" : "?"}invite=${encodeURIComponent(INVITE)}` : path);
const BOTS = ["random", "station", "strength", "expert", "equity"];
const PING_MS = 20000;

const view = {
  state: null, // the last state frame
  receivedAt: 0, // performance.now() when it came: the clock counts down from there
  pending: false, // an action was sent; its buttons stay disabled until the next frame
  keyboard: false, // the player uses the keyboard (Tab, Enter or Space), not a pointer
  turn: null, // the turn the actions were last drawn for: a new one takes a keyboard's focus
  connection: "connecting", // "open", "connecting", "lost" or "shut" (closed for good)
  shutCode: null, // why it was shut: 4403 (private), 4404 or 4410 (no such table, closed)
  lastHands: null, // GET /api/tables/{id}/hands, newest first
  dialog: null, // {kind: "sit" | "bot" | "rebuy", seat, opener}
};

let socket = null;
let account = null;
let together = null; // the chat pane, the host's panel and the wait for a hand (together.js)

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ reading the frame

const mySeat = (state) => (state && state.you && state.you.seat) || null;

function seatName(state, seat) {
  const player = state && state.seats && state.seats[seat - 1];
  return player ? player.name : t("seat", { seat });
}

/** Who played ``seat`` in ``hand``: the names dealt in, not whoever sits there now. */
function playerName(state, hand, seat) {
  const player = hand && (hand.players || []).find((p) => p.seat === seat);
  return player ? player.name : seatName(state, seat);
}

/** The hand whose showdown the page shows: the one in play once it is over, else the last. */
function showdownHand(state) {
  if (!state) return null;
  if (state.hand) return state.hand.over && state.hand.showdown ? state.hand : null;
  return state.last && state.last.showdown ? state.last : null;
}

// ------------------------------------------------------------------ seats around the felt

/** Where seat `seat` sits on the oval: angle in degrees, screen coordinates (y down). The
 * viewer's own seat is at the bottom; a watcher sees seat 1 just right of the top. */
function seatAngle(seat, seats, anchor) {
  const step = 360 / seats;
  return anchor ? 90 + (seat - anchor) * step : 270 + (seat - 0.5) * step;
}

function seatNode(state, seat, showdown) {
  const player = state.seats[seat - 1];
  const hand = state.hand;
  const me = mySeat(state);
  const angle = (seatAngle(seat, state.table.seats, me) * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // --x/--y: the seat on the rail; --wx/--wy: from there to its wager on the felt, in hundredths
  // of the ring's width and height.
  const position = `--x:${(50 + 39.5 * cos).toFixed(2)}%;--y:${(50 + 38 * sin).toFixed(2)}%;` +
    `--wx:${(-13 * cos).toFixed(2)};--wy:${(-(sin > 0 ? 22 : 13) * sin).toFixed(2)};--order:${seat === me ? -1 : seat}`;

  if (!player) {
    const canSit = !me;
    // Bots are seated by the players at the table and its host (a watcher may not).
    const canSeatBots = Boolean(me || (state.you && state.you.host));
    return el("div", { class: "seat empty", testid: `seat-${seat}`, "data-seat": seat,
      style: position },
    el("div", { class: "plate empty-plate" },
      el("div", { class: "plate-top" }, el("span", { class: "seat-no", text: seat }),
        el("span", { class: "name muted", text: t("seat", { seat }) })),
      el("div", { class: "empty-actions" },
        canSit && el("button", { type: "button", class: "primary small", testid: `sit-${seat}`,
          text: t("ui.sit_here"), onclick: () => openDialog("sit", seat) }),
        canSeatBots && el("button", { type: "button", class: "small", testid: `add-bot-${seat}`,
          text: t("ui.add_bot"), onclick: () => openDialog("bot", seat) }))));
  }

  const clock = hand && hand.clock && hand.clock.seat === seat ? hand.clock : null;
  const acting = hand && !hand.over && hand.to_act === seat;
  const shown = showdown && showdown.showdown.shown.find((s) => s.seat === seat);
  const net = showdown && (showdown.showdown.net || []).find(([s]) => s === seat);
  const winner = showdown && showdown.showdown.pots.some((pot) =>
    pot.awards.some((award) => award.shares.some(([s]) => s === seat)));
  const classes = ["seat", "taken"];
  if (seat === me) classes.push("me");
  if (acting) classes.push("acting");
  // A seat that sits out from the next hand still plays this one: it is said when this ends.
  const sittingOut = player.sitting_out && !(hand && !hand.over && player.in_hand);
  if (player.folded) classes.push("folded");
  if (sittingOut) classes.push("out");
  if (!player.connected && !player.bot) classes.push("offline");
  if (winner && state.hand === showdown) classes.push("winner");

  const marks = [];
  const mark = (cls, text) => marks.push(el("span", { class: `mark ${cls}`, text }));
  if (hand && !hand.over && hand.bring_in === seat && hand.street === 3) mark("bring-in", t("ui.bring_in_mark"));
  if (hand && !hand.over && hand.first === seat) mark("first", t("ui.first_mark"));
  if (player.all_in) mark("all-in", t("ui.all_in"));
  if (player.folded && player.in_hand !== false) mark("folded", t("ui.folded"));
  if (sittingOut) mark("out", t("ui.sitting_out"));
  if (player.leaving) mark("leaving", t("ui.leaving"));
  if (player.timed_out) mark("timed-out", t("ui.timed_out"));
  if (!player.connected && !player.bot) mark("offline", t("ui.disconnected"));

  const cards = (player.cards || []).map((c) =>
    cardNode(c.card, { up: c.up, own: seat === me && !c.up }));

  const names = [];
  if (shown && state.hand === showdown) {
    if (shown.high) names.push(handText(shown.high));
    if (shown.low) names.push(handText(shown.low));
  }

  return el("div", { class: classes.join(" "), testid: `seat-${seat}`, "data-seat": seat,
    style: position },
  el("div", { class: "seat-cards cards", "data-count": cards.length }, cards),
  el("div", { class: "plate" },
    el("div", { class: "plate-top" },
      el("span", { class: "seat-no", text: seat }),
      el("span", { class: "name", text: player.name, title: player.name }),
      seat === me && el("span", { class: "badge you-badge", text: t("ui.you") }),
      player.bot && (me || (state.you && state.you.host)) && el("button", { type: "button", class: "remove-bot", testid: `remove-bot-${seat}`,
        title: t("ui.remove_bot_title"), "aria-label": t("ui.remove_bot_title"), text: "×",
        onclick: () => send({ type: "remove_bot", seat }) })),
    el("div", { class: "plate-mid" },
      el("span", { class: "sr-only", text: `${t("ui.stack_label")} ` }),
      el("span", { class: "stack", testid: `stack-${seat}`, text: chips(player.stack) }),
      (player.bot || player.own_bot) && el("span", { class: "badge bot-badge", testid: `bot-badge-${seat}`,
        text: t("ui.bot"), title: player.bot || t("ui.own_bot_title") }),
      !player.bot && !player.own_bot && player.time_bank_ms > 0 && (seat === me || clock) && el("span", {
        class: `bank${clock && clock.bank ? " running" : ""}`, testid: `bank-${seat}`,
        title: t("ui.time_bank_running"),
        text: t("ui.time_bank", { s: Math.ceil(player.time_bank_ms / 1000) }) }),
      net && el("span", { class: `net ${net[1] >= 0 ? "plus" : "minus"}`,
        text: `${net[1] > 0 ? "+" : ""}${chips(net[1])}` })),
    marks.length > 0 && el("div", { class: "marks" }, marks),
    names.length > 0 && el("div", { class: "shown-name", text: names.join(" · ") }),
    clock && el("div", { class: `clock${clock.bank ? " bank" : ""}`, testid: "clock", "data-seat": seat,
      "data-bank": clock.bank ? "1" : "0" },
      el("div", { class: "clock-track" }, el("div", { class: "clock-bar" })),
      el("span", { class: "clock-num" })),
    player.wager > 0 && hand && !hand.over && el("div", { class: "wager", testid: `wager-${seat}` },
      el("span", { class: "chip-icon" }), el("span", { class: "sr-only", text: `${t("ui.wager_label")} ` }),
      el("span", { text: chips(player.wager) }))));
}

function renderSeats(state) {
  const ring = $("ring");
  for (const old of ring.querySelectorAll(".seat")) old.remove();
  if (!state) return;
  const showdown = showdownHand(state);
  ring.dataset.seats = state.table.seats;
  for (let seat = 1; seat <= state.table.seats; seat += 1) ring.append(seatNode(state, seat, showdown));
  tickClock();
}

// ------------------------------------------------------------------ the middle of the felt

function potText(hand) {
  const pots = hand.pots || [];
  if (pots.length <= 1) return null;
  return pots.map((amount, index) => (index === 0
    ? t("ui.main_pot", { amount: chips(amount) })
    : t("ui.side_pot", { index, amount: chips(amount) }))).join(" · ");
}

/** The felt's status ("Your turn", "Waiting for Ann") is a live region: it is written only when
 * it changes, so that a screen reader says each change once, not at every frame. */
function setStatus(text) {
  const status = $("felt-status");
  if (status.textContent !== text) status.textContent = text;
}

function renderCenter(state) {
  const info = $("hand-info");
  const board = $("board");
  const pot = $("pot");
  const bets = $("street-bets");
  const why = $("first-why");
  const hand = state && state.hand;
  why.textContent = hand && !hand.over && hand.why
    ? firstToAct(hand.why, (seat) => playerName(state, hand, seat)) : "";
  board.replaceChildren();
  pot.replaceChildren();
  bets.textContent = "";
  if (!state) {
    info.textContent = "";
    setStatus(view.connection === "shut" ? "" : t("ui.connecting"));
    return;
  }
  if (!hand) {
    const players = state.seats.filter((p) => p && !p.sitting_out).length;
    const tournament = state.table.tournament;
    info.textContent = state.last ? t("ui.last_showdown", { number: state.last.number }) : "";
    if (tournament && tournament.status === "registering") { // nothing is dealt until it fills
      setStatus(t("ui.tournament_waiting", { missing: tournament.players - tournament.registered }));
    } else if (tournament && tournament.status === "finished") {
      setStatus(t("ui.tournament_table_over"));
    } else setStatus(players >= 2 ? t("ui.next_hand") : t("ui.waiting_players"));
    return;
  }
  info.textContent = `${t("ui.hand_no", { number: hand.number })} · ${capitalized(streetName(hand.street))}`;
  if (hand.board && hand.board.length) {
    board.append(el("span", { class: "board-label", text: t("ui.community") }),
      cardRow(hand.board, { up: true }));
  }
  pot.append(el("div", { class: "pot-total" }, el("span", { class: "chip-icon" }),
    el("span", { text: t("ui.pot", { amount: chips(hand.pot) }) })));
  const breakdown = potText(hand);
  if (breakdown) pot.append(el("div", { class: "pot-split", text: breakdown }));
  const onStreet = state.seats.reduce((sum, p) => sum + (p ? p.wager || 0 : 0), 0);
  if (!hand.over && onStreet > 0) bets.textContent = t("ui.street_bets", { amount: chips(onStreet) });
  if (hand.over) setStatus("");
  else if (hand.to_act && hand.to_act === mySeat(state)) setStatus(t("ui.your_turn"));
  else if (hand.to_act) setStatus(t("ui.waiting_for", { name: seatName(state, hand.to_act) }));
  else setStatus("");
}

// ------------------------------------------------------------------ the clock

function tickClock() {
  const state = view.state;
  const clock = state && state.hand && state.hand.clock;
  if (!clock) return;
  const left = Math.max(0, clock.remaining_ms - (performance.now() - view.receivedAt));
  const share = clock.total_ms > 0 ? Math.min(1, left / clock.total_ms) : 0;
  for (const node of document.querySelectorAll('[data-testid="clock"]')) {
    node.querySelector(".clock-bar").style.width = `${(share * 100).toFixed(1)}%`;
    node.querySelector(".clock-num").textContent = t("ui.seconds", { s: Math.ceil(left / 1000) });
    node.dataset.remainingMs = String(Math.round(left));
    node.classList.toggle("urgent", left < 5000);
  }
}

// ------------------------------------------------------------------ acting

function renderActions(state) {
  const box = $("actions");
  const mine = $("my-controls");
  if (view.connection === "shut") { // nothing to do at a table one is shut out of
    box.replaceChildren();
    mine.replaceChildren();
    return;
  }
  // A player who uses the keyboard finds the focus on the actions at each of their turns, on
  // the first that is not Fold, wherever it was (but in a text field or a dialog); during the
  // turn it stays on the action it is on, through every redraw.
  const active = document.activeElement;
  const inBox = box.contains(active);
  const nowhere = active === document.body || active === null;
  // The action just taken is disabled while its answer comes: no focus to keep there.
  const focused = inBox && active.matches("button.action:not([disabled])") ? active : null;
  box.replaceChildren();
  mine.replaceChildren();
  if (!state) return;
  const hand = state.hand;
  const legal = (hand && !hand.over && hand.legal) || [];
  const turn = legal.length ? `${hand.number}/${(hand.events || []).length}` : null;
  const newTurn = turn !== null && turn !== view.turn;
  view.turn = turn;
  const focusHere = view.keyboard && (inBox || nowhere
    || (newTurn && !typing(active) && !$("dialog").contains(active)));
  for (const option of legal) {
    const button = el("button", {
      type: "button",
      class: `action action-${option.action}`,
      testid: `action-${option.action}`,
      "data-action": option.action,
      "data-to": option.to ?? "",
      disabled: view.pending,
      text: capitalized(actionLabel(option.action, option.to, lang(), option.adds)),
      // A click from Enter or Space has no pointer (detail 0): the player uses the keyboard.
      onclick: (event) => { view.keyboard = event.detail === 0; act(option); },
    });
    box.append(button);
  }
  // The same action keeps the focus through a redraw (never moved to another); a new turn's
  // first action that is not Fold takes it (check, call or bring-in: Enter never folds).
  const same = focused && box.querySelector(`button[data-action="${focused.dataset.action}"]`
    + `[data-to="${focused.dataset.to}"]:not([disabled])`);
  const first = box.querySelector("button:not([disabled]):not([data-action='fold'])");
  if (focusHere && (same || (!focused && first))) (same || first).focus({ preventScroll: true });
  const bar = $("action-bar");
  bar.classList.toggle("my-turn", legal.length > 0);
  // On a phone the bar is pinned to the screen's foot on your turn (wherever the page is
  // scrolled: the chat, the last hands); the page keeps room below for it.
  document.body.classList.toggle("my-turn", legal.length > 0);
  if (!bar.dataset.measured && typeof ResizeObserver !== "undefined") {
    bar.dataset.measured = "1"; // the room kept below follows the bar's height as it changes
    new ResizeObserver(() => document.body.style.setProperty("--bar-h", `${bar.offsetHeight}px`))
      .observe(bar);
  }
  if (!legal.length) {
    let text = "";
    if (hand && !hand.over && hand.to_act) {
      text = hand.to_act === mySeat(state) ? t("ui.your_turn")
        : t("ui.waiting_for", { name: seatName(state, hand.to_act) });
    } else if (!mySeat(state)) {
      const tournament = state.table && state.table.tournament;
      const placed = state.you && state.you.place;
      if (tournament && placed) { // an entrant out (or the winner): its place, not "watching"
        text = t(placed.place === 1 ? "ui.tournament_you_won" : "ui.tournament_you_out",
          { place: placed.place, hand: placed.hand ?? "", prize: chips(placed.prize || 0) });
      } else if (tournament) { // no free seat to take: one plays a tournament from its page
        text = tournament.status === "finished" ? t("ui.tournament_table_over")
          : t("ui.tournament_table_watching");
      } else text = account && account.me ? t("ui.watching") : t("ui.watching_no_account");
    }
    box.append(el("span", { class: "action-wait", testid: "action-wait", text }));
  }
  const me = mySeat(state);
  const player = me && state.seats[me - 1];
  // At a tournament's table no chips are added: a seat with none is out, and goes.
  const broke = player && player.stack === 0 && !(hand && !hand.over && player.in_hand)
    && !state.table.tournament;
  $("action-bar").classList.toggle("broke", Boolean(broke));
  if (broke) {
    // No chips, so no more hands for this seat: say so, with the two ways on.
    box.replaceChildren(el("div", { class: "broke-prompt", testid: "broke-prompt", role: "status" },
      el("span", { class: "broke-text", text: t("ui.broke") }),
      el("span", { class: "broke-buttons" },
        el("button", { type: "button", class: "primary", testid: "broke-add-chips",
          text: t("ui.add_chips"), onclick: () => openDialog("rebuy", me) }),
        el("button", { type: "button", class: "danger", testid: "broke-leave", text: t("ui.leave"),
          onclick: () => send({ type: "leave" }) }))));
    return;
  }
  if (player) {
    const hand = state.hand;
    const playing = hand && !hand.over && player.in_hand;
    const most = 500 * state.table.stakes.small_bet;
    if (!playing && player.stack < most) {
      mine.append(el("button", { type: "button", testid: "rebuy", text: t("ui.add_chips"),
        onclick: () => openDialog("rebuy", me) }));
    }
    mine.append(player.sitting_out
      ? el("button", { type: "button", testid: "sit-in", text: t("ui.sit_in"),
        onclick: () => send({ type: "sit_in" }) })
      : el("button", { type: "button", testid: "sit-out", text: t("ui.sit_out"),
        onclick: () => send({ type: "sit_out" }) }),
    el("button", { type: "button", class: "danger", testid: "leave", text: t("ui.leave"),
      onclick: () => send({ type: "leave" }) }));
  }
}

function act(option) {
  if (view.pending || !view.state || !view.state.hand) return;
  const message = { type: "act", action: option.action, hand: view.state.hand.number };
  if (option.action !== "fold" && option.action !== "check") message.to = option.to;
  if (!send(message)) return;
  view.pending = true;
  // A disabled button loses the focus to the page's start: it waits on the actions' place.
  const box = $("actions");
  if (box.contains(document.activeElement)) box.focus({ preventScroll: true });
  for (const button of box.querySelectorAll("button")) button.disabled = true;
}

// ------------------------------------------------------------------ the showdown

function winnerLine(state, hand, seat, amount, label, text) {
  return el("div", { class: "winner-line" },
    label && el("span", { class: `half-label ${label}`, text: t(`ui.${label}`) }),
    el("span", { class: "who", text: playerName(state, hand, seat), title: playerName(state, hand, seat) }),
    el("span", { class: "won", text: `+${chips(amount)}` }),
    el("span", { class: "with", text }));
}

/** A pot's award in the showdown panel: one line per winner, with the half it won (in hi/lo)
 * and the winning hand; whether no low qualified, and who got an odd chip, below them. */
function awardNodes(state, hand, award) {
  const label = award.half === "high" || award.half === "low" ? award.half : null;
  const text = award.uncontested ? t("ui.uncontested") : awardHand(award, { withNoLow: false });
  const nodes = award.shares.map(([seat, amount]) =>
    winnerLine(state, hand, seat, amount, label, text));
  if (award.no_low && award.half === "all") {
    nodes.push(el("div", { class: "no-low", testid: "no-low", text: t("ui.no_low") }));
  }
  const odd = oddChipsText(award, (seat) => playerName(state, hand, seat));
  if (odd) nodes.push(el("div", { class: "odd-chip muted", testid: "odd-chip", text: capitalized(odd) }));
  return nodes;
}

function renderShowdown(state) {
  const panel = $("showdown");
  const hand = showdownHand(state);
  panel.replaceChildren();
  panel.hidden = !hand;
  if (!hand) return;
  const result = hand.showdown;
  const title = state.hand === hand ? `${t("ui.showdown")} · ${t("ui.hand_no", { number: hand.number })}`
    : t("ui.last_showdown", { number: hand.number });
  panel.append(el("h2", { text: title }));
  const shown = el("div", { class: "shown-list" });
  for (const s of result.shown || []) {
    const names = [s.high && handText(s.high), s.low && handText(s.low)].filter(Boolean);
    shown.append(el("div", { class: "shown-hand", testid: `shown-${s.seat}` },
      el("div", { class: "who", text: playerName(state, hand, s.seat), title: playerName(state, hand, s.seat) }),
      cardRow(s.cards, { small: true }),
      el("div", { class: "hand-names" }, names.map((n) => el("span", { text: n })))));
  }
  const mucked = (hand.events || []).filter((e) => e.kind === "mucked");
  for (const m of mucked) {
    shown.append(el("div", { class: "shown-hand mucked" },
      el("div", { class: "who", text: playerName(state, hand, m.seat), title: playerName(state, hand, m.seat) }),
      el("div", { class: "hand-names", text: t("ui.mucked") })));
  }
  if (shown.childElementCount) panel.append(shown);
  for (const pot of result.pots || []) {
    const name = pot.pot === 0 ? t("ui.main_pot", { amount: chips(pot.amount) })
      : t("ui.side_pot", { index: pot.pot, amount: chips(pot.amount) });
    const box = el("div", { class: "pot-result", testid: `pot-result-${pot.pot}` },
      el("div", { class: "pot-title" }, el("span", { text: name }),
        pot.scoop && el("span", { class: "badge scoop", testid: "scoop", "data-seat": pot.scoop,
          text: `${t("ui.scoop")} · ${playerName(state, hand, pot.scoop)}` })));
    for (const award of pot.awards) box.append(...awardNodes(state, hand, award));
    panel.append(box);
  }
  const net = result.net || [];
  if (net.length) {
    panel.append(el("div", { class: "net-line" }, el("span", { class: "muted", text: `${t("ui.net")}: ` }),
      // Each "name +12" stays whole; the line may break between them.
      net.flatMap(([seat, amount], i) => [i ? " · " : null,
        el("span", { class: `net ${amount >= 0 ? "plus" : "minus"}` },
          `${playerName(state, hand, seat)} ${amount > 0 ? "+" : ""}${chips(amount)}`)])));
  }
}

// ------------------------------------------------------------------ the hand log

function nameIn(state, hand, seat) {
  return playerName(state, hand, seat);
}

/** The log's lines, folded from the events; the cards dealt on one street make one line. */
function logLines(state, hand) {
  const lines = [];
  const headed = new Set(); // streets whose heading is in the log
  const heading = (street) => {
    if (headed.has(street)) return;
    headed.add(street);
    lines.push({ kind: "street", text: t("ui.log_street", { street: capitalized(streetName(street)) }) });
  };
  let dealt = null; // {street, bySeat: Map(seat -> [cards])}
  const flush = () => {
    if (!dealt) return;
    heading(dealt.street);
    const parts = [...dealt.bySeat].map(([seat, cards]) =>
      `${nameIn(state, hand, seat)} ${cards.map((c) => (c.card ? cardText(c.card) : "??")).join(" ")}`);
    lines.push({ kind: "dealt", text: parts.join(" · ") });
    dealt = null;
  };
  for (const event of hand.events || []) {
    if (event.kind === "card") {
      if (dealt && dealt.street !== event.street) flush();
      if (!dealt) dealt = { street: event.street, bySeat: new Map() };
      if (!dealt.bySeat.has(event.seat)) dealt.bySeat.set(event.seat, []);
      dealt.bySeat.get(event.seat).push(event);
      continue;
    }
    flush();
    const who = (seat) => nameIn(state, hand, seat);
    const name = event.seat ? who(event.seat) : "";
    switch (event.kind) {
      case "ante": {
        const text = t("did.ante", { who: name, amount: chips(event.amount) });
        lines.push({ kind: "ante", text: event.all_in ? t("did.all_in", { text }) : text });
        break;
      }
      case "board":
        lines.push({ kind: "board", text: t("ui.log_board", { card: cardText(event.card) }) });
        break;
      case "street":
        heading(event.street);
        if (event.why) lines.push({ kind: "first", text: firstToAct(event.why, who) });
        break;
      case "action":
        lines.push({ kind: `action ${event.action}`, text: event.timed_out
          ? t("did.timed_out", { text: takenText(event, name) }) : takenText(event, name) });
        break;
      case "returned":
        lines.push({ kind: "returned", text: t("did.uncalled", { who: name, amount: chips(event.amount) }) });
        break;
      case "shown": {
        const names = [event.high && handText(event.high), event.low && handText(event.low)]
          .filter(Boolean).join(", ");
        lines.push({ kind: "shown", text: t(names ? "did.show.named" : "did.show",
          { who: name, cards: (event.cards || []).map(cardText).join(" "), names }) });
        break;
      }
      case "mucked":
        lines.push({ kind: "mucked", text: t("did.muck", { who: name }) });
        break;
      case "pot": {
        for (const text of awardLines(event, who)) lines.push({ kind: "pot", text });
        const odd = oddChipsText(event, who);
        if (odd) lines.push({ kind: "pot odd", text: capitalized(odd) });
        break;
      }
      case "end":
        lines.push({ kind: "end", text: t("ui.log_end", { number: hand.number }) });
        break;
      default:
        break;
    }
  }
  flush();
  return lines;
}

const SUIT_LETTERS = { "♠": "s", "♥": "h", "♦": "d", "♣": "c" };

/** A log line with its cards drawn small: red or black, "??" as a card's back; each card is an
 * image named in words for screen readers ("Four of spades", "face-down card"). */
function logItem(line) {
  const item = el("li", { class: `log-${line.kind}` });
  for (const part of line.text.split(/((?:10|[2-9JQKA])[♥♦♠♣]|\?\?)/)) {
    if (!part) continue;
    if (part === "??") {
      item.append(el("span", { class: "log-card back", role: "img", title: cardName(null),
        "aria-label": cardName(null) }));
    } else if (/^(?:10|[2-9JQKA])[♥♦♠♣]$/.test(part)) {
      const card = `${part.startsWith("10") ? "T" : part[0]}${SUIT_LETTERS[part.slice(-1)]}`;
      item.append(el("span", { class: `log-card ${/[♥♦]/.test(part) ? "red" : "black"}`,
        role: "img", "aria-label": cardName(card), text: part }));
    } else {
      item.append(part);
    }
  }
  return item;
}

function renderLog(state) {
  const list = $("hand-log");
  const hand = state && (state.hand || state.last);
  const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren();
  $("log-title").textContent = hand ? `${t("ui.hand_log")} · ${t("ui.hand_no", { number: hand.number })}` : t("ui.hand_log");
  if (!hand) {
    list.append(el("li", { class: "muted", text: t("ui.no_events") }));
    return;
  }
  list.append(...logLines(state, hand).map(logItem));
  if (stick || !view.logScrolled) scrollLogDown();
}

/** Keeps the newest log line in sight, after the panels around it have taken their size. */
function scrollLogDown() {
  const list = $("hand-log");
  list.scrollTop = list.scrollHeight;
  requestAnimationFrame(() => {
    if (!view.logScrolled) list.scrollTop = list.scrollHeight;
  });
}

// ------------------------------------------------------------------ the last hands

/** Your own cards of a last hand you played, and what it won or lost you (the server sends
 * `mine` to you alone). */
function mineLine(mine) {
  const net = mine.net ?? 0;
  return el("div", { class: "last-hand-mine", testid: "last-hand-mine" },
    el("span", { class: "muted", text: t("ui.hands_col_cards") }),
    el("div", { class: "cards small-gap" }, (mine.cards || []).map((c) =>
      cardNode(c.card, { up: c.up, own: !c.up, small: true }))),
    mine.net !== null && mine.net !== undefined && el("span", {
      class: `net ${net >= 0 ? "plus" : "minus"}`, text: `${net > 0 ? "+" : ""}${chips(net)}` }));
}

/** A last hand as you played it: your own down cards in its log, from `mine`. */
function asPlayed(h) {
  if (!h.mine || !h.events) return h;
  const own = (h.mine.cards || []).map((c) => c.card);
  let k = 0;
  return { ...h, events: h.events.map((e) => (e.kind === "card" && e.seat === h.mine.seat
    ? { ...e, card: own[k++] ?? e.card } : e)) };
}

function renderLastHands() {
  const box = $("last-hands");
  box.replaceChildren();
  const hands = view.lastHands;
  if (!hands) return;
  if (!hands.length) {
    box.append(el("p", { class: "muted", text: t("ui.no_last_hands") }));
    return;
  }
  const time = new Intl.DateTimeFormat(lang() === "de" ? "de-DE" : "en-GB",
    { hour: "2-digit", minute: "2-digit" });
  hands.forEach((h, i) => {
    let when = "";
    const date = h.ended_at ? new Date(h.ended_at) : null;
    if (date && !Number.isNaN(date.getTime())) when = time.format(date);
    box.append(el("details", { class: "last-hand", testid: "last-hand", "data-id": h.id, open: i === 0 },
      el("summary", { testid: "last-hand-summary" },
        el("span", { class: "last-hand-no", text: t("ui.hand_no", { number: h.number }) }),
        when && el("span", { class: "muted", text: when }),
        h.result === "voided" && el("span", { class: "badge out", text: t("ui.voided") }),
        h.result !== "voided" && el("a", { class: "replay-link", href: withInvite(`/replayer?hand=${h.id}`),
          testid: "replay-link", text: t("ui.hands_replay"), onclick: (e) => e.stopPropagation() }),
        h.result !== "voided" && el("a", { class: "phh",
          href: withInvite(h.mine ? `/api/hands/${h.id}/mine.phh` : `/api/hands/${h.id}.phh`),
          download: `hand-${h.id}.phh`, testid: "phh-link", text: t("ui.download_phh"),
          onclick: (e) => e.stopPropagation() })),
      h.mine && h.result !== "voided" && mineLine(h.mine), // a voided hand: nothing won or lost
      h.events
        ? el("ul", { class: "last-hand-log" }, logLines(view.state, asPlayed(h)).map(logItem))
        : el("pre", { class: "last-hand-text",
          text: h.result === "voided" ? t("ui.voided_text") : (h.text || []).join("\n") })));
  });
  if (!view.logScrolled) scrollLogDown();
}

let lastHandsKey;

async function refreshLastHands() {
  if (!TABLE_ID) return;
  try {
    view.lastHands = await api(withInvite(`/api/tables/${TABLE_ID}/hands?limit=10`));
    keepingFocus(renderLastHands);
  } catch (error) {
    // A table one may not see (403) or that is gone (404): the socket's close says so, once,
    // in the banner; anything else is said in the reader's words.
    if (error.status === 0) toast(error.message);
    else if (error.status !== 403 && error.status !== 404) toast(t("ui.last_hands_failed"));
  }
}

/** The last hands change when a hand ends: the frame's `last` moves on, or `hand` is over. */
function finishedKey(state) {
  if (state.hand && state.hand.over) return state.hand.number;
  return state.last ? state.last.number : null;
}

// ------------------------------------------------------------------ the keyboard's place
// Every frame draws the seats and the controls anew. A keyboard (or screen reader) user's focus
// is kept through that: on the same control drawn again, or on the one that took its place
// (Sit out becomes Sit in, Pause becomes Resume, Add bot becomes the bot's ×), never dropped to
// the page's start.

const FOCUSABLE = "button, input, select, textarea, a[href], summary, [tabindex]:not([tabindex='-1'])";
const usable = (node) => Boolean(node) && !node.disabled && !node.closest("[inert]")
  && node.getClientRects().length > 0;
const byTestid = (id) => `[data-testid="${id}"]`;
const SWAPS = { "sit-out": "sit-in", "sit-in": "sit-out", "host-pause": "host-resume",
  "host-resume": "host-pause" };

/** Typing: a text field has the focus (its keys are the text's, not the page's). */
function typing(node) {
  return node instanceof HTMLElement && (node.isContentEditable || node.matches(
    "textarea, select, input:not([type=button]):not([type=submit]):not([type=checkbox]):not([type=radio])"));
}

/** A selector for a control that finds it again once drawn anew: its test id, within the last
 * hand it belongs to (several have the same buttons). */
function focusKey(node) {
  if (!node || !node.dataset || !node.dataset.testid) return null;
  const within = node.closest("[data-id]");
  return `${within ? `[data-id="${within.dataset.id}"] ` : ""}${byTestid(node.dataset.testid)}`;
}

/** Where the focus goes when `node` is gone after a redraw, best first (selectors): read while
 * `node` is still on the page. */
function focusHeirs(node) {
  const id = (node.dataset && node.dataset.testid) || "";
  const seat = (id.match(/-(\d+)$/) || [])[1];
  const heirs = [];
  const safeAction = "#actions button.action:not([disabled]):not([data-action='fold'])";
  if (SWAPS[id]) heirs.push(byTestid(SWAPS[id]));
  if (id === `add-bot-${seat}`) heirs.push(byTestid(`remove-bot-${seat}`));
  if (id === `remove-bot-${seat}`) heirs.push(byTestid(`add-bot-${seat}`), byTestid(`sit-${seat}`));
  if (id === `sit-${seat}`) heirs.push(byTestid("sit-out"), "#my-controls button"); // seated
  if (id === "leave" || id === "broke-leave") { // the seat left, to sit again
    if (mySeat(view.state)) heirs.push(byTestid(`sit-${mySeat(view.state)}`));
    heirs.push(".seat.empty button");
  }
  // An action taken (or Deal now, below): the next turn's safe action, else the actions'
  // place; never Sit out or Leave, where a second Enter would do harm.
  if (node.closest("#actions") && node.matches("button.action")) heirs.push(safeAction, "#actions");
  else if (node.closest("#actions")) heirs.push("#my-controls button", "#actions");
  else if (node.closest("#my-controls")) heirs.push("#my-controls button", "#actions");
  else if (node.closest(".next-hand")) heirs.push(safeAction, "#actions"); // Deal now: a hand
  else if (node.closest(".host-panel")) heirs.push(".host-panel button");
  else if (node.closest(".chat-panel")) heirs.push(byTestid("chat-unmute"), byTestid("chat-input"));
  else if (node.closest(".seat")) heirs.push(`.seat[data-seat="${node.closest(".seat").dataset.seat}"] button`);
  return heirs;
}

/** Focuses the first usable control of the selectors; false when there is none. */
function focusFirst(selectors) {
  for (const selector of selectors) {
    if (!selector) continue;
    const node = [...document.querySelectorAll(selector)].find(usable);
    if (node) {
      node.focus({ preventScroll: true });
      return true;
    }
  }
  return false;
}

/** Runs `redraw` keeping the keyboard's place (see above). */
function keepingFocus(redraw) {
  const before = document.activeElement;
  const placed = Boolean(before) && before !== document.body && before.isConnected;
  const heirs = placed ? [focusKey(before), ...focusHeirs(before)] : [];
  try {
    redraw();
  } finally {
    const now = document.activeElement;
    if (placed && !before.isConnected && (!now || now === document.body)) focusFirst(heirs);
  }
}

/** The keyboard counts from the first Tab, or Enter or Space outside a text field, or Enter in
 * a dialog's field (which answers the dialog: the sit dialog's buy-in); a pointer (mouse,
 * finger) stops it. */
function watchInput() {
  document.addEventListener("keydown", (event) => {
    const answers = event.key === "Enter" && $("dialog").contains(event.target);
    if (event.key === "Tab" || answers
        || ((event.key === "Enter" || event.key === " ") && !typing(event.target))) {
      view.keyboard = true;
    }
    if (event.key === "Escape" && view.dialog) closeDialog();
    else if (event.key === "Tab" && view.dialog) keepTabInDialog(event);
  }, true);
  document.addEventListener("pointerdown", () => { view.keyboard = false; }, true);
  // Should the focus get behind an open dialog after all, it goes back into it.
  document.addEventListener("focusin", (event) => {
    const backdrop = $("dialog");
    if (view.dialog && !backdrop.contains(event.target)) {
      focusFirst(['#dialog [role="dialog"] input', `#dialog [role="dialog"] button`]);
    }
  });
}

// ------------------------------------------------------------------ the toast's place

/** The toast (lobby.js) goes where it covers no control: the lowest free band of the window
 * (the action bar, pinned to a phone's foot on your turn, stays free), clear of the seats too
 * if it can be. */
function placeToast() {
  const box = $("toast");
  if (box.hidden) return;
  box.style.bottom = "";
  const width = box.offsetWidth;
  const height = box.offsetHeight;
  const left = (window.innerWidth - width) / 2;
  const rects = (selector) => [...document.querySelectorAll(selector)]
    .filter((node) => !box.contains(node) && node.getClientRects().length > 0)
    .map((node) => node.getBoundingClientRect());
  const controls = rects(`${FOCUSABLE}, #action-bar`);
  const seats = rects(".seat .plate, .seat-cards");
  const margin = 6;
  for (const avoid of [controls.concat(seats), controls]) {
    for (let bottom = 24; bottom + height + margin <= window.innerHeight; bottom += 4) {
      const top = window.innerHeight - bottom - height;
      const free = !avoid.some((r) => r.left < left + width + margin && r.right > left - margin
        && r.top < top + height + margin && r.bottom > top - margin);
      if (free) {
        box.style.bottom = `${bottom}px`;
        return;
      }
    }
  }
}

// ------------------------------------------------------------------ dialogs: sit, add a bot

function openDialog(kind, seat) {
  if ((kind === "sit" || kind === "bot") && account && !account.me) {
    toast(t("ui.need_account"));
    account.focus();
    return;
  }
  // buyIn: the amount as typed (in the language typedIn); pending: {amount, wallet} once sent,
  // until the server's answer; error: {key, params} or {refusal}, shown beside the field; opener:
  // where the focus goes back to when it closes (the button that opened it, or its heir).
  const from = document.activeElement;
  const opener = from && from !== document.body ? [focusKey(from), ...focusHeirs(from)]
    : [byTestid("sit-out"), "#my-controls button"]; // by a link (?sit=): the seat's, once seated
  view.dialog = { kind, seat, buyIn: null, typedIn: lang(), pending: null, error: null, opener };
  renderDialog();
}

function closeDialog() {
  const opener = view.dialog ? view.dialog.opener : [];
  view.dialog = null;
  renderDialog();
  const now = document.activeElement;
  if (!now || now === document.body) focusFirst(opener);
}

/** A link from the lobby's Play now (`?sit=N`) opens the sit dialog with the first frame, for
 * that seat or, if it was taken meanwhile, the first free one; once, and the link forgets it. */
function sitFromLink(state) {
  const params = new URLSearchParams(location.search);
  if (!params.has("sit")) return;
  const wanted = Number(params.get("sit"));
  params.delete("sit");
  const rest = params.toString();
  history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
  // A tournament's seats are its entrants': one registers on its page, never sits here.
  if (mySeat(state) || view.dialog || !state.you.account || state.table.tournament) return;
  const free = state.seats.map((p, i) => (p ? null : i + 1)).filter(Boolean);
  const seat = free.includes(wanted) ? wanted : free[0];
  if (seat) openDialog("sit", seat);
}

/** The wallet as the server last said it (the frame's `you`), else the account box's. */
function walletOf(state) {
  if (state && state.you && state.you.account) return state.you.wallet;
  return account && account.me ? account.me.wallet : null;
}

/** A chip amount as typed: digits, with or without the language's thousands separator
 * ("10,000", "10.000"); null for anything else. */
function parseChips(text, l = lang()) {
  const group = l === "de" ? "." : ",";
  const plain = String(text ?? "").replace(/[\s\u00a0\u202f]/g, "").split(group).join("");
  return /^\d{1,9}$/.test(plain) ? Number(plain) : null;
}

/** What the sit or add-chips dialog may take: from `low` to `high` chips, `high` being the
 * table's limit (`room`: 500 small bets, less the stack for a top-up) capped at the wallet. */
function chipLimits(dialog, state) {
  const stakes = (state && state.table.stakes) || { small_bet: 2 };
  const most = 500 * stakes.small_bet;
  const seated = state && state.seats[dialog.seat - 1];
  const rebuy = dialog.kind === "rebuy";
  const stack = seated ? seated.stack : 0;
  // A top-up brings a stack below the least buy-in up to at least it (as the server asks).
  const low = rebuy ? Math.max(1, 10 * stakes.small_bet - stack) : 10 * stakes.small_bet;
  const room = rebuy ? Math.max(0, most - stack) : most;
  const wallet = walletOf(state);
  const high = wallet === null ? room : Math.min(room, wallet);
  const start = Math.max(low, Math.min(100 * stakes.small_bet, high));
  return { low, high, room, most, wallet, start };
}

/** Why an amount cannot be sent ({key, params}), or null when it can. */
function chipProblem(amount, limits) {
  if (limits.wallet !== null && limits.wallet < limits.low) {
    return { key: "ui.chips_wallet_short", params: { wallet: limits.wallet, min: limits.low } };
  }
  if (amount === null) return { key: "ui.chips_whole" };
  if (amount < limits.low || amount > limits.room) {
    return { key: "ui.chips_range", params: { min: limits.low, max: limits.high } };
  }
  if (limits.wallet !== null && amount > limits.wallet) {
    return { key: "ui.chips_wallet", params: { wallet: limits.wallet } };
  }
  return null;
}

/** A problem's words: ours from {key, params}, or a refusal's from its facts ({code,
 * message}, the server's answer). */
function problemText(problem) {
  if (!problem) return "";
  if (problem.refusal) return refusalText(problem.refusal.code, problem.refusal.message);
  const params = Object.fromEntries(Object.entries(problem.params || {})
    .map(([name, value]) => [name, chips(value)]));
  return t(problem.key, params);
}

/** The server refused what the dialog sent: the dialog stays, with what was typed, and says
 * why beside the field. Returns false when no dialog waits for an answer. */
function dialogRefused(frame) {
  const dialog = view.dialog;
  if (!dialog || !dialog.pending) return false;
  const limits = chipLimits(dialog, view.state);
  dialog.pending = null;
  if (frame.code === "wallet_short" && limits.wallet !== null) {
    dialog.error = { key: "ui.chips_wallet", params: { wallet: limits.wallet } };
  } else if (frame.code === "bad_buy_in") {
    dialog.error = { key: "ui.chips_range", params: { min: limits.low, max: limits.high } };
  } else {
    dialog.error = { refusal: { code: frame.code, message: frame.message } };
  }
  renderDialog();
  return true;
}

/** Whether a state frame answers the open chip dialog: a sit is answered by a seat, an
 * add-chips by the wallet paying for it (or by the seat being gone). */
function dialogAnswered(state) {
  const dialog = view.dialog;
  if (!dialog || (dialog.kind !== "sit" && dialog.kind !== "rebuy")) return false;
  const me = mySeat(state);
  if (dialog.kind === "sit") return me !== null;
  if (me === null) return true;
  const paid = dialog.pending && dialog.pending.wallet !== null
    && state.you.wallet <= dialog.pending.wallet - dialog.pending.amount;
  return Boolean(paid);
}

/** Draws the open dialog afresh: when it opens, when the server refuses it and when the
 * language changes. A state frame only refreshes its limits (refreshDialog), so a buy-in being
 * typed is kept. */
function renderDialog() {
  const backdrop = $("dialog");
  const had = backdrop.contains(document.activeElement) ? focusKey(document.activeElement) : null;
  backdrop.replaceChildren();
  const dialog = view.dialog;
  backdrop.hidden = !dialog;
  // A modal dialog: the page behind it can be neither reached nor read until it closes.
  for (const part of document.querySelectorAll("body > :not(#dialog):not(#toast)")) {
    part.inert = Boolean(dialog);
  }
  if (!dialog) return;
  const state = view.state;
  const box = el("div", { class: "dialog", role: "dialog", "aria-modal": "true",
    "aria-labelledby": "dialog-title", tabIndex: -1, testid: `dialog-${dialog.kind}` });
  const cancel = el("button", { type: "button", testid: "dialog-cancel", text: t("ui.cancel"),
    onclick: closeDialog });
  if (dialog.kind === "sit" || dialog.kind === "rebuy") {
    const rebuy = dialog.kind === "rebuy";
    const limits = chipLimits(dialog, state);
    const typed = parseChips(dialog.buyIn, dialog.typedIn);
    if (dialog.buyIn === null) dialog.buyIn = chips(limits.start);
    else if (typed !== null && dialog.typedIn !== lang()) dialog.buyIn = chips(typed);
    dialog.typedIn = lang();
    const input = el("input", { type: "text", inputMode: "numeric", autocomplete: "off",
      value: dialog.buyIn, testid: "buy-in-input", id: "buy-in", readOnly: Boolean(dialog.pending),
      "aria-describedby": "buy-in-error buy-in-hint", "aria-invalid": dialog.error ? "true" : null,
      oninput: () => { dialog.buyIn = input.value; dialog.typedIn = lang(); },
      onblur: () => {
        const amount = parseChips(input.value);
        if (amount !== null) input.value = dialog.buyIn = chips(amount);
      } });
    const form = el("form", { onsubmit: (event) => {
      event.preventDefault();
      if (dialog.pending) return;
      const now = chipLimits(dialog, view.state);
      const amount = parseChips(input.value);
      const problem = chipProblem(amount, now);
      if (problem) {
        dialog.error = problem;
        renderDialog();
        return;
      }
      dialog.buyIn = chips(amount);
      const message = rebuy ? { type: "rebuy", amount }
        : { type: "sit", seat: dialog.seat, buy_in: amount };
      if (!send(message)) return;
      dialog.error = null;
      dialog.pending = { amount, wallet: now.wallet };
      renderDialog();
    } },
    el("h2", { id: "dialog-title", text: t(rebuy ? "ui.rebuy_title" : "ui.buy_in_title", { seat: dialog.seat }) }),
    el("label", { class: `field${dialog.error ? " invalid" : ""}`, for: "buy-in" },
      el("span", { text: t(rebuy ? "ui.rebuy_label" : "ui.buy_in_label") }), input,
      el("small", { class: "field-error", id: "buy-in-error", testid: "buy-in-error",
        role: "alert", text: problemText(dialog.error) })),
    el("p", { class: "muted buy-in-hint", id: "buy-in-hint", testid: "buy-in-hint" }),
    el("div", { class: "dialog-buttons" }, cancel,
      el("button", { type: "submit", class: "primary", testid: "sit-confirm",
        disabled: Boolean(dialog.pending), "aria-busy": dialog.pending ? "true" : null,
        text: t(rebuy ? "ui.add_chips" : "ui.sit_confirm") })));
    box.append(form);
    backdrop.append(box);
    refreshDialog();
    if (!dialog.pending) {
      input.focus();
      input.select();
    } else if (!focusFirst([had])) box.focus(); // sent: the focus stays in the dialog
  } else {
    box.append(el("h2", { id: "dialog-title", text: t("ui.choose_bot", { seat: dialog.seat }) }),
      el("div", { class: "bot-choices" }, BOTS.map((bot) => el("button", {
        type: "button", class: "bot-choice", testid: `bot-${bot}`, "data-bot": bot,
        onclick: () => { if (send({ type: "add_bot", seat: dialog.seat, bot })) closeDialog(); },
      }, el("strong", { text: bot }), el("span", { text: t(`bot.${bot}`).replace(/^[^:]*:\s*/, "") })))),
      el("div", { class: "dialog-buttons" }, cancel));
    backdrop.append(box);
    if (!focusFirst([had])) box.querySelector("button").focus();
  }
}

/** Tab and Shift-Tab go round the open dialog's controls, never out to the page behind it. */
function keepTabInDialog(event) {
  const box = $("dialog").querySelector('[role="dialog"]');
  if (!box) return;
  const stops = [...box.querySelectorAll(FOCUSABLE)].filter(usable);
  const at = stops.indexOf(document.activeElement);
  const next = event.shiftKey ? (at <= 0 ? stops.length - 1 : at - 1)
    : (at < 0 || at === stops.length - 1 ? 0 : at + 1);
  event.preventDefault();
  (stops[next] || box).focus();
}

/** After a state frame: closes the chip dialog the frame answers, else brings its limits and
 * wallet up to date. */
function refreshDialog() {
  const dialog = view.dialog;
  const state = view.state;
  if (dialog && state && dialogAnswered(state)) {
    closeDialog();
    return;
  }
  const hint = $("dialog").querySelector(".buy-in-hint");
  if (!hint || !dialog) return;
  const limits = chipLimits(dialog, state);
  const wallet = limits.wallet === null ? "–" : chips(limits.wallet);
  if (limits.wallet !== null && limits.wallet < limits.low) {
    hint.textContent = problemText(chipProblem(null, limits));
  } else if (dialog.kind === "rebuy") {
    hint.textContent = t("ui.rebuy_hint", { least: chips(limits.low), most: chips(limits.high),
      max: chips(limits.most), wallet });
  } else {
    hint.textContent = t("ui.buy_in_hint", { min: chips(limits.low), max: chips(limits.high),
      wallet });
  }
}

// ------------------------------------------------------------------ the page around the table

function renderHeader(state) {
  const table = state && state.table;
  $("table-name").textContent = table ? table.name : "";
  renderTableMeta($("table-meta"), table); // game_line.js: the rotation, a tournament's level
  document.title = table ? `${table.name} · stud` : "stud";
  const rules = $("rules-link");
  if (TABLE_ID) rules.href = `/tables/${TABLE_ID}/rules`;
  if (account && state && state.you && state.you.nickname) {
    const me = account.me;
    if (!me || me.nickname !== state.you.nickname || me.wallet !== state.you.wallet) {
      account.set({ ...(me || {}), nickname: state.you.nickname, wallet: state.you.wallet });
    }
  }
}

function renderConnection() {
  const banner = $("connection");
  if (view.connection === "shut") { // why, with the way back, in the reader's language
    banner.hidden = false;
    banner.className = "banner shut";
    banner.replaceChildren(el("span", { testid: "shut-out",
      text: t(view.shutCode === 4403 ? "ui.table_private" : "ui.table_closed") }), " ",
    el("a", { href: "/", testid: "back-to-lobby", text: t("ui.back_to_lobby") }));
    return;
  }
  const text = view.connection === "lost" ? t("ui.reconnecting")
    : view.connection === "connecting" && view.state ? t("ui.connecting") : "";
  banner.textContent = text;
  banner.hidden = !text;
}

function renderAll() {
  const state = view.state;
  translateStatic();
  renderHeader(state);
  renderConnection();
  renderSeats(state);
  renderCenter(state);
  renderActions(state);
  renderShowdown(state);
  renderLog(state);
  renderLastHands();
  refreshDialog();
}

/** Draws one state frame (docs/protocol.md) onto the page. Tests call it with fixtures.
 * `clockMoved` false: the clock is the one of the frame before, still counting from then. */
export function studRender(state, clockMoved = true) {
  view.state = state;
  if (clockMoved) view.receivedAt = performance.now();
  view.pending = false;
  renderAll();
  return document.body;
}

// ------------------------------------------------------------------ small frames

/** The state after a `delta` frame (docs/protocol.md, "Small frames"), as a new object: the
 * old state and its parts are left as they were (the parts that did not change are shared). */
export function applyDelta(state, delta) {
  const next = { ...state, seq: delta.seq };
  let hand = state.hand;
  if (delta.last_was_hand) next.last = hand; // a new hand was dealt: the finished one is last
  if ("last" in delta) next.last = delta.last;
  if ("hand" in delta) hand = delta.hand;
  if (delta.hand_changes) {
    const { events = [], ...changes } = delta.hand_changes;
    hand = { ...hand, ...changes, events: hand.events.concat(events) };
  }
  next.hand = hand;
  if (delta.seats) {
    next.seats = state.seats.slice();
    for (const [number, entry] of Object.entries(delta.seats)) {
      const i = Number(number) - 1;
      // null: the seat was left; an empty seat gets its whole entry; else the fields changed.
      next.seats[i] = entry === null || next.seats[i] === null ? entry : { ...next.seats[i], ...entry };
    }
  }
  if (delta.table) next.table = { ...state.table, ...delta.table }; // the table's keys that changed
  for (const key of ["you", "next_hand_ms", "closing"]) if (key in delta) next[key] = delta[key];
  return next;
}

/** A socket's table: the newest state, and whether a gap was seen (deltas then wait for a whole
 * state, asked for with `resync`). */
const wire = { state: null, waiting: false };

/** The state after a state or delta frame; null for a delta that cannot be applied (a gap: a
 * whole state is asked for once, and deltas are skipped until it comes). */
function readTable(frame) {
  if (frame.type === "state") {
    wire.state = frame;
    wire.waiting = false;
    return frame;
  }
  if (wire.waiting) return null;
  if (!wire.state || frame.seq !== wire.state.seq + 1) {
    wire.waiting = true;
    send({ type: "resync" });
    return null;
  }
  wire.state = applyDelta(wire.state, frame);
  return wire.state;
}

// ------------------------------------------------------------------ the socket

let retry = 0;
let pingTimer = null;

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    toast(t("ui.reconnecting"));
    return false;
  }
  socket.send(JSON.stringify(message));
  return true;
}

function onFrame(frame) {
  keepingFocus(() => readFrame(frame));
}

function readFrame(frame) {
  if (frame.type === "chat" || frame.type === "notice" || frame.type === "muted") {
    if (together) together.onFrame(frame);
  } else if (frame.type === "state" || frame.type === "delta") {
    const state = readTable(frame);
    if (!state) return;
    const changes = frame.hand_changes;
    studRender(state, frame.type === "state" || "hand" in frame || Boolean(changes && "clock" in changes));
    sitFromLink(state);
    if (together) together.onState(state);
    const key = finishedKey(state);
    if (key !== lastHandsKey) {
      lastHandsKey = key;
      refreshLastHands();
    }
  } else if (frame.type === "error") {
    // A refused sit or top-up is said beside the dialog's field; anything else in a toast;
    // in the reader's words for its code, never the server's English (frame.message).
    const text = refusalText(frame.code, frame.message);
    // A refused chat line is said beside the chat's field, where the player is typing.
    const said = Boolean(together && together.onError(frame, text));
    if (!said && !dialogRefused(frame)) toast(text);
    view.pending = false;
    renderActions(view.state);
  }
}

function connect() {
  if (!TABLE_ID) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(withInvite(`${scheme}://${location.host}/ws/tables/${TABLE_ID}`));
  socket = ws;
  wire.state = null; // a new socket starts with a whole state
  wire.waiting = false;
  view.connection = "connecting";
  renderConnection();
  ws.addEventListener("open", () => {
    retry = 0;
    view.connection = "open";
    renderConnection();
    clearInterval(pingTimer);
    pingTimer = setInterval(() => send({ type: "ping" }), PING_MS);
  });
  ws.addEventListener("message", (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    onFrame(frame);
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws) return; // replaced on purpose (a new account)
    if (event.code === 4403 || event.code === 4410 || event.code === 4404) {
      clearInterval(pingTimer);
      shutOut(event.code);
      return; // a private table without its invite, or a closed one: no use trying again
    }
    clearInterval(pingTimer);
    view.connection = "lost";
    view.pending = false;
    if (view.dialog && view.dialog.pending) { // its answer may never come: it may be sent again
      view.dialog.pending = null;
      view.dialog.error = { key: "ui.reconnecting" };
      renderDialog();
    }
    renderConnection();
    retry += 1;
    setTimeout(connect, Math.min(10000, 500 * 2 ** Math.min(retry, 5)));
  });
}

/** The page of a table one may not (or can no longer) sit at, with a way back. */
function shutOut(code) {
  view.connection = "shut";
  view.shutCode = code;
  renderConnection();
  for (const id of ["actions", "my-controls"]) $(id).replaceChildren();
  document.body.classList.add("table-shut"); // no seat to take, no bot to add or remove
  setStatus("");
  if (together) together.shut(Boolean(view.state)); // the lines read stay; never in: none
}

/** The account cookie is read when the socket opens: a new account needs a new socket. */
function reconnect() {
  const old = socket;
  socket = null;
  if (old) old.close();
  connect();
}

function main() {
  account = accountBox($("account"), { onAccount: reconnect });
  mountLangSwitch();
  onLangChange(() => keepingFocus(() => {
    renderAll();
    renderDialog();
  }));
  $("dialog").addEventListener("click", (event) => {
    if (event.target === $("dialog")) closeDialog();
  });
  watchInput();
  const toastBox = $("toast");
  new MutationObserver(placeToast).observe(toastBox, { attributes: true,
    attributeFilter: ["hidden"], childList: true });
  window.addEventListener("scroll", () => { if (!toastBox.hidden) placeToast(); }, { passive: true });
  $("hand-log").addEventListener("scroll", () => {
    const list = $("hand-log");
    view.logScrolled = list.scrollHeight - list.scrollTop - list.clientHeight > 40;
  });
  together = mountTogether({ send, tableId: TABLE_ID });
  setInterval(tickClock, 200);
  renderAll();
  fetchMe().then((me) => { if (me && !account.me) account.set(me); }).catch(() => {});
  refreshLastHands();
  connect();
}

window.studRender = studRender;
if (document.body.dataset.page === "table") main();
