// The lobby's sit-and-go part: the list of tournaments (open, running and over) and the form
// that opens one (POST /api/tournaments), registering its creator at once if asked.

import { chips, has, onLangChange, t, variantTitle } from "./i18n.js";
import { formErrors } from "./forms.js";

const REFRESH_MS = 4000;
const STATUS = { registering: "ui.tournament_status.registering",
  running: "ui.tournament_status.running", finished: "ui.tournament_status.finished" };
const SHORT = { stud: "variant.stud.short", stud8: "variant.stud8.short",
  razz: "variant.razz.short", rotation: "variant.rotation.short" };

function gameText(game) {
  return has(SHORT[game] || "") ? t(SHORT[game]) : variantTitle(game);
}

function tournamentRow(tournament) {
  const href = `/tournaments/${tournament.id}`;
  const row = document.createElement("tr");
  row.dataset.testid = "tournament-row";
  row.dataset.id = String(tournament.id);
  const cells = [
    ["name", tournament.name],
    ["game", gameText(tournament.game)],
    ["seats", t("ui.registered_of", { registered: tournament.registered,
      players: tournament.players })],
    ["stakes", chips(tournament.buy_in)],
    ["hph", t(STATUS[tournament.status])],
  ];
  const labels = { name: "ui.col_tournament", game: "ui.col_game", seats: "ui.col_players",
    stakes: "ui.col_buy_in", hph: "ui.col_status" };
  for (const [kind, text] of cells) {
    const cell = document.createElement("td");
    cell.className = `col-${kind}`;
    cell.dataset.label = t(labels[kind]);
    if (kind === "name") {
      const link = document.createElement("a");
      link.href = href;
      link.textContent = text;
      cell.append(link);
    } else {
      cell.textContent = text;
      if (kind === "game") cell.title = variantTitle(tournament.game);
    }
    row.append(cell);
  }
  const open = document.createElement("td");
  open.className = "col-open";
  const link = document.createElement("a");
  link.className = "button";
  link.href = href;
  link.textContent = t("ui.open_table");
  open.append(link);
  row.append(open);
  row.addEventListener("click", (event) => {
    if (!event.target.closest("a")) location.href = href;
  });
  return row;
}

/** The tournaments' list and form; `account` is the lobby's account box. */
export function mountTournaments({ api, toast, account }) {
  const rows = document.getElementById("tournament-rows");
  const empty = document.getElementById("no-tournaments");
  const form = document.getElementById("tournament-form");
  let tournaments = [];
  let loaded = false;

  const render = () => {
    rows.replaceChildren(...tournaments.map(tournamentRow));
    empty.hidden = !loaded || tournaments.length > 0;
  };
  const refresh = async () => {
    try {
      tournaments = await api("/api/tournaments");
      loaded = true;
      render();
    } catch (error) {
      toast(error.message);
    }
  };

  const { clear: clearErrors, show: showError, number } = formErrors(form);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    if (!(await account.ready())) {
      showError(null, t("ui.need_account"));
      account.focus();
      return;
    }
    const buyIn = number("buy_in");
    if (form.elements.register.checked && typeof buyIn === "number" && account.me
        && buyIn > account.me.wallet) { // it would open a tournament one cannot enter
      showError("buy_in", t("ui.buy_in_over_wallet", { wallet: chips(account.me.wallet) }));
      return;
    }
    const submit = form.querySelector('[data-testid="tournament-submit"]');
    submit.disabled = true;
    const name = form.elements.name.value.trim()
      || t("ui.default_tournament_name", { nickname: account.me.nickname });
    try {
      const made = await api("/api/tournaments", {
        method: "POST",
        body: {
          name, variant: form.elements.variant.value, players: number("players"),
          buy_in: number("buy_in"), starting_stack: number("starting_stack"),
          structure: form.elements.structure.value, per: form.elements.per.value,
          clock: number("clock"),
        },
      });
      if (form.elements.register.checked) {
        try {
          await api(`/api/tournaments/${made.id}/register`, { method: "POST" });
        } catch (error) { // the tournament is open; its page says why and offers to register
          sessionStorage.setItem("stud.notice", error.message);
        }
      }
      location.href = `/tournaments/${made.id}`;
    } catch (error) {
      submit.disabled = false;
      if (error.status === 401) {
        account.set(null);
        showError(null, t("ui.need_account"));
        account.focus();
      } else {
        showError(error.field, error.message);
      }
    }
  });

  onLangChange(render);
  refresh();
  setInterval(refresh, REFRESH_MS);
}
