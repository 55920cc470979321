// UNO Elite on the /play page: the engine's view of this seat (v.elite) drawn as it is. Every
// seat's Lineup is public; the hand, a peeked hand and a searched card are in the view only for
// the seat that may see them (the server decides, never this page). Each legal action is one
// button with the engine's words: an activation's every choice (whom to target, which card,
// which order, keep or bottom, which substitute, which draft pick) is offered that way.
"use strict";
window.TinkerElite = (() => {
  const { el, SYMBOL } = Tinker;
  const $ = (id) => document.getElementById(id);

  function colourClass(colours) {
    if (colours.length === 1) return `c-${colours[0]}`;
    const set = [...colours].sort().join(",");
    if (set === "blue,red") return "c-dual";
    if (set === "green,yellow") return "c-dual2";
    return "c-wild";
  }

  function eliteCard(card) {
    const symbols = card.colours.map((c) => SYMBOL[c] || SYMBOL.wild).join("");
    return el("div", { class: `ecard ${colourClass(card.colours)}`, "data-id": card.id },
      el("span", { "aria-hidden": "true", text: `${symbols} ` }),
      el("span", { class: "nm", text: `${card.name} (${card.colours.join("/")}${card.foil !== "base" ? ", " + card.foil : ""})` }),
      el("span", { class: "pw", text: card.powers.join(" · ") || "no power" }));
  }

  function unoCard(card, legal, act) {
    const play = legal.find((m) => m.kind === "play" && m.card === card.code);
    return el("button", {
      class: `card uc c-${card.colour}`, "data-code": card.code, disabled: !play,
      "aria-label": play ? play.words : card.words, onclick: () => play && act(play.action),
    }, el("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[card.colour] || SYMBOL.wild }),
    el("span", { class: "nm", text: card.words }));
  }

  function seatBox(v, s, seat, turn) {
    const you = s === v.seat;
    const who = you ? " (you)" : v.players[s].person ? " (person)" : " (bot)";
    const discards = seat.elite_discard;
    return el("section", { class: "panel eseat" + (s === turn ? " turn" : "") + (you ? " me" : ""), "data-seat": s },
      el("h3", { text: seat.name + who + (seat.called_uno ? " · UNO!" : "") }),
      el("div", { class: "facts", text: `${seat.hand_count} card${seat.hand_count === 1 ? "" : "s"} · ` +
        `Player Deck ${seat.player_deck} · ${s === turn ? "to move" : "waiting"}` }),
      el("div", { class: "elineup", "aria-label": `${seat.name}'s Lineup` },
        ...(seat.lineup.length ? seat.lineup.map(eliteCard) : [el("span", { class: "muted", text: "Lineup empty" })])),
      el("details", { class: "edisc" }, el("summary", { text: `Elite discard pile: ${discards.length}` }),
        ...discards.map(eliteCard)));
  }

  function renderPrivate(e, v, send) {
    const legal = e.legal || [];
    const said = v.uno_plays || [];
    $("eunobox").classList.toggle("hidden", !said.length);
    if (!said.length) $("euno").checked = false;
    const act = (a) => send(a, $("euno").checked && said.includes(a));
    const mine = v.seat !== null && v.seat !== undefined;
    $("ehandtitle").textContent = mine
      ? `Your hand (${e.hand.length}) · your Player Deck: ${e.seats[v.seat].player_deck}`
      : "Watching: no hand is shown";
    $("ehand").replaceChildren(...(e.hand || []).map((c) => unoCard(c, legal, act)));
    const peek = e.peeked;
    $("epeek").replaceChildren(...(peek ? [el("h3", { text: `You peeked at ${v.players[peek.seat].name}'s hand` }),
      el("div", { class: "play-hand" }, ...peek.hand.map((c) => unoCard(c, [], act)))] : []));
    const found = e.searched;
    $("esearch").replaceChildren(...(found ? [el("h3", { text: "You searched" }), eliteCard(found.card)] : []));
    const hints = v.hints || {};
    $("eactions").replaceChildren(...(legal.length ? legal.map((m) =>
      el("button", { class: "primary", "data-action": m.action, onclick: () => act(m.action) },
        el("span", { class: "words", text: m.words }),
        hints[m.action] ? el("span", { class: "hint", text: hints[m.action] }) : null))
      : [el("span", { class: "muted", text: mine ? "No move for you now." : "Open your seat's link to play." })]));
  }

  function renderDraft(e, v) {
    const d = e.draft;
    const showing = !!(d && d.showing && d.showing.length);
    $("edraft").classList.toggle("hidden", !showing);
    if (!d) return;
    $("eshowing").replaceChildren(...(d.showing || []).map(eliteCard));
    $("edrafted").textContent = (d.picked || []).map((p, s) => `${v.players[s].name} ${p.length}`).join(" · ");
  }

  function renderTally(t) {
    $("etally").replaceChildren(...(t && t.games ? t.players.map((p) =>
      el("li", { "data-name": p.name, text: `${p.name}: ${p.wins} win${p.wins === 1 ? "" : "s"} of ${p.played}` }))
      : [el("li", { class: "muted", text: "No UNO Elite game finished yet." })]));
  }

  function render(v, act, me) {
    const e = v.elite;
    const turn = e.to_move;
    $("eprompt").textContent = v.winner !== null ? `${v.winner} won UNO Elite!` : e.prompt;
    if (e.top) {
      $("etop").className = `bigcard c-${e.top.colour}`;
      $("etop").dataset.code = e.top.code;
      $("etop").replaceChildren(el("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[e.top.colour] || SYMBOL.wild }),
        el("span", { class: "nm", text: e.top.words }));
    }
    $("ecolour").textContent = e.colour ? `${SYMBOL[e.colour] || ""} ${e.colour} in play` : "";
    $("efacts").textContent = `${e.mode} · play goes ${e.direction === 1 ? "left" : "right"} · ` +
      `${e.draw_pile} in the draw pile · ${e.discard_pile} on the discard pile`;
    $("enotb").textContent = v.tinker_bell;
    renderPrivate(e, v, act);
    renderDraft(e, v);
    $("eseats").replaceChildren(...e.seats.map((seat, s) => seatBox(v, s, seat, turn)));
    const logBox = $("elog");
    const atEnd = logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 8;
    logBox.replaceChildren(...(e.log || []).map((line) => el("li", { text: line })));
    if (atEnd) logBox.scrollTop = logBox.scrollHeight;
    renderTally(v.tally);
    $("erecord").classList.toggle("hidden", !me.host);
    $("enewlink").classList.toggle("hidden", !me.host);
  }

  return { render };
})();
