// Playing together at the table page: the chat pane (chat lines, the table's notices and who
// won each hand, all in the reader's language), the host's panel of a table (invite link,
// pause, resume, remove a player, close) and the wait before the next hand ("Deal now").
// Everything here is drawn from frames (docs/protocol.md): chat, notice and muted frames, and
// the state frame. Chat text is shown as text, never as markup.

import { el } from "./cards.js";
import { awardLines, chips, lang, onLangChange, refusalText, t } from "./i18n.js";
import { toast } from "./lobby.js";

const KEEP = 200; // lines the pane keeps

// On the 24-hour clock in both languages, as the rest of the table page ("Last hands").
const clock = (at) => {
  const moment = at ? new Date(at) : new Date();
  return moment.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
};

/** The chat pane's entries as facts; words are made from them at each drawing. */
function entryNode(entry, pane) {
  if (entry.kind === "chat") {
    const muteButton = pane.canMute(entry.account) && el("button", {
      type: "button", class: "chat-mute", testid: "chat-mute", text: t("ui.chat_mute_short"),
      title: t("ui.chat_mute", { name: entry.name }), "aria-label": t("ui.chat_mute", { name: entry.name }),
      onclick: () => pane.send({ type: "mute", account: entry.account, muted: true }),
    });
    return el("li", { class: "chat-line", testid: "chat-line", "data-account": entry.account },
      el("time", { class: "chat-time", text: clock(entry.at) }),
      el("span", { class: "chat-name", text: entry.name }),
      el("span", { class: "chat-text", text: entry.text }), muteButton);
  }
  return el("li", { class: `chat-notice notice-${entry.kind}`, testid: `notice-${entry.kind}` },
    el("time", { class: "chat-time", text: clock(entry.at) }),
    el("span", { class: "chat-text", text: noticeText(entry) }));
}

function noticeText(entry) {
  if (entry.kind === "won") {
    const who = (seat) => (entry.players.find((p) => p.seat === seat) || { name: t("seat", { seat }) }).name;
    const lines = entry.pots.flatMap((pot) => awardLines(pot, who));
    return t("notice.won", { number: entry.number, text: lines.join(" · ") });
  }
  return t(`notice.${entry.kind}`, entry);
}

