// The lobby: the tables with their stakes and pace, a form to open one, and the nickname that
// makes an account. The account box, the API call and the toast are exported for the table page.

import {
  chips, has, lang, langSwitch, onLangChange, refusalText, stakesText, t, translateStatic,
  variantTitle,
} from "./i18n.js";
import { mountTournaments } from "./tournaments_lobby.js";
import { formErrors } from "./forms.js";

// ------------------------------------------------------------------ shared with the table page

/** An HTTP API error: the status and the server's `detail` text, with the field it names,
 * and the facts the server sent beside them (`code` and the rest: `facts`). */
export class ApiError extends Error {
  constructor(status, detail, field, facts = {}) {
    super(detail);
    this.status = status;
    this.field = field;
    this.facts = facts;
  }
}

const FIELDS = ["nickname", "name", "variant", "small_bet", "seats", "clock", "rules", "buy_in",
  "players", "starting_stack", "structure", "per", "every"];

/** The error of an answer: the server names the field it refuses as data (`field`), and a
 * store error its `code`, said as `refusalText` says it (an English page the server's words, as
 * a sentence; another the catalogue's), with the facts sent beside it where the catalogue has
 * them (a nickname that looks like a taken one: `like`, the taken one). */
function errorOf(status, body) {
  let detail = body && body.detail;
  let field = body && typeof body.field === "string" ? body.field : null;
  if (Array.isArray(detail)) {
    const first = detail[0] || {};
    field = field || (Array.isArray(first.loc) ? String(first.loc[first.loc.length - 1]) : null);
    detail = detail.map((d) => (d.loc ? `${d.loc[d.loc.length - 1]}: ${d.msg}` : d.msg)).join("; ");
  }
  if (typeof detail !== "string" || !detail) detail = `HTTP ${status}`;
  const code = body && body.code;
  const facts = body && typeof body === "object" && !Array.isArray(body) ? body : {};
  if (code === "out_of_range" && field) { // a form's number: its bounds, in the reader's words
    detail = t("error.out_of_range", { low: chips(body.low), high: chips(body.high) });
  } else if (code === "nickname_taken" && typeof facts.like === "string") {
    detail = t("error.nickname_taken.like", { like: facts.like });
  } else if (code && has(`error.${code}`, "en")) detail = refusalText(code, detail);
  return new ApiError(status, detail, FIELDS.includes(field) ? field : null, facts);
}

/** fetch() of the JSON API with the account cookie; throws ApiError on a 4xx or 5xx. */
export async function api(path, { method = "GET", body } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t("ui.network_error"), null);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!response.ok) throw errorOf(response.status, data);
  return data;
}

/** The account of this browser (GET /api/me), or null without one. */
export async function fetchMe() {
  try {
    return await api("/api/me");
  } catch (error) {
    if (error.status === 401 || error.status === 404) return null;
    throw error;
  }
}

let toastTimer = null;

/** A message that shows for a few seconds (data-testid="toast"). */
export function toast(message, kind = "error") {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = message;
  box.dataset.kind = kind;
  box.hidden = false;
  box.classList.remove("show");
  void box.offsetWidth; // restart the fade-in
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.classList.remove("show");
    box.hidden = true;
  }, 4500);
}

/** The account box: "Playing as Ann · wallet 10,000", or a nickname form that makes the
 * account (POST /api/accounts) and calls onAccount(me). Re-renders on a language switch. */
export function accountBox(slot, { onAccount } = {}) {
  let me = null;
  let typed = "";
  let error = "";
  let making = null; // the POST in flight, so that a click meanwhile waits for its answer
  // Make the account of the nickname typed; the account, or null with the reason shown.
  const submit = () => {
    if (making) return making;
    const button = slot.querySelector('[data-testid="nickname-submit"]');
    if (button) button.disabled = true;
    making = api("/api/accounts", { method: "POST", body: { nickname: typed.trim() } })
      .then((account) => {
        me = { id: account.id, nickname: account.nickname, wallet: account.wallet, seats: [] };
        error = "";
        render();
        if (onAccount) onAccount(me);
        return me;
      }, (failure) => {
        error = failure.message;
        render();
        const input = slot.querySelector("input");
        if (input) input.focus();
        return null;
      })
      .finally(() => { making = null; });
    return making;
  };
  const render = () => {
    slot.replaceChildren();
    if (me) {
      const line = document.createElement("span");
      line.className = "playing-as";
      line.dataset.testid = "playing-as";
      line.textContent = t("ui.playing_as", { nickname: me.nickname, wallet: chips(me.wallet) });
      slot.append(line);
      return;
    }
    const form = document.createElement("form");
    form.className = "nickname-form";
    form.noValidate = true;
    const input = document.createElement("input");
    input.name = "nickname";
    input.maxLength = 20;
    input.autocomplete = "nickname";
    input.placeholder = t("ui.nickname_placeholder");
    input.setAttribute("aria-label", t("ui.nickname"));
    input.dataset.testid = "nickname-input";
    input.value = typed;
    input.addEventListener("input", () => { typed = input.value; });
    const button = document.createElement("button");
    button.type = "submit";
    button.className = "primary";
    button.dataset.testid = "nickname-submit";
    button.textContent = t("ui.nickname_submit");
    const note = document.createElement("small");
    note.className = "field-error";
    note.dataset.testid = "nickname-error";
    note.setAttribute("role", "alert");
    note.textContent = error;
    form.append(input, button, note);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      submit();
    });
    slot.append(form);
  };
  onLangChange(render);
  render();
  return {
    get me() { return me; },
    /** The account, once there is one: the answer to a nickname sent and not yet answered, or
     * the nickname typed and not yet sent, sent now (a click on Play now right after typing
     * one); null when there is none (the reason, if any, shown beside the field). */
    async ready() {
      if (me) return me;
      if (making) return making;
      return typed.trim() ? submit() : null;
    },
    set(account) { me = account; render(); },
    focus() {
      const input = slot.querySelector("input");
      if (input) input.focus();
    },
  };
}

