// Your hands: the finished hands this account played (GET /api/me/hands), newest first, each
// with when and where, your cards (your own down cards among them: the server sends them to you
// alone), what it won or lost you, and links to the replayer and to the PHH with your cards.

import { chips, lang, onLangChange, t, translateStatic, variantTitle } from "./i18n.js";
import { cardNode, el } from "./cards.js";
import { accountBox, api, fetchMe, mountLangSwitch, toast } from "./lobby.js";

const PAGE = 50;

const view = {
  hands: [], // the rows so far, newest first
  more: false, // an older page may follow
  account: null, // null: not known yet; false: no account
};

const $ = (id) => document.getElementById(id);

function when(text) {
  const date = text ? new Date(text) : null;
  if (!date || Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(lang() === "de" ? "de-DE" : "en-GB",
    { dateStyle: "medium", timeStyle: "short" }).format(date);
}

function handRow(h) {
  const net = h.net ?? 0;
  return el("article", { class: "my-hand", testid: "my-hand", "data-id": h.id },
    el("div", { class: "my-hand-when" },
      el("span", { class: "muted", text: when(h.ended_at) }),
      el("a", { href: `/tables/${h.table}`, class: "my-hand-table", text: h.table_name }),
      el("span", { class: "muted", text: `${variantTitle(h.variant)} · ${t("ui.hand_no", { number: h.number })}` })),
    el("div", { class: "cards small-gap my-hand-cards", testid: "my-hand-cards",
      "aria-label": t("ui.hands_col_cards") },
    (h.cards || []).map((c) => cardNode(c.card, { up: c.up, own: !c.up, small: true }))),
    el("span", { class: `net ${net >= 0 ? "plus" : "minus"}`, testid: "my-hand-net",
      title: t("ui.hands_col_result"), text: `${net > 0 ? "+" : ""}${chips(net)}` }),
    el("div", { class: "my-hand-links" },
      el("a", { class: "button small", href: `/replayer?hand=${h.id}`, testid: "my-hand-replay",
        text: t("ui.hands_replay") }),
      el("a", { class: "button small", href: `/api/hands/${h.id}/mine.phh`,
        download: `hand-${h.id}.phh`, testid: "my-hand-phh", text: t("ui.download_phh") })));
}

function render() {
  translateStatic();
  $("my-hands").replaceChildren(...view.hands.map(handRow));
  const empty = $("hands-empty");
  empty.hidden = view.account === null || view.hands.length > 0;
  empty.textContent = view.account === false ? t("ui.hands_need_account") : t("ui.hands_none");
  $("hands-more").hidden = !view.more;
  document.title = `${t("ui.hands_title")} · stud`;
}

async function load(before = null) {
  try {
    const query = before ? `?limit=${PAGE}&before=${before}` : `?limit=${PAGE}`;
    const rows = await api(`/api/me/hands${query}`);
    view.account = true;
    view.hands = before ? [...view.hands, ...rows] : rows;
    view.more = rows.length === PAGE;
  } catch (error) {
    if (error.status === 401) view.account = false;
    else toast(error.message);
  }
  render();
}

function main() {
  const account = accountBox($("account"), { onAccount: () => load() });
  mountLangSwitch();
  onLangChange(render);
  $("hands-more").addEventListener("click", () => {
    const last = view.hands[view.hands.length - 1];
    if (last) load(last.id);
  });
  render();
  fetchMe().then((me) => { if (me && !account.me) account.set(me); }).catch(() => {});
  load();
}

if (document.body.dataset.page === "hands") main();
