// The rules page (/tables/{id}/rules): the rules of one table's variant with its stakes filled
// in, and the value of each of its policies in plain words, in English or German. Every
// statement follows RULES.md, section by section. The page reads GET /api/tables/{id}, and its
// words from the catalogues every page shares (i18n.js).

import {
  has as hasText, lang, onLangChange, paintSwitch, setLang, t as text, variantTitle,
} from "./i18n.js";

// The policies of stud.rules.POLICIES, in that order (tests/server/test_rules_page.py checks).
const POLICIES = /* POLICIES-BEGIN */ ["open_pair_big_bet", "max_bets", "heads_up_uncapped",
  "first_actor_tie", "odd_chip", "deck_exhaustion", "short_bring_in", "short_all_in",
  "fold_facing_all_in_bring_in", "short_bring_in_completes", "all_in_raise_for_less",
  "odd_chip_shares", "hi_lo_halves", "scoop_split", "all_in_muck", "free_fold"]
  /* POLICIES-END */;

// The `standard` profile's values, to mark what a table changes (RULES.md §9).
const STANDARD = /* STANDARD-BEGIN */ {"open_pair_big_bet": true, "max_bets": 4,
  "heads_up_uncapped": true, "first_actor_tie": "seat", "odd_chip": "suit",
  "deck_exhaustion": "community", "short_bring_in": "full", "short_all_in": "half_bet",
  "fold_facing_all_in_bring_in": true, "short_bring_in_completes": false,
  "all_in_raise_for_less": true, "odd_chip_shares": "one_each", "hi_lo_halves": "qualified",
  "scoop_split": "whole_pot", "all_in_muck": false, "free_fold": false}
  /* STANDARD-END */;

// Every word of the page is in the shared catalogues (src/stud/text/en.json and de.json),
// under "rules." and the keys below: ui_* the page, sec_* section titles, s<n>_* statements of
// RULES.md §n, variant_<v>_intro, profile_<name>, policy_<name> (its title) and
// policy_<name>_<value> (its value explained; max_bets, a number, has policy_max_bets_n).
// {name} is filled in; `text` is set as code. A variant's title is the shared variant.<v>.

// Policies that decide only how a hi/lo pot is split.
const HI_LO_ONLY = ["hi_lo_halves", "scoop_split"];

// The sections of the page, one per section of RULES.md. `items` gives the statements for a
// variant and rules; `policies` the policies that decide a point of the section.
const SECTIONS = [
  {id: "game", cite: 1, title: "sec_game",
    items: () => ["s1_limit", "s1_players"], policies: () => []},
  {id: "dealing", cite: 2, title: "sec_dealing",
    items: () => ["s2_deck", "s2_third", "s2_later", "s2_burn", "s2_exhaustion"],
    policies: () => ["deck_exhaustion"]},
  {id: "bring-in", cite: 3, title: "sec_bring_in",
    items: (v) => [v === "razz" ? "s3_highest" : "s3_lowest", "s3_choice", "s3_action",
      "s3_cap", "s3_short"],
    policies: () => ["short_bring_in", "fold_facing_all_in_bring_in", "short_bring_in_completes"]},
  {id: "streets", cite: 4, title: "sec_streets",
    items: (v, rules) => [v === "razz" ? "s4_first_low" : "s4_first_high", "s4_tie",
      "s4_fourth", openPairKey(v, rules), "s4_big"],
    policies: (v) => (v === "razz" ? ["first_actor_tie"]
      : ["first_actor_tie", "open_pair_big_bet"])},
  {id: "limits", cite: 5, title: "sec_limits",
    items: () => ["s5_cap", "s5_heads_up", "s5_all_in", "s5_less", "s5_side_pots"],
    policies: () => ["max_bets", "heads_up_uncapped", "short_all_in", "all_in_raise_for_less",
      "free_fold"]},
  {id: "showdown", cite: 6, title: "sec_showdown",
    items: (v) => [v === "razz" ? "s6_order_razz" : "s6_order", "s6_muck",
      {stud: "s6_win_stud", stud8: "s6_win_stud8", razz: "s6_win_razz"}[v] || "s6_win_stud",
      "s6_odd_chip", "s6_next"],
    policies: () => ["odd_chip", "odd_chip_shares", "all_in_muck"]},
  {id: "hilo", cite: 7, title: "sec_hilo", only: "stud8",
    items: () => ["s7_same", "s7_split", "s7_qualify", "s7_compare", "s7_no_low",
      "s7_scoop", "s7_ties"],
    policies: () => ["odd_chip", "hi_lo_halves", "scoop_split"]},
  {id: "razz", cite: 8, title: "sec_razz", only: "razz",
    items: () => ["s8_lowball", "s8_order"], policies: () => []},
];

function openPairKey(variant, rules) {
  if (variant === "razz") return "s4_open_pair_razz";
  return rules.open_pair_big_bet === false ? "s4_open_pair_off" : "s4_open_pair_on";
}

// ---------------------------------------------------------------- the language

