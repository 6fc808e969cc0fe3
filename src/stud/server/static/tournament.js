// A sit-and-go's page (GET /api/tournaments/{id}): where it stands (waiting for players, the
// level in force and the next one, or the winner), the standings, the prizes and the structure;
// registering, unregistering, filling the free seats with bots, and the way to its table. It
// reads the tournament again every few seconds while it runs; the results stay after the end.

import { chips, onLangChange, stakesText, t, translateStatic, variantTitle } from "./i18n.js";
import { el } from "./cards.js";
import { levelText } from "./game_line.js";
import { accountBox, api, fetchMe, mountLangSwitch, toast } from "./lobby.js";

const ID = (location.pathname.match(/\/tournaments\/(\d+)/) || [])[1];
const REFRESH_MS = 2000;
const $ = (id) => document.getElementById(id);

const PAGE = 20; // hands a page
// hands: the newest page (polled); older: the pages asked for with "Older hands".
const view = { tournament: null, missing: false, busy: false, hands: [], older: [],
  more: false };
// Keys spelled out, so that the catalogue's test sees each of them.
const STATUS = { registering: "ui.tournament_status.registering",
  running: "ui.tournament_status.running", finished: "ui.tournament_status.finished" };
const STRUCTURE = {
  "standard.hands": "ui.structure_text.standard.hands",
  "turbo.hands": "ui.structure_text.turbo.hands",
  "standard.minutes": "ui.structure_text.standard.minutes",
  "turbo.minutes": "ui.structure_text.turbo.minutes",
};


function placeText(s) {
  if (s.place === null || s.place === undefined) return t("ui.still_in");
  return s.tied > 1 ? t("ui.place_tied", { place: s.place, last: s.place + s.tied - 1 })
    : String(s.place);
}

function renderNow(tr) {
  const box = $("tournament-now");
  box.replaceChildren();
  const now = tr.now;
  if (tr.status === "registering") {
    box.append(el("span", { testid: "tournament-waiting",
      text: t("ui.tournament_waiting", { missing: tr.players - tr.registered }) }));
  } else if (tr.status === "running" && now) {
    box.append(
      el("strong", { testid: "tournament-level",
        text: t("ui.level_now", { level: now.level, stakes: stakesText(now.stakes) }) }),
      el("span", { testid: "tournament-next", text: levelText(now) }),
      el("span", { text: t("ui.players_left", { left: now.left, players: tr.players }) }),
      el("span", { text: t("ui.hands_played", { hands: now.hands }) }));
  } else if (tr.status === "finished") {
    const winner = tr.standings.find((s) => s.place === 1);
    if (winner) {
      box.append(el("strong", { testid: "tournament-winner",
        text: t("ui.tournament_won", { name: winner.name, prize: chips(winner.prize) }) }));
    }
  }
}

function renderActions(tr, me) {
  const actions = $("tournament-actions");
  actions.replaceChildren();
  const mine = tr.you;
  const act = async (path, body) => {
    $("tournament-error").textContent = "";
    view.busy = true;
    try {
      view.tournament = await api(path, { method: "POST", body });
      const fresh = await fetchMe();
      if (fresh) account.set(fresh);
      render();
    } catch (error) {
      $("tournament-error").textContent = error.status === 401 ? t("ui.need_account")
        : error.message;
      if (error.status === 401) account.focus();
    } finally {
      view.busy = false;
    }
  };
  if (tr.status === "registering") {
    if (!mine) {
      actions.append(el("button", { type: "button", class: "primary", testid: "register",
        text: t("ui.register", { buy_in: chips(tr.buy_in) }),
        onclick: () => act(`/api/tournaments/${ID}/register`) }));
    } else {
      actions.append(el("button", { type: "button", testid: "unregister",
        text: t("ui.unregister"), onclick: () => act(`/api/tournaments/${ID}/unregister`) }));
    }
    if (mine || (me && me.id === tr.created_by)) {
      actions.append(el("button", { type: "button", testid: "fill-bots",
        text: t("ui.fill_bots"), onclick: () => act(`/api/tournaments/${ID}/bots`, {}) }));
    }
  }
  if (tr.status !== "finished") {
    actions.append(el("a", { class: `button${tr.status === "running" ? " primary" : ""}`,
      href: `/tables/${tr.table}`, testid: "go-to-table",
      text: t(mine ? "ui.go_to_table" : "ui.watch_table") }));
  }
}

function renderYou(tr) {
  const you = $("tournament-you");
  const mine = tr.you;
  you.hidden = !mine;
  if (!mine) return;
  if (!mine.place) you.textContent = t("ui.you_registered", { seat: mine.seat });
  else if (mine.prize) {
    you.textContent = t("ui.you_finished", { place: mine.place, prize: chips(mine.prize) });
  } else you.textContent = t("ui.you_finished_out", { place: mine.place });
}