export function mountTogether({ send, tableId }) {
  const side = document.querySelector(".side");
  const pane = {
    entries: [],
    muted: new Set(),
    names: new Map(), // account -> nickname, from the lines seen and the muted frame
    me: null,
    state: null,
    lastWon: null,
    send,
    over: false, // the table closed (or shut this client out): its chat is only read
    unsent: null, // the last line sent, until the server takes or refuses it
    canMute: (accountId) => pane.me !== null && accountId !== pane.me,
  };

  // ---------------------------------------------------------------- the chat pane
  const list = el("ol", { class: "chat-log", testid: "chat-log", "aria-live": "polite" });
  const input = el("input", { class: "chat-input", testid: "chat-input", maxLength: 200,
    autocomplete: "off" });
  const submit = el("button", { type: "submit", class: "primary small", testid: "chat-send" });
  const need = el("p", { class: "muted chat-need", testid: "chat-need" });
  const mutedBox = el("div", { class: "chat-muted", testid: "chat-muted" });
  // Why a line was refused (too many, too long): beside the field, covering nothing.
  const problem = el("p", { class: "field-error chat-error", testid: "chat-error", role: "alert" });
  let problemTimer = null;
  const sayProblem = (text) => {
    clearTimeout(problemTimer);
    problem.textContent = text;
    if (text) problemTimer = setTimeout(() => { problem.textContent = ""; }, 8000);
  };
  const title = el("h2", {});
  const form = el("form", { class: "chat-form", testid: "chat-form", onsubmit: (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    sayProblem("");
    if (send({ type: "chat", text })) {
      pane.unsent = text; // given back to the input if the server refuses the line
      input.value = "";
    }
  } }, input, submit);
  const panel = el("section", { class: "panel chat-panel", testid: "chat" }, title, list, mutedBox,
    form, problem, need);
  const logPanel = side.querySelector(".log-panel");
  side.insertBefore(panel, logPanel ? logPanel.nextSibling : null);

  // ---------------------------------------------------------------- the host's panel
  const host = el("section", { class: "panel host-panel", testid: "host-panel", hidden: true });
  side.insertBefore(host, side.firstChild);

  // ---------------------------------------------------------------- the wait for a hand
  const wait = el("div", { class: "next-hand", testid: "next-hand", hidden: true });
  const felt = document.getElementById("felt-center");
  if (felt) felt.append(wait);

  function add(entry) {
    pane.entries.push(entry);
    if (pane.entries.length > KEEP) pane.entries.splice(0, pane.entries.length - KEEP);
  }

  // The lines drawn, and for whom: the log is a live region, so new lines are added to it and
  // the old ones left as they are (drawn again, a screen reader would read them all again).
  let drawn = { entries: [], lang: null, me: null };

  function renderLines() {
    const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const more = drawn.lang === lang() && drawn.me === pane.me && drawn.entries.length > 0
      && drawn.entries.length <= pane.entries.length
      && drawn.entries.every((entry, i) => pane.entries[i] === entry);
    const fresh = more ? pane.entries.slice(drawn.entries.length) : null;
    if (fresh) {
      list.append(...fresh.map((entry) => entryNode(entry, pane)));
    } else {
      list.replaceChildren(...(pane.entries.length
        ? pane.entries.map((entry) => entryNode(entry, pane))
        : [el("li", { class: "muted", text: t("ui.chat_empty") })]));
    }
    drawn = { entries: pane.entries.slice(), lang: lang(), me: pane.me };
    if (!fresh || fresh.length) fitWholeLines();
    if (stick) list.scrollTop = list.scrollHeight;
  }

  /** The log is as high as the newest lines that fit in its most height (the CSS max-height):
   * scrolled to the newest line, the first one under the heading is whole, not cut in two. */
  function fitWholeLines() {
    list.style.height = "";
    const most = list.clientHeight;
    const bottom = list.scrollHeight;
    if (!most || bottom <= most) return;
    const origin = list.getBoundingClientRect().top - list.scrollTop; // where the lines start
    let top = bottom;
    for (const line of [...list.children].reverse()) {
      const at = line.getBoundingClientRect().top - origin;
      if (bottom - at > most + 0.5) break;
      top = at;
    }
    if (top < bottom) list.style.height = `${bottom - top}px`;
  }
  window.addEventListener("resize", () => { // lines wrap anew: fitted anew, the newest kept in sight
    const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    fitWholeLines();
    if (stick) list.scrollTop = list.scrollHeight;
  });

  function renderChat() {
    title.textContent = t("ui.chat_title");
    input.placeholder = t("ui.chat_placeholder");
    submit.textContent = t("ui.chat_send");
    renderLines();
    form.hidden = pane.me === null || pane.over;
    need.hidden = pane.me !== null || pane.over;
    need.textContent = t("ui.chat_need_account");
    mutedBox.replaceChildren();
    if (pane.muted.size) {
      mutedBox.append(el("span", { class: "muted", text: t("ui.chat_muted") }),
        ...[...pane.muted].map((id) => {
          const name = pane.names.get(id) || `#${id}`;
          return el("button", { type: "button", class: "small chat-unmute", testid: "chat-unmute",
            "data-account": id, text: name, title: t("ui.chat_unmute", { name }),
            "aria-label": t("ui.chat_unmute", { name }),
            onclick: () => send({ type: "mute", account: id, muted: false }) });
        }));
    }
  }

  function renderHost() {
    const state = pane.state;
    const you = state && state.you;
    host.hidden = !(you && you.host) || pane.over; // a closed table has nothing to host
    host.replaceChildren();
    if (host.hidden) return;
    const table = state.table;
    host.append(el("h2", { text: t("ui.host_title") }));
    if (table.private && you.invite) {
      const link = `${location.origin}/tables/${table.id}?invite=${encodeURIComponent(you.invite)}`;
      const field = el("input", { class: "invite-link", testid: "invite-link", readOnly: true, value: link,
        "aria-label": t("ui.invite_link"), onfocus: (event) => event.target.select() });
      host.append(el("label", { class: "muted", text: t("ui.invite_link") }), field,
        el("div", { class: "host-row" },
          el("button", { type: "button", class: "small", testid: "invite-copy", text: t("ui.invite_copy"),
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(link);
              } catch {
                field.select();
                document.execCommand("copy");
              }
              toast(t("ui.invite_copied"), "info");
            } }),
          el("button", { type: "button", class: "small", testid: "invite-renew", text: t("ui.invite_renew"),
            title: t("ui.invite_renew_note"), onclick: () => send({ type: "renew_invite" }) })));
    }
    host.append(el("div", { class: "host-row" },
      state.closing ? "" : table.paused
        ? el("button", { type: "button", class: "small primary", testid: "host-resume", text: t("ui.resume"),
          disabled: state.closing, onclick: () => send({ type: "resume" }) })
        : el("button", { type: "button", class: "small", testid: "host-pause", text: t("ui.pause"),
          onclick: () => send({ type: "pause" }) }),
      el("button", { type: "button", class: "small danger", testid: "host-close", text: t("ui.close_table"),
        disabled: state.closing, onclick: () => {
          if (window.confirm(t("ui.close_confirm"))) send({ type: "close_table" });
        } })));
    const others = state.seats.filter((p) => p && !p.bot && p.seat !== you.seat);
    if (others.length) {
      host.append(el("ul", { class: "host-players" }, others.map((p) =>
        el("li", {}, el("span", { class: "name", text: p.name }),
          el("button", { type: "button", class: "small", testid: `host-remove-${p.seat}`,
            text: t("ui.remove_player"), title: t("ui.remove_player_title", { name: p.name }),
            disabled: p.leaving, onclick: () => send({ type: "remove_player", seat: p.seat }) })))));
    }
  }

  let waitTimer = null;
  function renderWait() {
    const state = pane.state;
    clearInterval(waitTimer);
    wait.replaceChildren();
    const paused = state && state.table.paused;
    const ms = state && !state.hand ? state.next_hand_ms : null;
    wait.hidden = pane.over || !(paused || (ms !== null && ms !== undefined && ms > 0));
    if (wait.hidden) return;
    if (state.closing) { // paused too, by the close: no hand after this one
      wait.append(el("span", { testid: "closing", text: t("ui.closing") }));
      return;
    }
    if (paused) {
      wait.append(el("span", { testid: "paused", text: t("ui.paused") }));
      return;
    }
    const until = performance.now() + ms;
    const words = el("span", { testid: "next-hand-in" });
    const tick = () => {
      const left = Math.max(0, until - performance.now());
      words.textContent = t("ui.next_hand_in", { s: Math.ceil(left / 1000) });
      if (left <= 0) clearInterval(waitTimer);
    };
    tick();
    waitTimer = setInterval(tick, 250);
    const you = state.you || {};
    wait.append(words);
    if (you.seat || you.host) {
      wait.append(el("button", { type: "button", class: "small primary", testid: "deal-now",
        text: t("ui.deal_now"), onclick: () => send({ type: "start" }) }));
    }
  }

  function renderAll() {
    renderChat();
    renderHost();
    renderWait();
  }

  onLangChange(renderAll);
  renderAll();

  return {
    /** A refused chat line (too many lines, too long): it goes back into the empty input, so
     * that it can be sent again, and why (`text`, in the reader's language) is said beside the
     * field, not in a toast; true when the error was the chat's. */
    onError(frame, text = refusalText(frame.code, frame.message)) {
      if (frame.code !== "chat_rate" && frame.code !== "bad_chat") return false;
      if (pane.unsent !== null && !input.value) input.value = pane.unsent;
      pane.unsent = null;
      sayProblem(text);
      return true;
    },
    /** A chat, notice or muted frame. */
    onFrame(frame) {
      if (frame.type === "chat") {
        if (!frame.history && frame.lines.some((l) => l.account === pane.me)) pane.unsent = null;
        // The history (on every connection, a reconnection too) carries the notices and the
        // hands won since the oldest line: it replaces everything shown.
        if (frame.history) pane.entries = [];
        for (const line of frame.lines) {
          pane.names.set(line.account, line.name);
          if (!pane.muted.has(line.account)) add({ kind: "chat", ...line });
        }
      } else if (frame.type === "muted") {
        pane.muted = new Set(frame.accounts);
        // Their lines are not sent: the frame names them.
        for (const [id, name] of Object.entries(frame.names || {})) pane.names.set(Number(id), name);
        pane.entries = pane.entries.filter((e) => e.kind !== "chat" || !pane.muted.has(e.account));
      } else if (frame.type === "notice") {
        add({ ...frame, at: frame.at || new Date().toISOString() }); // a kept one says when
      }
      renderChat();
    },
    /** Every state frame: who won the hand that just ended, the host's panel, the wait. */
    onState(state) {
      pane.state = state;
      pane.me = state.you && state.you.account !== undefined ? state.you.account : null;
      const last = state.hand && state.hand.over ? state.hand : state.last;
      if (last && last.number !== pane.lastWon && pane.lastWon !== null) {
        const pots = (last.events || []).filter((e) => e.kind === "pot");
        const told = pane.entries.some((e) => e.kind === "won" && e.number === last.number);
        if (pots.length && !told) {
          add({ kind: "won", number: last.number, pots, players: last.players || [],
                at: new Date().toISOString() });
        }
      }
      if (last) pane.lastWon = last.number;
      else if (pane.lastWon === null) pane.lastWon = 0;
      renderAll();
    },
    /** A table one may not (or can no longer) sit at: no chat, no host's panel, no wait;
     * with ``readable``, the chat's lines stay there to read, with nothing to write. */
    shut(readable = false) {
      pane.over = true;
      clearInterval(waitTimer);
      for (const part of [host, wait]) part.hidden = true;
      panel.hidden = !readable;
      renderChat();
    },
    chips,
    tableId,
  };
}