const has = (key) => hasText(`rules.${key}`);
const t = (key, params = {}) => text(`rules.${key}`, params);

// ---------------------------------------------------------------- building the page

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("data-") || name.startsWith("aria-") || name === "href"
      || name === "id" || name === "role" || name === "type" || name === "title") {
      node.setAttribute(name, value);
    } else node[name] = value;
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A statement as nodes: `policy_name` becomes code, red suits are coloured. Only text nodes
// are made, so nothing the server sends can become markup.
function rich(text) {
  const nodes = [];
  text.split("`").forEach((part, i) => {
    if (i % 2 === 1) {
      nodes.push(el("code", {text: part}));
      return;
    }
    for (const piece of part.split(/([♥♦])/)) {
      if (piece === "♥" || piece === "♦") nodes.push(el("span", {class: "rp-red", text: piece}));
      else if (piece) nodes.push(document.createTextNode(piece));
    }
  });
  return nodes;
}

function params(table) {
  const stakes = table.stakes || {};
  const rules = rulesOf(table);
  const maxBets = Number.isInteger(rules.max_bets) ? rules.max_bets : STANDARD.max_bets;
  return {
    ante: stakes.ante, bring_in: stakes.bring_in, small: stakes.small_bet,
    big: stakes.big_bet, max_bets: maxBets, raises: Math.max(0, maxBets - 1),
    name: table.name, id: table.id,
  };
}

function rulesOf(table) {
  const rules = table.rules;
  if (typeof rules === "string") return {name: rules};
  return rules && typeof rules === "object" ? rules : {};
}

function policyValueKey(name, value) {
  if (name === "max_bets") return "policy_max_bets_n";
  return `policy_${name}_${typeof value === "boolean" ? String(value) : value}`;
}

function policyText(name, value, variant, p) {
  if (value === undefined || value === null) return t("ui_missing");
  if (name === "open_pair_big_bet" && variant === "razz") {
    return `${t("policy_open_pair_big_bet_razz")} ${t(policyValueKey(name, value), p)}`;
  }
  const key = policyValueKey(name, value);
  let text = has(key) ? t(key, p) : t("ui_unknown_value", {value: String(value)});
  if (name === "odd_chip" && variant === "stud8") text += ` ${t("policy_odd_chip_hilo")}`;
  return text;
}

function valueLabel(value) {
  if (value === undefined || value === null) return "—";
  return String(value);
}

function policyChip(name, rules) {
  return el("a", {class: "rp-chip", href: `#policy-${name}`},
    el("code", {text: `${name} = ${valueLabel(rules[name])}`}));
}

function summary(table, variant, p) {
  const rules = rulesOf(table);
  const row = (label, value, testid, wide = false) =>
    el("div", {class: wide ? "rp-fact rp-fact-wide" : "rp-fact", "data-testid": testid},
      el("dt", {text: label}), el("dd", {text: value}));
  return el("dl", {class: "rp-facts", "data-testid": "rules-stakes"},
    row(t("ui_game"), variantTitle(variant, table.title),
      "rules-game", true),
    row(t("ui_limit"), t("ui_limit_value", p), "rules-limit"),
    row(t("ui_profile"), valueLabel(rules.name), "rules-profile-name"),
    row(t("ui_ante"), valueLabel(p.ante), "rules-ante"),
    row(t("ui_bring_in"), valueLabel(p.bring_in), "rules-bring-in"),
    row(t("ui_small_bet"), valueLabel(p.small), "rules-small-bet"),
    row(t("ui_big_bet"), valueLabel(p.big), "rules-big-bet"));
}

function cite(n) {
  return el("span", {class: "rp-cite", text: `RULES.md §${n}`});
}

function variantSection(table, variant, p) {
  const rules = rulesOf(table);
  const sections = SECTIONS.filter((s) => !s.only || s.only === variant);
  const nav = el("nav", {class: "rp-toc", "aria-label": t("ui_contents")},
    sections.map((s) => el("a", {href: `#rules-${s.id}`, text: t(s.title)})),
    el("a", {href: "#rules-policies", text: t("ui_policies")}));
  const parts = sections.map((s) => {
    const policies = s.policies(variant);
    return el("section", {class: "rp-section", id: `rules-${s.id}`,
      "data-testid": `rules-section-${s.id}`},
    el("h3", {}, el("span", {text: t(s.title)}), cite(s.cite)),
    el("ul", {}, s.items(variant, rules).map((key) => el("li", {}, rich(t(key, p))))),
    policies.length ? el("p", {class: "rp-at-table"}, t("ui_at_this_table"), " ",
      policies.map((name) => policyChip(name, rules))) : null);
  });
  return el("section", {class: "rp-variant", "data-testid": "rules-variant",
    "data-variant": variant},
  el("h2", {text: variantTitle(variant, table.title)}),
  el("p", {class: "rp-intro"}, rich(t(`variant_${variant}_intro`, p))),
  nav, parts);
}