/** The EN/DE switch in the page's slot. */
export function mountLangSwitch(slotId = "lang-slot") {
  const slot = document.getElementById(slotId);
  if (slot) slot.replaceChildren(langSwitch());
}

// ------------------------------------------------------------------ the lobby

const REFRESH_MS = 4000;

// A game's short name, for the lobby's narrow game column (the full title is its tooltip).
const SHORT_TITLES = { stud: "variant.stud.short", stud8: "variant.stud8.short",
  razz: "variant.razz.short", rotation: "variant.rotation.short" };

function tableRow(table) {
  const row = document.createElement("tr");
  row.dataset.testid = "table-row";
  row.dataset.id = String(table.id);
  const href = `/tables/${table.id}`;
  const game = table.rotation ? "rotation" : table.variant; // a rotation's game changes
  const cells = [
    ["name", table.name],
    ["game", variantTitle(game, table.title)],
    ["stakes", stakesText(table.stakes)],
    ["seats", t("ui.seats_taken", { taken: table.taken, seats: table.seats })],
    ["hph", new Intl.NumberFormat(lang() === "de" ? "de-DE" : "en-US",
      { maximumFractionDigits: 1 }).format(table.hands_per_hour ?? 0)],
  ];
  for (const [kind, text] of cells) {
    const cell = document.createElement("td");
    cell.className = `col-${kind}`;
    cell.dataset.label = t(`ui.col_${kind === "game" ? "game" : kind}`);
    if (kind === "name") {
      const link = document.createElement("a");
      link.href = href;
      link.textContent = text;
      cell.append(link);
      if (table.private) {
        const badge = document.createElement("span");
        badge.className = "badge private-badge";
        badge.dataset.testid = "private-badge";
        badge.textContent = t("ui.private_badge");
        cell.append(" ", badge);
      }
    } else if (kind === "game" && has(SHORT_TITLES[game] || "")) {
      cell.textContent = t(SHORT_TITLES[game]);
      cell.title = text;
    } else {
      cell.textContent = text;
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

function lobby() {
  let tables = [];
  let loaded = false;
  const rows = document.getElementById("table-rows");
  const empty = document.getElementById("no-tables");
  const form = document.getElementById("create-form");

  const account = accountBox(document.getElementById("account"), {
    onAccount: () => clearErrors(),
  });
  mountLangSwitch();
  mountTournaments({ api, toast, account });

  const renderTables = () => {
    // A tournament's table is listed with its tournament, not here.
    const cash = tables.filter((table) => !table.tournament);
    rows.replaceChildren(...cash.map(tableRow));
    empty.hidden = !loaded || cash.length > 0;
  };

  const refresh = async () => {
    try {
      tables = await api("/api/tables");
      loaded = true;
      renderTables();
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
    const submit = form.querySelector('[data-testid="create-submit"]');
    submit.disabled = true;
    const name = form.elements.name.value.trim() || t("ui.default_table_name",
      { nickname: account.me.nickname });
    try {
      const table = await api("/api/tables", {
        method: "POST",
        body: {
          name, variant: form.elements.variant.value, small_bet: number("small_bet"),
          seats: number("seats"), clock: number("clock"), rules: form.elements.rules.value,
          private: form.elements.private.checked,
        },
      });
      // A private table opens with its invite link, the one to share with friends.
      location.href = table.invite
        ? `/tables/${table.id}?invite=${encodeURIComponent(table.invite)}` : `/tables/${table.id}`;
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

  // Play now: a table of the game with bots (POST /api/play-now), and there the sit dialog.
  const playNote = document.querySelector('[data-testid="play-now-error"]');
  const playNow = async (button) => {
    playNote.textContent = "";
    if (!(await account.ready())) {
      playNote.textContent = t("ui.need_account");
      account.focus();
      return;
    }
    button.disabled = true;
    try {
      const found = await api("/api/play-now", { method: "POST",
        body: { variant: button.dataset.variant } });
      location.href = `/tables/${found.table.id}${found.seated ? "" : `?sit=${found.seat}`}`;
    } catch (error) {
      button.disabled = false;
      if (error.status === 401) account.set(null);
      playNote.textContent = error.status === 401 ? t("ui.need_account") : error.message;
      if (error.status === 401) account.focus();
    }
  };
  for (const button of document.querySelectorAll(".play-now-buttons [data-variant]")) {
    button.addEventListener("click", () => playNow(button));
  }

  onLangChange(() => {
    translateStatic();
    renderTables();
  });
  translateStatic();
  fetchMe().then((me) => { if (!account.me) account.set(me); }).catch((error) => toast(error.message));
  refresh();
  setInterval(refresh, REFRESH_MS);
}

if (document.body.dataset.page === "lobby") lobby();
