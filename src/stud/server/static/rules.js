// The rules page (/tables/{id}/rules): the rules of one table's variant with its stakes filled
// in, and the value of each of its policies in plain words, in English or German. Every
// statement follows RULES.md, section by section. The page reads GET /api/tables/{id} and
// nothing else; it is self-contained (no module, no build step).
"use strict";

(() => {
  const STORAGE_KEY = "stud.lang";
  const LANGS = ["en", "de"];

  // The policies of stud.rules.POLICIES, in that order (tests/server/test_rules_page.py checks).
  const POLICIES = /* POLICIES-BEGIN */ ["open_pair_big_bet", "max_bets", "heads_up_uncapped",
    "first_actor_tie", "odd_chip", "deck_exhaustion", "short_bring_in",
    "short_all_in"] /* POLICIES-END */;

  // The `standard` profile's values, to mark what a table changes (RULES.md §9).
  const STANDARD = /* STANDARD-BEGIN */ {"open_pair_big_bet": true, "max_bets": 4,
    "heads_up_uncapped": true, "first_actor_tie": "seat", "odd_chip": "suit",
    "deck_exhaustion": "community", "short_bring_in": "full",
    "short_all_in": "half_bet"} /* STANDARD-END */;

  // Every word of the page. Kept as strict JSON so the test can read it as data. Keys:
  // ui_* the page, sec_* section titles, s<n>_* statements of RULES.md §n, variant_<v>,
  // profile_<name>, policy_<name> (its title) and policy_<name>_<value> (its value explained;
  // max_bets, a number, has policy_max_bets_n). {name} is filled in; `text` is set as code.
  const TEXT = /* TEXT-BEGIN */ {
"en": {
  "ui_title": "Rules",
  "ui_heading": "Rules: {name}",
  "ui_back": "← Back to the table",
  "ui_lobby": "Lobby",
  "ui_loading": "Loading table {id}…",
  "ui_not_found": "There is no table {id}.",
  "ui_load_failed": "Table {id} could not be loaded ({status}).",
  "ui_no_id": "This address names no table.",
  "ui_game": "Game",
  "ui_limit": "Limit",
  "ui_limit_value": "Fixed limit {small}/{big}",
  "ui_ante": "Ante",
  "ui_bring_in": "Bring-in",
  "ui_small_bet": "Small bet",
  "ui_big_bet": "Big bet",
  "ui_profile": "Rules profile",
  "ui_contents": "Contents",
  "ui_policies": "This table's policies",
  "ui_policies_intro": "Where the rulebooks disagree, the choice is a named policy, and a profile is a named set of policies. These are the values at this table.",
  "ui_at_this_table": "At this table:",
  "ui_standard": "standard",
  "ui_differs": "differs from standard",
  "ui_no_effect": "no effect in razz",
  "ui_missing": "not given by the server",
  "ui_unknown_value": "Value {value} (no description).",
  "ui_unknown_profile": "A profile this page does not know.",
  "ui_sources": "Sources: the project's German rules text (the seed), Robert's Rules of Poker (RRoP) and the WSOP 2024 Live Action Rules (WSOP), as collected in RULES.md.",
  "sec_game": "Game and stakes",
  "sec_dealing": "Dealing",
  "sec_bring_in": "Third street: the bring-in",
  "sec_streets": "Fourth to seventh street",
  "sec_limits": "Betting limits and all-ins",
  "sec_showdown": "Showdown",
  "sec_hilo": "Hi/Lo, 8 or better",
  "sec_razz": "Razz: the lowest hand wins",
  "variant_stud": "Seven Card Stud",
  "variant_stud8": "Seven Card Stud Hi/Lo (8 or better)",
  "variant_razz": "Razz",
  "variant_stud_intro": "Seven Card Stud, high only: every player gets seven cards of their own, three face down and four face up, and the best five-card poker hand wins the pot.",
  "variant_stud8_intro": "Played like Seven Card Stud, but at the showdown the pot is split: half to the best high hand, half to the best low hand of five different cards 8 or lower. If nobody has such a low, the best high hand takes it all.",
  "variant_razz_intro": "Seven card stud played for low (A-5 lowball): the lowest five-card hand wins the whole pot. Aces are low, straights and flushes do not count, and there is no qualifier. Razz is an extra variant beyond the German rules text.",
  "s1_limit": "Fixed limit, with ante {ante}, bring-in {bring_in}, small bet {small} and big bet {big}. Bets and raises have fixed sizes (all-ins aside); §3 to §5 say which size applies on which street.",
  "s1_players": "2 to 8 players. Before the deal every player in the hand posts the ante ({ante}). A player who cannot cover the ante posts what they have and is all-in.",
  "s2_deck": "Every hand is dealt from a fresh, shuffled 52-card deck.",
  "s2_third": "Third street: every player gets two cards face down (the hole cards) and one card face up, one card at a time clockwise from seat 1.",
  "s2_later": "Fourth, fifth and sixth street: one more card face up each. Seventh street (the river): one last card face down. So every player ends with three down cards and four up cards.",
  "s2_burn": "One card is burned before fourth, fifth, sixth and seventh street.",
  "s2_exhaustion": "Only when 8 players reach seventh street can the deck run out of cards. Then one community card may be dealt face up in the centre, which is every remaining player's seventh card; the details are the policy `deck_exhaustion`.",
  "s3_lowest": "The player with the lowest up card brings in; the ace counts high. Ties in rank are broken by suit, from lowest to highest: clubs ♣, diamonds ♦, hearts ♥, spades ♠. So with 2♣ and 2♥ showing, the 2♣ brings in.",
  "s3_highest": "In razz the player with the highest up card brings in; the king is the highest card and the ace the lowest. Ties in rank are broken by suit, and the highest suit brings in: spades ♠, then hearts ♥, diamonds ♦, clubs ♣. So with K♠ and K♥ showing, the K♠ brings in.",
  "s3_choice": "The bring-in player chooses: post the bring-in of {bring_in}, or complete to the small bet of {small}.",
  "s3_action": "Then action goes clockwise. Facing only the bring-in, a player may fold, call the bring-in ({bring_in}), or complete to {small}. After a completion, every raise is by the small bet ({small}).",
  "s3_cap": "The completion counts as the first bet for the cap on raises; the bring-in does not.",
  "s3_short": "A bring-in player too short for the bring-in posts what is left and is all-in; what the others must then call is the policy `short_bring_in`. If the player with the bring-in card is already all-in from the ante, the next player clockwise acts first and may fold, bring in or complete.",
  "s4_first_high": "From fourth street on, the player whose up cards make the best poker hand acts first. Only pairs, two pair, three and four of a kind count, then the high cards in order (A-K beats A-Q); straights and flushes do not.",
  "s4_first_low": "From fourth street on, the player whose up cards make the lowest (A-5) hand acts first.",
  "s4_tie": "A tie for first to act is decided by the policy `first_actor_tie`. If that player is all-in, the next player clockwise who can still act starts.",
  "s4_fourth": "Fourth street: check, or bet the small bet ({small}).",
  "s4_open_pair_on": "Open pair: if any player still in the hand shows a pair on fourth street, any player may bet either the small bet ({small}) or the big bet ({big}). After a small bet a raise may be small or big; once a big bet or raise is made, every later raise on that street is big. If the first player checks, the option passes on.",
  "s4_open_pair_off": "Open pair: at this table an open pair on fourth street changes nothing; bets and raises stay the small bet ({small}).",
  "s4_open_pair_razz": "Open pair: in razz an open pair on fourth street never allows the big bet; bets and raises stay the small bet ({small}).",
  "s4_big": "Fifth, sixth and seventh street: every bet and raise is the big bet ({big}).",
  "s5_cap": "Cap: at most {max_bets} bets per street, that is one bet (or completion) and {raises} raises, while three or more players who are not all-in are in the hand. The bring-in does not count.",
  "s5_heads_up": "Whether raising is unlimited once only two players who are not all-in remain is the policy `heads_up_uncapped`.",
  "s5_all_in": "A player may always call or bet for less and be all-in. Whether such a short all-in reopens the betting is the policy `short_all_in`.",
  "s5_less": "Otherwise a bet or raise smaller than the full amount is allowed only when it already puts every opponent all-in. An uncalled bet, or the uncalled part of a bet, goes back to its owner before the showdown.",
  "s5_side_pots": "Side pots: an all-in player is eligible only for what they matched. Every pot is awarded separately among the players eligible for it, the last-formed side pot first.",
  "s6_order": "If more than one player is left after the last betting round, the last player who bet or raised on seventh street shows first; if nobody bet, the player whose up cards are best shows first. Then the others show clockwise.",
  "s6_order_razz": "If more than one player is left after the last betting round, the last player who bet or raised on seventh street shows first; if nobody bet, the player whose up cards are best (in razz: lowest) shows first. Then the others show clockwise.",
  "s6_muck": "A player who cannot win any part of a pot may muck instead of showing; mucked cards are never shown to anyone, not even in the hand history. When a player is all-in and no more betting is possible, all live hands are turned face up.",
  "s6_win_stud": "The best five-card hand out of seven wins. Equal hands split the pot equally.",
  "s6_win_stud8": "The high half goes to the best five-card hand out of seven, the low half as in §7. Equal hands split their part equally.",
  "s6_win_razz": "The lowest five-card hand out of seven wins (§8). Equal hands split the pot equally.",
  "s6_odd_chip": "A chip that cannot be split goes as the policy `odd_chip` says.",
  "s6_next": "After the pot is awarded a new hand may begin. There is no button in stud: seat 1 is always the first seat to the dealer's left.",
  "s7_same": "Everything above applies unchanged: structure, bring-in, order of play and betting.",
  "s7_split": "At the showdown each pot is split: half to the best high hand, half to the best qualifying low hand.",
  "s7_qualify": "A low qualifies with five cards of different ranks, all 8 or lower (“8 or better”). The ace is low; straights and flushes do not count against a low.",
  "s7_compare": "Lows compare from the highest card down: 8-7-6-5-4 is the worst low and 5-4-3-2-A the best, and 7-6-4-3-2 beats 8-5-4-3-2.",
  "s7_no_low": "If no hand qualifies for low, the best high hand wins the whole pot.",
  "s7_scoop": "A player may use different five cards for high and low, and may win both halves (a scoop).",
  "s7_ties": "Ties within a half split that half: two tied lows get a quarter of the pot each. An odd chip between the halves goes to the high half; odd chips within a half follow the policy `odd_chip`. Identical hands that win both halves split the whole pot as evenly as possible.",
  "s8_lowball": "A-5 lowball with no qualifier: the best five unpaired low cards win. The ace is low, straights and flushes do not count, pairs are bad. The best hand is 5-4-3-2-A; hands compare from the highest card down, so 7-5-4-3-2 beats 8-4-3-2-A.",
  "s8_order": "Bring-in and order of play as in §3 and §4: the highest up card brings in, and from fourth street on the lowest showing hand acts first.",
  "profile_standard": "The project's default rules: the German rules text, and Robert's Rules of Poker and the WSOP rules where it is silent.",
  "profile_pokerkit": "For cross-checking with PokerKit 0.7: PokerKit's choice in every policy, and PokerKit's own behaviour where the policies do not settle a point (such as trimming antes and the details of short all-ins).",
  "profile_custom": "The standard rules with some policies changed (marked below).",
  "profile_pokerkit_custom": "The pokerkit profile with some policies changed (marked below).",
  "policy_open_pair_big_bet": "Big bet on an open pair (fourth street)",
  "policy_open_pair_big_bet_true": "On: if any player still in the hand shows an open pair on fourth street, any player may bet or raise the big bet ({big}) instead of the small bet ({small}); once a big bet or raise is made, every later raise on that street is big. Applies to stud and stud8, since the German rules text gives Hi/Lo the same betting rules (Robert's Rules).",
  "policy_open_pair_big_bet_false": "Off: fourth street is always played with the small bet ({small}), open pair or not (WSOP, PokerKit).",
  "policy_open_pair_big_bet_razz": "Has no effect in razz: razz never has the big-bet option on fourth street.",
  "policy_max_bets": "Cap on bets per street",
  "policy_max_bets_n": "{max_bets}: one bet (or completion) and {raises} raises per street, while three or more players who are not all-in are in the hand; the bring-in is not a bet (Robert's Rules: 4).",
  "policy_heads_up_uncapped": "Unlimited raising heads-up",
  "policy_heads_up_uncapped_true": "On: once no more than two players who are not all-in remain, raising is unlimited, if that happened before the cap was reached on this street; a street that is already capped stays capped (Robert's Rules).",
  "policy_heads_up_uncapped_false": "Off: the cap always holds, even heads-up (PokerKit).",
  "policy_first_actor_tie": "Tie for first to act",
  "policy_first_actor_tie_seat": "Seat: when the up cards of two or more players tie for first to act, the one first clockwise from the dealer (the lowest seat number) acts first (Robert's Rules, WSOP Live Action Rules).",
  "policy_first_actor_tie_suit": "Suit: when the up cards of two or more players tie for first to act, the tied player holding the highest card by suit acts first (WSOP tournaments).",
  "policy_odd_chip": "Odd chips",
  "policy_odd_chip_suit": "Suit: a chip left over when a pot is split goes to the tied winner whose five-card hand holds the highest card by suit; in a low split, to the one holding the lowest card by suit (TDA, WSOP).",
  "policy_odd_chip_seat": "Seat: a chip left over when a pot is split goes to the tied winner first clockwise from the dealer (the lowest seat number) (PokerKit).",
  "policy_odd_chip_hilo": "In hi/lo an odd chip between the high and the low half always goes to the high half.",
  "policy_deck_exhaustion": "Running out of cards",
  "policy_deck_exhaustion_community": "Community card: if the stub cannot give every remaining player a card after a burn, no card is burned; if it still cannot, one community card is dealt face up in the centre, and it is every remaining player's seventh card (Robert's Rules, online practice).",
  "policy_deck_exhaustion_reshuffle": "Reshuffle: the burned and mucked cards are shuffled into the stub first; a community card is dealt only if that is still not enough (PokerKit).",
  "policy_short_bring_in": "Short bring-in",
  "policy_short_bring_in_full": "Full: a bring-in player who has less than the bring-in posts what is left and is all-in; the others must still call at least the full bring-in ({bring_in}) (WSOP rule 217).",
  "policy_short_bring_in_posted": "Posted: a bring-in player who has less than the bring-in posts what is left and is all-in; the others call only what was posted (PokerKit).",
  "policy_short_all_in": "Short all-in",
  "policy_short_all_in_half_bet": "Half a bet: an all-in of less than half a bet does not reopen the betting for a player who has already acted and is in for all earlier bets; a player who has not acted yet (or to whom the betting was reopened) may fold, call, or complete it to a full bet or raise. An all-in of half a bet or more counts as a full bet or raise: the next player may fold, call, or make a full raise, to the all-in amount plus one bet (an all-in of 15 on a street where the bet is 20 is raised to 35). Several short all-ins that together make a full raise reopen the betting (Robert's Rules).",
  "policy_short_all_in_full_bet": "Full bet: a short all-in never reopens the betting for players who have already acted, and any raise is to the current amount plus one full bet (PokerKit)."
},
"de": {
  "ui_title": "Regeln",
  "ui_heading": "Regeln: {name}",
  "ui_back": "← Zurück zum Tisch",
  "ui_lobby": "Lobby",
  "ui_loading": "Tisch {id} wird geladen …",
  "ui_not_found": "Einen Tisch {id} gibt es nicht.",
  "ui_load_failed": "Tisch {id} konnte nicht geladen werden ({status}).",
  "ui_no_id": "Diese Adresse nennt keinen Tisch.",
  "ui_game": "Spiel",
  "ui_limit": "Limit",
  "ui_limit_value": "Fixed Limit {small}/{big}",
  "ui_ante": "Ante",
  "ui_bring_in": "Bring-In",
  "ui_small_bet": "Small Bet",
  "ui_big_bet": "Big Bet",
  "ui_profile": "Regelprofil",
  "ui_contents": "Inhalt",
  "ui_policies": "Die Regeloptionen dieses Tisches",
  "ui_policies_intro": "Wo sich die Regelwerke widersprechen, ist die Wahl eine benannte Option; ein Profil ist ein benannter Satz solcher Optionen. Das sind die Werte an diesem Tisch.",
  "ui_at_this_table": "An diesem Tisch:",
  "ui_standard": "Standard",
  "ui_differs": "weicht vom Standard ab",
  "ui_no_effect": "im Razz ohne Wirkung",
  "ui_missing": "vom Server nicht angegeben",
  "ui_unknown_value": "Wert {value} (ohne Beschreibung).",
  "ui_unknown_profile": "Ein Profil, das diese Seite nicht kennt.",
  "ui_sources": "Quellen: der deutsche Regeltext des Projekts (Seed), Robert's Rules of Poker (RRoP) und die WSOP 2024 Live Action Rules (WSOP), zusammengefasst in RULES.md.",
  "sec_game": "Spiel und Einsätze",
  "sec_dealing": "Das Geben",
  "sec_bring_in": "Third Street: der Bring-In",
  "sec_streets": "Fourth bis Seventh Street",
  "sec_limits": "Einsatzgrenzen und All-ins",
  "sec_showdown": "Showdown",
  "sec_hilo": "Hi/Lo, 8 oder besser",
  "sec_razz": "Razz: das niedrigste Blatt gewinnt",
  "variant_stud": "Seven Card Stud",
  "variant_stud8": "Seven Card Stud Hi/Lo (8 oder besser)",
  "variant_razz": "Razz",
  "variant_stud_intro": "Seven Card Stud, nur High: Jeder Spieler erhält sieben eigene Karten, drei verdeckt und vier aufgedeckt, und das beste Fünf-Karten-Blatt gewinnt den Pot.",
  "variant_stud8_intro": "Gespielt wie Seven Card Stud, aber im Showdown wird der Pot geteilt: eine Hälfte an das beste High-Blatt, die andere an das beste Low-Blatt aus fünf verschiedenen Karten von 8 abwärts. Hat niemand ein solches Low, gewinnt das beste High-Blatt alles.",
  "variant_razz_intro": "Seven Card Stud auf das niedrigste Blatt (A-5-Lowball): Das niedrigste Fünf-Karten-Blatt gewinnt den ganzen Pot. Asse sind niedrig, Straßen und Flushes zählen nicht, und es gibt keine Qualifikation. Razz ist eine Zusatzvariante über den deutschen Regeltext hinaus.",
  "s1_limit": "Fixed Limit mit Ante {ante}, Bring-In {bring_in}, Small Bet {small} und Big Bet {big}. Einsätze und Erhöhungen haben feste Größen (All-ins ausgenommen); welche Größe auf welcher Street gilt, steht in §3 bis §5.",
  "s1_players": "2 bis 8 Spieler. Vor dem Geben setzt jeder Spieler der Hand das Ante ({ante}). Wer das Ante nicht mehr voll bezahlen kann, setzt, was er hat, und ist All-in.",
  "s2_deck": "Jede Hand wird aus einem frischen, gemischten Deck mit 52 Karten gegeben.",
  "s2_third": "Third Street: Jeder Spieler erhält zwei verdeckte Karten (Hole Cards) und eine aufgedeckte Karte, eine Karte nach der anderen im Uhrzeigersinn, beginnend bei Platz 1.",
  "s2_later": "Fourth, Fifth und Sixth Street: je eine weitere aufgedeckte Karte. Seventh Street (der River): eine letzte Karte, verdeckt. Am Ende hat also jeder Spieler drei verdeckte und vier aufgedeckte Karten.",
  "s2_burn": "Vor Fourth, Fifth, Sixth und Seventh Street wird jeweils eine Karte verbrannt.",
  "s2_exhaustion": "Die Karten können nur ausgehen, wenn 8 Spieler Seventh Street erreichen. Dann kann eine Gemeinschaftskarte offen in die Mitte gelegt werden, die für jeden verbliebenen Spieler die siebte Karte ist; die Einzelheiten regelt die Option `deck_exhaustion`.",
  "s3_lowest": "Der Spieler mit der niedrigsten aufgedeckten Karte ist der Bring-In; das Ass zählt hoch. Bei gleichem Rang entscheidet die Farbe, von niedrig nach hoch: Kreuz ♣, Karo ♦, Herz ♥, Pik ♠. Liegen also 2♣ und 2♥ offen, ist der Spieler mit der 2♣ der Bring-In.",
  "s3_highest": "Im Razz ist der Spieler mit der höchsten aufgedeckten Karte der Bring-In; der König ist die höchste Karte, das Ass die niedrigste. Bei gleichem Rang entscheidet die Farbe, und die höchste Farbe ist der Bring-In: Pik ♠, dann Herz ♥, Karo ♦, Kreuz ♣. Liegen also K♠ und K♥ offen, ist der Spieler mit dem K♠ der Bring-In.",
  "s3_choice": "Der Bring-In-Spieler hat die Wahl: den Bring-In von {bring_in} setzen oder auf die Small Bet von {small} komplettieren.",
  "s3_action": "Danach geht es im Uhrzeigersinn weiter. Wer nur den Bring-In vor sich hat, kann folden, den Bring-In ({bring_in}) callen oder auf {small} komplettieren. Nach dem Komplettieren wird jeweils um die Small Bet ({small}) erhöht.",
  "s3_cap": "Für das Cap (die Höchstzahl der Einsätze) zählt das Komplettieren als erster Einsatz, der Bring-In nicht.",
  "s3_short": "Hat der Bring-In-Spieler weniger als den Bring-In, setzt er den Rest und ist All-in; was die anderen dann mindestens callen müssen, regelt die Option `short_bring_in`. Ist der Spieler mit der Bring-In-Karte schon durch das Ante All-in, handelt der nächste Spieler im Uhrzeigersinn zuerst und kann folden, den Bring-In setzen oder komplettieren.",
  "s4_first_high": "Ab Fourth Street beginnt der Spieler, dessen aufgedeckte Karten das beste Pokerblatt bilden. Es zählen nur Paare, zwei Paare, Drillinge und Vierlinge, danach die hohen Karten der Reihe nach (A-K schlägt A-Q); Straßen und Flushes zählen nicht.",
  "s4_first_low": "Ab Fourth Street beginnt der Spieler, dessen aufgedeckte Karten das niedrigste A-5-Blatt bilden.",
  "s4_tie": "Bei Gleichstand entscheidet die Option `first_actor_tie`, wer beginnt. Ist dieser Spieler All-in, beginnt der nächste Spieler im Uhrzeigersinn, der noch handeln kann.",
  "s4_fourth": "Fourth Street: checken oder die Small Bet ({small}) setzen.",
  "s4_open_pair_on": "Offenes Paar: Zeigt auf Fourth Street ein Spieler, der noch in der Hand ist, ein offenes Paar, darf jeder Spieler entweder die Small Bet ({small}) oder die Big Bet ({big}) setzen. Nach einer Small Bet darf klein oder groß erhöht werden; sobald einmal groß gesetzt oder erhöht wurde, ist jede weitere Erhöhung auf dieser Street groß. Checkt der erste Spieler, geht die Option an den nächsten weiter.",
  "s4_open_pair_off": "Offenes Paar: An diesem Tisch ändert ein offenes Paar auf Fourth Street nichts; Einsätze und Erhöhungen bleiben bei der Small Bet ({small}).",
  "s4_open_pair_razz": "Offenes Paar: Im Razz erlaubt ein offenes Paar auf Fourth Street nie die Big Bet; Einsätze und Erhöhungen bleiben bei der Small Bet ({small}).",
  "s4_big": "Fifth, Sixth und Seventh Street: Jeder Einsatz und jede Erhöhung beträgt die Big Bet ({big}).",
  "s5_cap": "Cap: höchstens {max_bets} Einsätze pro Street, also ein Einsatz (oder das Komplettieren) und {raises} Erhöhungen, solange drei oder mehr Spieler in der Hand sind, die nicht All-in sind. Der Bring-In zählt nicht mit.",
  "s5_heads_up": "Ob unbegrenzt erhöht werden darf, sobald nur noch zwei Spieler übrig sind, die nicht All-in sind, regelt die Option `heads_up_uncapped`.",
  "s5_all_in": "Ein Spieler darf immer mit weniger callen oder setzen und ist dann All-in. Ob ein solches zu kurzes All-in die Setzrunde wieder eröffnet, regelt die Option `short_all_in`.",
  "s5_less": "Sonst ist ein Einsatz oder eine Erhöhung unter dem vollen Betrag nur erlaubt, wenn damit schon alle Gegner All-in sind. Ein nicht gecallter Einsatz oder der nicht gecallte Teil davon geht vor dem Showdown an seinen Besitzer zurück.",
  "s5_side_pots": "Side Pots: Ein Spieler, der All-in ist, spielt nur um den Teil des Pots, den er voll mitgegangen ist. Jeder Pot wird für sich unter den daran beteiligten Spielern vergeben, der zuletzt gebildete Side Pot zuerst.",
  "s6_order": "Sind nach der letzten Setzrunde noch mehrere Spieler übrig, zeigt der Spieler zuerst, der auf Seventh Street als Letzter gesetzt oder erhöht hat; wurde nicht gesetzt, zeigt der Spieler mit den besten aufgedeckten Karten zuerst. Danach zeigen die anderen im Uhrzeigersinn.",
  "s6_order_razz": "Sind nach der letzten Setzrunde noch mehrere Spieler übrig, zeigt der Spieler zuerst, der auf Seventh Street als Letzter gesetzt oder erhöht hat; wurde nicht gesetzt, zeigt der Spieler mit den besten (im Razz: niedrigsten) aufgedeckten Karten zuerst. Danach zeigen die anderen im Uhrzeigersinn.",
  "s6_muck": "Wer keinen Teil eines Pots mehr gewinnen kann, darf seine Karten verdeckt abwerfen (mucken), statt sie zu zeigen; gemuckte Karten sieht niemand, auch nicht in der Hand-Historie. Ist ein Spieler All-in und kann nicht mehr gesetzt werden, werden alle Hände, die noch im Spiel sind, aufgedeckt.",
  "s6_win_stud": "Das beste Fünf-Karten-Blatt aus sieben Karten gewinnt. Bei gleichen Blättern wird der Pot zu gleichen Teilen aufgeteilt.",
  "s6_win_stud8": "Die High-Hälfte gewinnt das beste Fünf-Karten-Blatt aus sieben Karten, die Low-Hälfte geht nach §7. Bei gleichen Blättern wird ihr Teil zu gleichen Teilen aufgeteilt.",
  "s6_win_razz": "Das niedrigste Fünf-Karten-Blatt aus sieben Karten gewinnt (§8). Bei gleichen Blättern wird der Pot zu gleichen Teilen aufgeteilt.",
  "s6_odd_chip": "Ein Chip, der sich nicht teilen lässt, geht an den Gewinner, den die Option `odd_chip` bestimmt.",
  "s6_next": "Nachdem der Pot vergeben ist, kann eine neue Hand beginnen. Einen Button gibt es im Stud nicht: Platz 1 ist immer der erste Platz links vom Dealer.",
  "s7_same": "Alles Obige gilt unverändert: Struktur, Bring-In, Reihenfolge und Setzregeln.",
  "s7_split": "Im Showdown wird jeder Pot geteilt: eine Hälfte an das beste High-Blatt, die andere an das beste qualifizierte Low-Blatt.",
  "s7_qualify": "Ein Low qualifiziert sich mit fünf Karten verschiedenen Rangs, alle 8 oder niedriger („8 oder besser“). Das Ass zählt niedrig; Straßen und Flushes schaden einem Low nicht.",
  "s7_compare": "Lows werden von der höchsten Karte abwärts verglichen: 8-7-6-5-4 ist das schlechteste Low und 5-4-3-2-A das beste, und 7-6-4-3-2 schlägt 8-5-4-3-2.",
  "s7_no_low": "Qualifiziert sich kein Blatt für das Low, gewinnt das beste High-Blatt den ganzen Pot.",
  "s7_scoop": "Ein Spieler darf für High und Low verschiedene fünf Karten verwenden und kann beide Hälften gewinnen (Scoop).",
  "s7_ties": "Gleichstand innerhalb einer Hälfte teilt diese Hälfte: Zwei gleiche Lows bekommen je ein Viertel des Pots. Ein ungerader Chip zwischen den Hälften geht an die High-Hälfte; ungerade Chips innerhalb einer Hälfte verteilt die Option `odd_chip`. Gleiche Blätter, die beide Hälften gewinnen, teilen den ganzen Pot so gleichmäßig wie möglich.",
  "s8_lowball": "A-5-Lowball ohne Qualifikation: Es gewinnen die besten fünf niedrigen Karten ohne Paar. Das Ass ist niedrig, Straßen und Flushes zählen nicht, Paare sind schlecht. Das beste Blatt ist 5-4-3-2-A; verglichen wird von der höchsten Karte abwärts, also schlägt 7-5-4-3-2 das Blatt 8-4-3-2-A.",
  "s8_order": "Bring-In und Reihenfolge wie in §3 und §4: Die höchste aufgedeckte Karte ist der Bring-In, und ab Fourth Street beginnt das niedrigste offene Blatt.",
  "profile_standard": "Die Standardregeln des Projekts: der deutsche Regeltext und, wo er nichts sagt, Robert's Rules of Poker und die WSOP-Regeln.",
  "profile_pokerkit": "Zum Abgleich mit PokerKit 0.7: bei jeder Option PokerKits Wahl, und PokerKits eigenes Verhalten, wo die Optionen nichts festlegen (etwa beim Kürzen der Antes und bei Einzelheiten zu kurzen All-ins).",
  "profile_custom": "Die Standardregeln mit einigen geänderten Optionen (unten markiert).",
  "profile_pokerkit_custom": "Das Profil pokerkit mit einigen geänderten Optionen (unten markiert).",
  "policy_open_pair_big_bet": "Big Bet bei offenem Paar (Fourth Street)",
  "policy_open_pair_big_bet_true": "An: Zeigt auf Fourth Street ein Spieler, der noch in der Hand ist, ein offenes Paar, darf jeder Spieler statt der Small Bet ({small}) die Big Bet ({big}) setzen oder erhöhen; wurde einmal groß gesetzt oder erhöht, ist jede weitere Erhöhung dieser Street groß. Gilt für Stud und Stud Hi/Lo, denn laut deutschem Regeltext gelten bei Hi/Lo dieselben Setzregeln (Robert's Rules).",
  "policy_open_pair_big_bet_false": "Aus: Auf Fourth Street wird immer mit der Small Bet ({small}) gespielt, ob mit offenem Paar oder nicht (WSOP, PokerKit).",
  "policy_open_pair_big_bet_razz": "Wirkt im Razz nicht: Razz kennt die Big Bet auf Fourth Street nie.",
  "policy_max_bets": "Cap: Einsätze pro Street",
  "policy_max_bets_n": "{max_bets}: ein Einsatz (oder das Komplettieren) und {raises} Erhöhungen pro Street, solange drei oder mehr Spieler in der Hand sind, die nicht All-in sind; der Bring-In zählt nicht als Einsatz (Robert's Rules: 4).",
  "policy_heads_up_uncapped": "Unbegrenzt erhöhen im Heads-up",
  "policy_heads_up_uncapped_true": "An: Sobald höchstens zwei Spieler übrig sind, die nicht All-in sind, darf unbegrenzt erhöht werden, sofern das geschah, bevor auf dieser Street das Cap erreicht war; eine Street, die schon gecappt ist, bleibt gecappt (Robert's Rules).",
  "policy_heads_up_uncapped_false": "Aus: Das Cap gilt immer, auch im Heads-up (PokerKit).",
  "policy_first_actor_tie": "Gleichstand beim ersten Spieler",
  "policy_first_actor_tie_seat": "Platz: Sind die aufgedeckten Karten mehrerer Spieler gleich gut, beginnt von ihnen der erste im Uhrzeigersinn vom Dealer aus, also der mit der niedrigsten Platznummer (Robert's Rules, WSOP Live Action Rules).",
  "policy_first_actor_tie_suit": "Farbe: Sind die aufgedeckten Karten mehrerer Spieler gleich gut, beginnt von ihnen derjenige mit der nach Farbe höchsten Karte (WSOP-Turniere).",
  "policy_odd_chip": "Ungerade Chips",
  "policy_odd_chip_suit": "Farbe: Ein Chip, der beim Teilen übrig bleibt, geht an den Gewinner, dessen Fünf-Karten-Blatt die nach Farbe höchste Karte enthält; bei einem geteilten Low an den mit der nach Farbe niedrigsten Karte (TDA, WSOP).",
  "policy_odd_chip_seat": "Platz: Ein Chip, der beim Teilen übrig bleibt, geht an den Gewinner, der vom Dealer aus im Uhrzeigersinn zuerst kommt, also den mit der niedrigsten Platznummer (PokerKit).",
  "policy_odd_chip_hilo": "Bei Hi/Lo geht ein ungerader Chip zwischen High- und Low-Hälfte immer an die High-Hälfte.",
  "policy_deck_exhaustion": "Wenn die Karten nicht reichen",
  "policy_deck_exhaustion_community": "Gemeinschaftskarte: Reicht der Stapel nach dem Verbrennen einer Karte nicht mehr für alle verbliebenen Spieler, wird keine Karte verbrannt; reicht er dann immer noch nicht, wird eine Gemeinschaftskarte offen in die Mitte gelegt, die für jeden verbliebenen Spieler die siebte Karte ist (Robert's Rules, übliche Praxis online).",
  "policy_deck_exhaustion_reshuffle": "Neu mischen: Zuerst werden die verbrannten und abgeworfenen Karten in den Stapel gemischt; eine Gemeinschaftskarte gibt es nur, wenn das immer noch nicht reicht (PokerKit).",
  "policy_short_bring_in": "Zu kurzer Bring-In",
  "policy_short_bring_in_full": "Voll: Hat der Bring-In-Spieler weniger als den Bring-In, setzt er den Rest und ist All-in; die anderen müssen trotzdem mindestens den vollen Bring-In ({bring_in}) callen (WSOP-Regel 217).",
  "policy_short_bring_in_posted": "Gesetzt: Hat der Bring-In-Spieler weniger als den Bring-In, setzt er den Rest und ist All-in; die anderen callen nur den gesetzten Betrag (PokerKit).",
  "policy_short_all_in": "Zu kurzes All-in",
  "policy_short_all_in_half_bet": "Halber Einsatz: Ein All-in von weniger als einem halben Einsatz eröffnet die Setzrunde nicht wieder für einen Spieler, der schon gehandelt hat und alle früheren Einsätze mitgegangen ist; wer noch nicht gehandelt hat (oder für wen die Runde wieder eröffnet wurde), kann folden, callen oder auf einen vollen Einsatz bzw. eine volle Erhöhung ergänzen. Ein All-in von mindestens einem halben Einsatz zählt als voller Einsatz bzw. volle Erhöhung: Der nächste Spieler kann folden, callen oder voll erhöhen, auf den All-in-Betrag plus einen Einsatz (ein All-in von 15 auf einer Street mit Einsatz 20 wird auf 35 erhöht). Mehrere kurze All-ins, die zusammen eine volle Erhöhung ergeben, eröffnen die Setzrunde wieder (Robert's Rules).",
  "policy_short_all_in_full_bet": "Voller Einsatz: Ein zu kurzes All-in eröffnet die Setzrunde für Spieler, die schon gehandelt haben, nie wieder, und jede Erhöhung geht auf den aktuellen Betrag plus einen vollen Einsatz (PokerKit)."
}
} /* TEXT-END */;

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
      policies: () => ["short_bring_in"]},
    {id: "streets", cite: 4, title: "sec_streets",
      items: (v, rules) => [v === "razz" ? "s4_first_low" : "s4_first_high", "s4_tie",
        "s4_fourth", openPairKey(v, rules), "s4_big"],
      policies: (v) => (v === "razz" ? ["first_actor_tie"]
        : ["first_actor_tie", "open_pair_big_bet"])},
    {id: "limits", cite: 5, title: "sec_limits",
      items: () => ["s5_cap", "s5_heads_up", "s5_all_in", "s5_less", "s5_side_pots"],
      policies: () => ["max_bets", "heads_up_uncapped", "short_all_in"]},
    {id: "showdown", cite: 6, title: "sec_showdown",
      items: (v) => [v === "razz" ? "s6_order_razz" : "s6_order", "s6_muck",
        {stud: "s6_win_stud", stud8: "s6_win_stud8", razz: "s6_win_razz"}[v] || "s6_win_stud",
        "s6_odd_chip", "s6_next"],
      policies: () => ["odd_chip"]},
    {id: "hilo", cite: 7, title: "sec_hilo", only: "stud8",
      items: () => ["s7_same", "s7_split", "s7_qualify", "s7_compare", "s7_no_low",
        "s7_scoop", "s7_ties"],
      policies: () => ["odd_chip"]},
    {id: "razz", cite: 8, title: "sec_razz", only: "razz",
      items: () => ["s8_lowball", "s8_order"], policies: () => []},
  ];

  function openPairKey(variant, rules) {
    if (variant === "razz") return "s4_open_pair_razz";
    return rules.open_pair_big_bet === false ? "s4_open_pair_off" : "s4_open_pair_on";
  }

  // ---------------------------------------------------------------- the language

  function storedLang() {
    try {
      return localStorage.getItem(STORAGE_KEY);
    } catch {
      return null;
    }
  }

  function chooseLang() {
    const stored = storedLang();
    if (LANGS.includes(stored)) return stored;
    const browser = (navigator.languages && navigator.languages[0]) || navigator.language || "";
    return browser.toLowerCase().startsWith("de") ? "de" : "en";
  }

  let current = chooseLang();

  function has(key) {
    return key in TEXT[current] || key in TEXT.en;
  }

  function t(key, params = {}) {
    const text = TEXT[current][key] ?? TEXT.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }

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
      row(t("ui_game"), has(`variant_${variant}`) ? t(`variant_${variant}`) : table.title || variant,
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
    el("h2", {text: has(`variant_${variant}`) ? t(`variant_${variant}`) : table.title || variant}),
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
      let badge = standard ? "ui_standard" : "ui_differs";
      if (inert) badge = "ui_no_effect";
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
    document.documentElement.lang = current;
    for (const button of document.querySelectorAll("[data-testid=lang-switch] button")) {
      const on = button.dataset.lang === current;
      button.classList.toggle("on", on);
      button.setAttribute("aria-pressed", String(on));
    }
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

  function setLang(value) {
    if (!LANGS.includes(value)) return;
    current = value;
    try {
      localStorage.setItem(STORAGE_KEY, value);
    } catch {
      // Without storage the switch still holds for this page.
    }
    render();
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
    // Another tab (the table page) may switch the language too.
    window.addEventListener("storage", (event) => {
      if (event.key === STORAGE_KEY && LANGS.includes(event.newValue)) {
        current = event.newValue;
        render();
      }
    });
    load();
  }

  window.studRules = {setLang, render, TEXT, POLICIES};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
