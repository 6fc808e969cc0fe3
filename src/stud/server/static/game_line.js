// The table page's line under its name: the game and stakes in play, and where they go next —
// the stud rotation's next game, and at a tournament's table its level, the next level and the
// way to the tournament's page. Built from the table's frame (``rotation``, ``tournament``).

import { stakesText, t, variantTitle } from "./i18n.js";
import { el } from "./cards.js";

function after(hands, keys, params) {
  if (hands <= 0) return t(keys[0], params);
  if (hands === 1) return t(keys[1], params);
  return t(keys[2], { ...params, hands });
}

function gameText(table) {
  const r = table.rotation;
  const over = table.tournament && table.tournament.status === "finished";
  if (!r || over) return variantTitle(r && over ? r.now : table.variant, table.title);
  return after(r.in_hands, ["ui.rotation_line_next", "ui.rotation_line_one", "ui.rotation_line"],
    { now: variantTitle(r.now), next: variantTitle(r.next) });
}

/** When the next level comes (in time, or in hands), as the table and the tournament's page
 * say it. */
export function levelText(tr) {
  const next = tr.next;
  if (next.in_ms !== undefined) {
    const seconds = Math.max(0, Math.round(next.in_ms / 1000));
    const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    return t("ui.next_level_time", { level: next.level, time });
  }
  return after(next.in_hands, ["ui.next_level_hand", "ui.next_level_one", "ui.next_level_hands"],
    { level: next.level });
}

/** The nodes of the table's meta line. */
function tableMeta(table) {
  // A tournament's table hides what is not for it (sitting down, adding chips, leaving, bots):
  // tournament.css.
  document.body.classList.toggle("tournament-table", Boolean(table && table.tournament));
  if (!table) return [];
  const parts = [gameText(table), " · ", stakesText(table.stakes)];
  const tr = table.tournament;
  if (tr) {
    parts.push(" · ", t("ui.level_short", { level: tr.level }), " · ");
    if (tr.next) parts.push(levelText(tr), " · "); // none once it is over
    parts.push(el("a", { href: `/tournaments/${tr.id}`, testid: "tournament-link",
      text: t("ui.tournament_link") }));
  }
  return parts;
}

/** Draws the meta line into `box`, only when it changed: a link that is not redrawn with
 * every frame stays where it is to be clicked. */
export function renderTableMeta(box, table) {
  const parts = tableMeta(table);
  const key = parts.map((p) => (typeof p === "string" ? p : `${p.href}|${p.textContent}`))
    .join("\u0000");
  if (box.dataset.drawn === key) return;
  box.dataset.drawn = key;
  box.replaceChildren(...parts);
}