function policiesSection(table, variant, p) {
  const rules = rulesOf(table);
  const profile = String(rules.name ?? "");
  const profileKey = `profile_${profile.replace(/-/g, "_")}`;
  const rows = POLICIES.map((name) => {
    const value = rules[name];
    const standard = value === STANDARD[name];
    const inert = name === "open_pair_big_bet" && variant === "razz";
    const hiLoOnly = HI_LO_ONLY.includes(name) && variant !== "stud8";
    let badge = standard ? "ui_standard" : "ui_differs";
    if (inert) badge = "ui_no_effect";
    else if (hiLoOnly) badge = "ui_hilo_only";
    return el("li", {class: "rp-policy", id: `policy-${name}`,
      "data-testid": `policy-${name}`, "data-value": valueLabel(value)},
    el("div", {class: "rp-policy-head"},
      el("span", {class: "rp-policy-title", text: t(`policy_${name}`)}),
      el("code", {class: "rp-policy-value", text: `${name} = ${valueLabel(value)}`}),
      el("span", {class: badge === "ui_differs" ? "rp-badge rp-badge-differs" : "rp-badge",
        text: t(badge)})),
    el("p", {}, rich(policyText(name, value, variant, p))));
  });
  // Policies the server sends that this page does not know yet, shown as they are.
  const extra = Object.keys(rules).filter((k) => k !== "name" && !POLICIES.includes(k));
  for (const name of extra) {
    rows.push(el("li", {class: "rp-policy", id: `policy-${name}`,
      "data-testid": `policy-${name}`},
    el("div", {class: "rp-policy-head"},
      el("code", {class: "rp-policy-value", text: `${name} = ${valueLabel(rules[name])}`}))));
  }
  return el("section", {class: "rp-policies", id: "rules-policies",
    "data-testid": "rules-policies"},
  el("h2", {}, el("span", {text: t("ui_policies")}), cite(9)),
  el("p", {class: "rp-intro", text: t("ui_policies_intro")}),
  el("div", {class: "rp-profile", "data-testid": "rules-profile"},
    el("div", {class: "rp-policy-head"},
      el("span", {class: "rp-policy-title", text: t("ui_profile")}),
      el("code", {class: "rp-policy-value", text: profile || "—"})),
    el("p", {text: has(profileKey) ? t(profileKey) : t("ui_unknown_profile")})),
  el("ol", {class: "rp-policy-list"}, rows));
}

// ---------------------------------------------------------------- state and rendering

const state = {id: null, table: null, error: null};

function tableIdFromPath() {
  const match = location.pathname.match(/\/tables\/(\d+)(?:\/|$)/);
  return match ? match[1] : null;
}

function render() {
  document.documentElement.lang = lang();
  const languages = document.querySelector("[data-testid=lang-switch]");
  if (languages) paintSwitch(languages);
  const back = document.getElementById("rp-back");
  if (back) {
    back.textContent = t("ui_back");
    // A table that does not exist has no page to go back to: the lobby instead.
    back.href = state.id && state.error !== 404 ? `/tables/${state.id}` : "/";
  }
  const lobby = document.getElementById("rp-lobby");
  if (lobby) lobby.textContent = t("ui_lobby");
  const brand = document.getElementById("rp-brand");
  if (brand) brand.setAttribute("aria-label", t("ui_lobby"));
  const main = document.getElementById("rules");
  const heading = document.getElementById("rp-heading");
  const table = state.table;
  if (!table) {
    document.title = `${t("ui_title")} · stud`;
    heading.textContent = t("ui_title");
    let message;
    if (!state.id) message = t("ui_no_id");
    else if (state.error === 404) message = t("ui_not_found", {id: state.id});
    else if (state.error) message = t("ui_load_failed", {id: state.id, status: state.error});
    else message = t("ui_loading", {id: state.id});
    main.replaceChildren(el("p", {class: state.error || !state.id ? "rp-status rp-error"
      : "rp-status", "data-testid": "rules-status", role: "status", text: message}));
    return;
  }
  const variant = String(table.variant || "");
  const p = params(table);
  heading.textContent = t("ui_heading", {name: table.name ?? `#${state.id}`});
  document.title = `${t("ui_title")} · ${table.name ?? state.id} · stud`;
  main.replaceChildren(
    summary(table, variant, p),
    variantSection(table, variant, p),
    policiesSection(table, variant, p),
    el("p", {class: "rp-sources", text: t("ui_sources")}));
}

async function load() {
  state.id = tableIdFromPath();
  render();
  if (!state.id) return;
  try {
    const response = await fetch(`/api/tables/${state.id}`, {headers: {Accept: "application/json"}});
    if (!response.ok) {
      state.error = response.status;
    } else {
      state.table = await response.json();
    }
  } catch (error) {
    state.error = error && error.message ? error.message : String(error);
  }
  render();
}

function start() {
  for (const button of document.querySelectorAll("[data-testid=lang-switch] button")) {
    button.addEventListener("click", () => setLang(button.dataset.lang));
  }
  onLangChange(render);
  load();
}

window.studRules = {setLang, render, POLICIES};
start();