function renderStandings(tr) {
  $("standing-rows").replaceChildren(...tr.standings.map((s) => el("tr", {
    class: s.place ? "out" : "in", testid: "standing", "data-seat": s.seat },
  el("td", { class: "col-place", testid: "standing-place", text: placeText(s) }),
  el("td", { class: "col-name" }, el("span", { text: s.name }),
    s.bot ? [" ", el("span", { class: "badge bot-badge", text: t("ui.bot") })] : null,
    s.away ? [" ", el("span", { class: "badge away-badge", text: t("ui.away_badge") })] : null),
  el("td", { class: "col-chips", text: s.stack === null ? "–" : chips(s.stack) }),
  el("td", { class: "col-prize", testid: "standing-prize",
    text: s.prize === null ? "–" : chips(s.prize) }),
  el("td", { class: "col-out", text: s.place && s.place > 1 && s.hand ? String(s.hand) : "" }))));
}

function renderSide(tr) {
  $("prize-pool").textContent = t("ui.prize_pool_total", { pool: chips(tr.prize_pool),
    players: tr.players, buy_in: chips(tr.buy_in) });
  $("prize-rows").replaceChildren(...tr.prizes.map((prize, k) => el("tr", {},
    el("td", { text: t("ui.prize_place", { place: k + 1 }) }),
    el("td", { class: "col-prize", text: chips(prize) }))));
  const current = tr.now && tr.status === "running" ? tr.now.level : null;
  $("level-rows").replaceChildren(...tr.levels.map((v) => el("tr", {
    class: v.level === current ? "current" : "" },
  el("td", { text: String(v.level) }),
  el("td", { text: chips(v.ante) }),
  el("td", { text: chips(v.bring_in) }),
  el("td", { text: `${chips(v.small_bet)}/${chips(v.big_bet)}` }))));
}

/** Every hand fetched, newest first, each once (a polled page may overlap an older one). */
function handsShown() {
  const seen = new Set();
  return [...view.hands, ...view.older].filter((h) => !seen.has(h.id) && seen.add(h.id))
    .sort((a, b) => b.number - a.number);
}

async function olderHands() {
  const shown = handsShown();
  if (!shown.length) return;
  const before = shown[shown.length - 1].number;
  try {
    const rows = await api(`/api/tournaments/${ID}/hands?limit=${PAGE}&before=${before}`);
    view.older.push(...rows);
    view.more = rows.length === PAGE;
  } catch (error) {
    toast(error.message);
  }
  render();
}

function renderHands() {
  $("tournament-hands-more").hidden = !view.more;
  const rows = handsShown().filter((h) => h.result === "finished");
  $("no-hands").hidden = rows.length > 0;
  $("hand-rows").replaceChildren(...rows.map((h) => el("tr", { testid: "tournament-hand" },
    el("td", { text: t("ui.hand_no", { number: h.number }) }),
    el("td", { text: variantTitle(h.variant) }),
    el("td", { class: "col-links" },
      el("a", { href: `/replayer?hand=${h.id}`, text: t("ui.hands_replay") }), " · ",
      el("a", { href: `/api/hands/${h.id}.phh`, text: t("ui.download_phh") })))));
}

function render() {
  translateStatic();
  const tr = view.tournament;
  if (view.missing) { // nothing to stand, pay or show: the way back instead of empty panels
    $("tournament-name").textContent = t("ui.tournament_not_found");
    document.title = `${t("ui.tournament_not_found")} · stud`;
    for (const panel of document.querySelectorAll("main section.panel:not(.tournament-head)")) {
      panel.hidden = true;
    }
    $("tournament-actions").replaceChildren(el("a", { href: "/", class: "button",
      testid: "tournament-back", text: t("ui.back_to_lobby") }));
    return;
  }
  if (!tr) return;
  $("tournament-name").textContent = tr.name;
  document.title = `${tr.name} · stud`;
  $("tournament-meta").textContent = [
    t("ui.tournament_meta", { game: variantTitle(tr.game), buy_in: chips(tr.buy_in),
      stack: chips(tr.starting_stack), structure: t(STRUCTURE[`${tr.structure}.${tr.per}`]) }),
    t(STATUS[tr.status]),
  ].join(" · ");
  renderNow(tr);
  renderYou(tr);
  renderActions(tr, account.me);
  renderStandings(tr);
  renderSide(tr);
  renderHands();
}

async function load() {
  if (view.busy) return;
  if (!ID) {
    view.missing = true;
    render();
    return;
  }
  try {
    view.tournament = await api(`/api/tournaments/${ID}`);
    view.hands = await api(`/api/tournaments/${ID}/hands?limit=${PAGE}`);
    if (!view.older.length) view.more = view.hands.length === PAGE;
    view.missing = false;
  } catch (error) {
    if (error.status === 404) view.missing = true;
    else toast(error.message);
  }
  render();
}

async function refresh() {
  await load();
  const over = view.missing || (view.tournament && view.tournament.status === "finished");
  setTimeout(refresh, over ? 5 * REFRESH_MS : REFRESH_MS);
}

$("tournament-hands-more").addEventListener("click", olderHands);
const account = accountBox($("account"), { onAccount: () => load() });
mountLangSwitch();
onLangChange(render);
const notice = sessionStorage.getItem("stud.notice"); // from the lobby: a registration refused
if (notice) {
  sessionStorage.removeItem("stud.notice");
  toast(notice);
}
fetchMe().then((me) => { if (!account.me) account.set(me); render(); })
  .catch((error) => toast(error.message));
refresh();
