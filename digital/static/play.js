// Digital play: a seat's link (/play?key=K, from its QR code) sets that seat's cookie once; the
// page then shows that seat's hand and moves. Without a seat the page watches (public state
// only) or, for the host, sets up a new game. Every move goes to the server, which answers
// with the engine's rule message when a move is refused.
"use strict";
(() => {
  const { el, SYMBOL } = Tinker;
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const asked = params.has("seat") ? Number(params.get("seat")) : null;  // one of several seats
  // opened from a seat's link (?key=K, which common.js has taken out of the address bar since)
  const fromLink = (() => {
    const opened = performance.getEntriesByType("navigation")[0];
    try { return new URL(opened ? opened.name : location.href).searchParams.has("key"); }
    catch (_) { return false; }
  })();
  let seat = null;
  let me = { host: false, seats: [], press: false };
  let view = null;
  let pending = null; // the Wild waiting for its colour
  let started = null; // the game this page just started for several people: {links, names}
  let shownWinner = false; // this game's end has been scrolled to

  // A refusal is said where the person is looking: right under what caused it (the button
  // pressed, its row or group), scrolled into view; the form's or the game's, whichever shows.
  function say(text, near) {
    const box = $("message");
    if (near && text) {
      const row = near.closest(".row, .seatrow, [role=group]") || near;
      if (row.nextElementSibling !== box) row.after(box);
    }
    box.replaceChildren(text ? el("div", { class: "error", text }) : "");
    if (text) box.scrollIntoView({ block: "nearest" });
  }

  // ---------------------------------------------------------------- writing
  // A write is one person's action, sent once: its button is busy (disabled, aria-busy) until
  // the answer comes, so a double tap is one tap, and it carries an Idempotency-Key of its
  // own, the same when it is sent again after a dropped connection, so the display answers a
  // repeat as it answered the first instead of starting a second game or playing a card twice.
  const busy = new Set();  // the writes under way: "start", "moves", a button's id
  const { post, markBusy } = Tinker;  // each write with its Idempotency-Key (common.js)
  // `work` runs with `button` busy, under the name `what` (a page re-drawn meanwhile keeps
  // the buttons of that write busy); the page is drawn again once it is answered.
  async function whileBusy(what, button, work) {
    if (busy.has(what)) return undefined;
    busy.add(what);
    markBusy(button, true);
    try { return await work(); } finally {
      busy.delete(what);
      markBusy(button, false);
      if (view) render(view); else renderSetup();
    }
  }

  async function act(action, uno, button) {
    pending = null;
    $("colours").classList.add("hidden");
    const body = seat !== null ? { seat, action } : { action };
    if (uno) body.uno = true;  // one of the view's uno_plays: the card is played saying UNO!
    await whileBusy("moves", button, async () => {
      try {
        await post("/api/digital/act", body);
        say("");
      } catch (err) {
        say(err.message, button && button.isConnected ? button : $("actions"));
      }
    });
  }

  // the engine's words ("draw a card", "name red") on a button, as a person writes them
  const capital = (words) => (words ? words[0].toUpperCase() + words.slice(1) : words);

  function cardFace(card, extra) {
    return [el("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[card.colour] }),
      el("span", { class: "nm", text: card.name }), extra].filter(Boolean);
  }

  // ---------------------------------------------------------------- setting up
  // names fit for a shared screen (the scoreboard, a TV): never "You"; the last game's
  // names and people, where this browser started one, so the family types them once
  const SEATS_KEPT = "tinker-play-seats";
  const seats = remembered() || [["Player 1", true], ["Bot Bea", false], ["Bot Cy", false]];
  function remembered() {
    try {
      const kept = JSON.parse(localStorage.getItem(SEATS_KEPT));
      const fit = Array.isArray(kept) && kept.length >= 2 && kept.every((s) => Array.isArray(s)
        && typeof s[0] === "string" && typeof s[1] === "boolean");
      return fit ? kept : null;
    } catch (_) { return null; }  // none kept, or storage refused: the defaults
  }
  function remember() {
    try { localStorage.setItem(SEATS_KEPT, JSON.stringify(seats)); } catch (_) { /* private mode */ }
  }
  function renderSetup() {
    $("seatrows").replaceChildren(...seats.map(([name, person], i) => el("div", { class: "seatrow" },
      el("b", { text: `Seat ${i + 1}` }),
      el("input", { type: "text", value: name, "aria-label": `name of seat ${i + 1}`,
        oninput: (e) => { seats[i][0] = e.target.value; } }),
      el("label", {}, el("input", { type: "checkbox", checked: person, "data-seat": i,
        onchange: (e) => { seats[i][1] = e.target.checked; } }), "person"),
      seats.length > 2 ? el("button", { text: "✕", "aria-label": `remove seat ${i + 1}`,
        onclick: () => { seats.splice(i, 1); renderSetup(); } }) : null)));
    $("notoken").classList.toggle("hidden", me.host);
    $("start").disabled = !me.host || !rulesets.length || busy.has("start");
  }
  // The rules a game may be played by, and what the form offers for each, are the engine's
  // registry's (/api/digital/rulesets): the page names no ruleset itself.
  let rulesets = [];
  const chosen = () => rulesets.find((r) => r.name === $("ruleset").value) || rulesets[0];
  const mostSeats = () => (chosen() ? chosen().seats[1] : 2);
  async function loadRulesets() {
    try {
      const res = await fetch("/api/digital/rulesets");
      rulesets = (await res.json()).rulesets;
    } catch (err) { say(`The rules could not be read (${err.message}): reload the page.`, $("start")); return; }
    $("ruleset").replaceChildren(...rulesets.map((r) => el("option", { value: r.name,
      text: r.missing ? `${r.title} (needs its ${r.missing})` : r.title, disabled: !!r.missing })));
    $("ruleset").onchange();
    renderSetup();
  }
  $("addseat").onclick = () => { if (seats.length < mostSeats()) { seats.push([`Bot ${seats.length + 1}`, false]); renderSetup(); } };
  $("tokensave").onclick = () => whileBusy("token", $("tokensave"), async () => {
    try {
      await post("/api/session", { token: $("tokenin").value.trim() });
      me = await Tinker.whoami(true);
      $("tokenin").value = "";
      say("");
    } catch (err) { say(err.message, $("tokensave")); }
    document.body.classList.toggle("host", me.host);
  });
  async function start(confirm) {
    const body = {
      players: seats.map(([n]) => n.trim()),
      humans: seats.map(([, p], i) => (p ? i : null)).filter((i) => i !== null),
      bots: $("bots").value, pace: Number($("pace").value), ruleset: $("ruleset").value,
      bots_press: !$("peoplepress").checked,
      options: options(),
      confirm: !!confirm,
    };
    try {
      const res = await post("/api/digital/new", body);
      remember();
      const links = Object.entries(res.links);
      // one person: straight to their seat, hand on screen (from ?new=1 too); bots only: watch
      if (links.length === 1) { location.href = links[0][1]; return; }
      if (links.length === 0) { location.href = "/play"; return; }
      started = { links: res.links, names: body.players };
      showStarted();
      say("");
    } catch (err) {
      if (err.confirm && window.confirm(err.message)) return start(true);
      say(err.message, $("start"));
    }
    return undefined;
  }
  $("start").onclick = () => whileBusy("start", $("start"), () => start(false));
  // The chosen rules' options: a mode where it is played in modes, else a target where it
  // scores points; and each of its options (its house rules, the rest of its choices) where
  // it is not the ruleset's default, so a record says only what the table chose.
  function options() {
    const rules = chosen();
    const out = rules.modes.length ? { mode: $("mode").value }
      : rules.points ? { target: Number($("target").value) } : {};
    for (const o of rules.options) {
      const value = optionValue(o);
      if (value !== o.default) out[o.name] = value;
    }
    return out;
  }
  // Each option as the ruleset declares it (/api/digital/rulesets: its kind, default and own
  // sentence), so an option the engine gains is on the form with no edit here.
  function optionControl(o) {
    const at = { id: `rule-${o.name}`, "data-option": o.name, title: o.says || null };
    const input = o.kind === "yes-no" ? el("input", { type: "checkbox", checked: o.default === true, ...at })
      : o.kind === "choice" ? el("select", at, ...o.choices.map((c, i) =>
        el("option", { value: String(i), text: String(c), selected: c === o.default })))
        : el("input", { type: "number", value: String(o.default), min: o.bounds && o.bounds[0],
          max: o.bounds && o.bounds[1], style: "width:6rem", ...at });
    return o.kind === "yes-no" ? el("label", {}, input, ` ${o.title}`) : el("label", {}, `${o.title} `, input);
  }
  function optionValue(o) {
    const input = $(`rule-${o.name}`);
    if (o.kind === "yes-no") return input.checked;
    if (o.kind === "choice") return o.choices[Number(input.value)];
    return Number(input.value);
  }
  $("ruleset").onchange = () => {
    const rules = chosen();
    if (!rules) return;
    $("mode").replaceChildren(...rules.modes.map(([value, text]) => el("option", { value, text })));
    $("modebox").classList.toggle("hidden", !rules.modes.length);
    $("targetbox").classList.toggle("hidden", !!rules.modes.length || !rules.points);
    const house = rules.options.filter((o) => o.house);
    const more = rules.options.filter((o) => !o.house);
    $("houserules").replaceChildren(...house.map(optionControl));
    $("moreoptions").replaceChildren(...more.map((o) => el("div", { class: "more-option" },
      optionControl(o), o.says ? el("div", { class: "muted", text: o.says }) : null)));
    $("morerules").classList.toggle("hidden", !more.length);
    $("peoplepressbox").classList.toggle("hidden", !rules.tinker_bell);
    if (seats.length > mostSeats()) { seats.length = mostSeats(); renderSetup(); }
  };
  loadRulesets();

  // The host's screen: each person's seat link, and its QR code for their own phone. A link
  // works on its own (it carries the seat's key once, then a cookie takes over).
  function linkRows(links, names) {
    return Object.entries(links).map(([s, href]) => el("div", { class: "seatlink" },
      el("img", { src: `/api/digital/qr/${s}.svg`, alt: `QR code: the link for ${names[s]}'s seat` }),
      el("div", {}, el("b", { text: names[s] }), el("br"),
        el("a", { href, text: `open seat ${Number(s) + 1} here` }),
        el("div", { class: "muted", text: "Scan it with that player's own phone." }))));
  }
  // Said at the top of the first screen, the links right under it: the form is done with.
  function showStarted() {
    const people = Object.keys(started.links).map((s) => started.names[s]);
    $("startedsays").textContent = `${people.join(", ")}: each of you scans your own seat's QR ` +
      "code with your phone (or opens its link); your hand shows only there.";
    $("links").replaceChildren(...linkRows(started.links, started.names));
    $("started").classList.remove("hidden");
    $("setup").classList.add("hidden");
    window.scrollTo(0, 0);
    $("started").focus({ preventScroll: true });
  }
  $("another").onclick = () => { started = null; $("started").classList.add("hidden"); if (view) render(view); };
  async function loadLinks() {
    if (!me.host || !view || !view.game) return;
    const res = await fetch("/api/digital/links", { cache: "no-store" });
    const rows = res.ok ? linkRows((await res.json()).links, view.players.map((p) => p.name)) : [];
    $("seatlinks").replaceChildren(...(rows.length ? [el("h2", { text: "Links for the people playing" }), ...rows] : []));
    $("seatlinksbox").classList.toggle("hidden", !rows.length);
  }
  $("showlinks").onclick = loadLinks;

  // ---------------------------------------------------------------- the game
  // One page for every ruleset: what it draws follows the view's `features` (Tinker Bell,
  // points, Lineups) and what the seat's observation holds (its legal moves in the engine's
  // words, one shape for every ruleset; a draft; a peeked hand; a searched card), never the
  // ruleset's name.
  function render(v) {
    view = v;
    document.body.dataset.version = v.version;
    $("journalerr").textContent = v.journal_error || "";
    $("journalerr").classList.toggle("hidden", !v.journal_error);
    if (seat !== null && v.game && v.seat === null) seatGone();
    // ?new=1 is the host's, seated in the last game or not (a guest without a seat is asked
    // for the token there); with no game at all anybody sees the form
    const setup = !v.game || (params.has("new") && (me.host || seat === null));
    $("setup").classList.toggle("hidden", !setup || started !== null);
    $("started").classList.toggle("hidden", !setup || started === null);
    $("game").classList.toggle("hidden", setup);
    $("over").classList.toggle("hidden", setup || !v.winner);
    $("seatlinksbox").classList.toggle("hidden", setup || !$("seatlinks").childNodes.length);
    $("endedsays").textContent = v.ended || "";
    $("endedsays").classList.toggle("hidden", !v.ended);
    if (setup) { renderSetup(); return; }
    const has = (f) => (v.features || []).includes(f);
    // the table first: what is in play and whose move it is stay where they are; only the
    // log's own box scrolls, so an update never moves the page away from "Your move"
    const logBox = $("log");
    const atEnd = logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 8;
    const mine = seat !== null ? v.players[seat] : null;
    $("who").textContent = mine ? `${mine.name}, seat ${seat + 1}` : "watching (no hand shown)";
    renderTable(v, has);
    renderSeats(v, has);
    renderPanels(v);
    renderMoves(v, has);
    logBox.replaceChildren(...v.log.map((line) => el("li", { text: line })));
    if (atEnd) logBox.scrollTop = logBox.scrollHeight;
    $("handsbox").classList.toggle("hidden", !has("points"));
    $("tallybox").classList.toggle("hidden", has("points"));
    if (has("points")) {
      $("hands").replaceChildren(...(v.hands.length ? v.hands.map((h) =>
        el("div", { text: `Hand ${h.hand}: ${h.winner} went out, scoring ${h.points}` })) : ["No hand finished yet."]));
    } else renderTally(v);
    $("record").classList.toggle("hidden", !me.host);
    $("newlink").classList.toggle("hidden", !me.host);
    $("endgame").classList.toggle("hidden", !me.host || !!v.winner);
    $("endgame").disabled = busy.has("end");
    renderOver(v, has);
  }

  // The end of the game at the top of the page, scrolled to and focused once (a phone was down
  // at its hand or the log): who won, and the next game (the host's) or who starts it.
  function renderOver(v, has) {
    if (!v.winner) { shownWinner = false; return; }
    $("banner").textContent = `★ ${v.winner} won ${has("points") ? "the game" : v.title} ★`;
    $("nextsays").textContent = me.host ? "" : "The host starts the next game.";
    if (shownWinner) return;
    shownWinner = true;
    window.scrollTo(0, 0);
    $("over").focus({ preventScroll: true });
  }

  // This page's seat belonged to the last game: the host has started another since. Watch it,
  // and say why the hand is gone.
  function seatGone() {
    seat = null;
    $("who").textContent = "watching (no hand shown)";
    say("A new game has started: this seat's link was for the last one. The host has the new links.",
      $("who").parentElement);
  }

  function cardName(card) { return card.name || card.words; }

  function renderTable(v, has) {
    if (v.top) {
      $("top").className = `bigcard c-${v.top.colour || "wild"}`;
      $("top").dataset.code = v.top.code;
      $("top").replaceChildren(el("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[v.top.colour] || SYMBOL.wild }),
        el("span", { class: "nm", text: cardName(v.top) }));
    }
    const tb = has("tinker_bell");
    $("colour").textContent = v.colour ? `${SYMBOL[v.colour] || ""} ${v.colour} in play`
      : tb && (v.awaiting.kind === "tinker_bell" || v.choosing) ? "Tinker Bell chooses the colour"
        : v.top ? "colour to be named" : "";
    $("colour").dataset.colour = v.colour || "";
    const way = typeof v.direction === "number" ? (v.direction === 1 ? "left" : "right") : v.direction;
    const facts = [v.hand_no ? `hand ${v.hand_no}` : v.mode, `play goes ${way}`, `${v.draw_pile} in the draw pile`];
    if (v.discard_pile !== undefined) facts.push(`${v.discard_pile} on the discard pile`);
    if (has("points")) facts.push(`to ${v.target}`);
    $("facts").textContent = facts.filter(Boolean).join(" · ");
    $("says").textContent = v.winner ? `${v.winner} won ${has("points") ? "the game" : v.title}!` : v.prompt;
    $("notb").classList.toggle("hidden", tb);
    $("notb").textContent = tb ? "" : `${v.title} has no Tinker Bell`;
    const waits = tb && v.awaiting.kind === "tinker_bell" && !v.choosing;
    const canPress = v.emulator && (me.host || me.seats.length > 0) && !v.bot_presses;
    $("pressbox").classList.toggle("hidden", !waits);
    $("press").classList.toggle("hidden", !canPress);
    // a bot presses for its own card, as each player does at a real table
    $("presstext").textContent = v.bot_presses ? `${v.bot_presses} presses Tinker Bell…`
      : canPress ? "Press Tinker Bell:" : v.emulator
        ? "Waiting for a player to press Tinker Bell…" : "Press the Tinker Bell button on the tray!";
  }

  // every seat: with a score sheet, a chip of its cards and points; without, a box of its
  // cards, its facts and its shelves of face-up cards (all public: the observation's own)
  function renderSeats(v, has) {
    const turn = v.awaiting.seat;
    const boxes = !has("points");
    $("players").classList.toggle("hidden", boxes);
    $("eseats").classList.toggle("hidden", !boxes);
    if (boxes) {
      $("eseats").replaceChildren(...v.players.map((p) => seatBox(v, p, turn)));
      $("players").replaceChildren();
      return;
    }
    $("players").replaceChildren(...v.players.map((p) => el("div", {
      class: "pl" + (p.seat === turn ? " turn" : "") + (p.seat === seat ? " me" : ""), "data-seat": p.seat },
      el("div", { class: "nm", text: p.name }),
      el("div", { class: "ct", text: `${p.cards} card${p.cards === 1 ? "" : "s"} · ${p.score} points` }),
      el("div", { class: "muted", text: [p.person ? "person" : "bot", p.deals ? "deals" : "",
        p.seat === turn ? "to move" : "", p.out ? "OUT" : ""].filter(Boolean).join(" · ") }))));
  }

  function colourClass(colours) {
    if (colours.length === 1) return `c-${colours[0]}`;
    const set = [...colours].sort().join(",");
    if (set === "blue,red") return "c-dual";
    if (set === "green,yellow") return "c-dual2";
    return "c-wild";
  }

  // a card of several colours (`colours`), with its name, colours and powers in words
  function coloursCard(card) {
    const symbols = card.colours.map((c) => SYMBOL[c] || SYMBOL.wild).join("");
    const foil = card.foil && card.foil !== "base" ? ", " + card.foil : "";
    return el("div", { class: `ecard ${colourClass(card.colours)}`, "data-id": card.id },
      el("span", { "aria-hidden": "true", text: `${symbols} ` }),
      el("span", { class: "nm", text: `${card.name} (${card.colours.join("/")}${foil})` }),
      el("span", { class: "pw", text: (card.powers || []).join(" · ") || "no power" }));
  }

  // a shelf listed card by card (a Lineup), or folded away with its count (a discard pile)
  function shelf(p, box) {
    if (box.listed) {
      return el("div", { class: "elineup", role: "group", "aria-label": `${p.name}'s ${box.name}` },
        ...(box.cards.length ? box.cards.map(coloursCard) : [el("span", { class: "muted", text: `${box.name} empty` })]));
    }
    return el("details", { class: "edisc" }, el("summary", { text: `${box.name}: ${box.cards.length}` }),
      ...box.cards.map(coloursCard));
  }

  function seatBox(v, p, turn) {
    const s = p.seat;
    const you = s === v.seat;
    const who = you ? " (you)" : p.person ? " (person)" : " (bot)";
    const facts = [`${p.cards} card${p.cards === 1 ? "" : "s"}`, ...(p.facts || []), s === turn ? "to move" : "waiting"];
    return el("section", { class: "panel eseat" + (s === turn ? " turn" : "") + (you ? " me" : ""), "data-seat": s },
      el("h3", { text: p.name + who + (p.called_uno ? " · UNO!" : "") }),
      el("div", { class: "facts", text: facts.join(" · ") }),
      ...(p.shelves || []).map((box) => shelf(p, box)));
  }

  // what the table shows beside the seats (a draft's cards showing), while it holds cards
  function renderPanels(v) {
    const panels = (v.panels || []).filter((p) => p.cards.length);
    $("panels").classList.toggle("hidden", !panels.length);
    $("panels").replaceChildren(...panels.map((p) => el("div", {},
      el("h2", { text: p.title }),
      el("div", { class: "elineup" }, ...p.cards.map(coloursCard)),
      el("div", { class: "muted", text: (p.notes || []).join(" · ") }))));
  }

  function renderTally(v) {
    const t = v.tally;
    $("tallysays").textContent = `No points in ${v.title}: a game won counts one.`;
    $("tally").replaceChildren(...(t && t.games ? t.players.map((p) =>
      el("li", { "data-name": p.name, text: `${p.name}: ${p.wins} win${p.wins === 1 ? "" : "s"} of ${p.played}` }))
      : [el("li", { class: "muted", text: `No ${v.title} game finished yet.` })]));
  }

  // One renderer for every ruleset's moves (the observation's `legal`, each with its words):
  // a move naming a card of the hand is a tap on that card (a card with several, as a Wild's
  // colours, asks which); every other move of the seat's turn is a button in its words (with
  // the powers of the card it names), every call out of turn a button of its own. UNO! is one
  // box: it picks a card's twin saying UNO!, or sends the move saying it (`uno_plays`).
  function renderMoves(v, has) {
    const legal = v.legal || [];
    const said = v.uno_plays || [];
    const twins = legal.some((m) => m.uno);
    const unoBox = twins || said.length > 0;
    $("unobox").classList.toggle("hidden", !unoBox);
    if (!unoBox) $("uno").checked = false;
    // a move the engine marks risky (`confirm`: a challenge that fails costs cards) asks first
    const risks = new Map(legal.filter((m) => m.confirm).map((m) => [m.action, `${capital(m.words)}? ${m.confirm}.`]));
    const send = (a, button) => (!risks.has(a) || window.confirm(risks.get(a)))
      && act(a, $("uno").checked && said.includes(a), button);
    const moving = busy.has("moves");  // a move is on its way: no second one meanwhile
    const mine = v.seat !== null && v.seat !== undefined;
    const hand = v.hand || [];
    const held = new Set(hand.map((c) => c.code));
    const onCard = (m) => !m.out_of_turn && m.card !== null && held.has(m.card);
    // without a score sheet the seats are boxes of cards, and the hand is titled and drawn wide
    const boxes = !has("points");
    const facts = mine ? (v.players[v.seat].facts || []) : [];
    $("handtitle").classList.toggle("hidden", !boxes);
    $("handtitle").textContent = !mine ? "Watching: no hand is shown"
      : [`Your hand (${hand.length})`, ...facts].join(" · ");
    $("hand").replaceChildren(...hand.map((card) =>
      cardButton(card, legal.filter((m) => onCard(m) && m.card === card.code), send, boxes, moving)));
    // what only this seat sees beside its hand (a hand it peeked at, a card it searched)
    $("peek").replaceChildren(...(v.seen || []).flatMap((part) => [el("h3", { text: part.title.replace(/:$/, "") }),
      el("div", { class: "play-hand" }, ...part.cards.map((c) => c.colours ? coloursCard(c) : cardButton(c, [], send, boxes)))]));
    const hints = v.hints || {};
    const rest = legal.filter((m) => !m.out_of_turn && !onCard(m));
    $("actions").replaceChildren(...(rest.length ? rest.map((m) =>
      el("button", { class: "primary", "data-action": m.action, disabled: moving,
        onclick: (e) => send(m.action, e.currentTarget) },
        el("span", { class: "words", text: capital(m.words) }),
        hints[m.action] ? el("span", { class: "hint", text: hints[m.action] }) : null))
      : legal.length ? [] : [el("span", { class: "muted", text: idle(v, mine) })]));
    $("actions").classList.toggle("hidden", !$("actions").childNodes.length);
    $("calls").replaceChildren(...legal.filter((m) => m.out_of_turn).map((m) =>
      el("button", { class: "danger", "data-action": m.action, text: capital(m.words), disabled: moving,
        onclick: (e) => send(m.action, e.currentTarget) })));
    if (pending && !hand.some((c) => c.code === pending.code && legal.some((m) => onCard(m) && m.card === c.code))) pending = null;
    $("colours").classList.toggle("hidden", !pending);
  }

  // what a page with no move says: whose move it is not, or, watching, how to play or what next
  function idle(v, mine) {
    if (v.winner) return me.host ? "The game is over: start the next one with “Start the next game” at the top."
      : "The game is over: the host starts the next one.";
    if (mine) return "No move for you now.";
    return me.host ? "Watching: each person plays from their own seat's link (Seat links, below)."
      : "Watching: to play, open your seat's link from the host (its QR code).";
  }

  // a card of the hand: a tap makes its move (named by what it shows: "Villain Draw 4 play")
  function cardButton(card, moves, send, wide, moving) {
    const verb = moves.length ? moves[0].kind : "";
    return el("button", {
      class: `card c-${card.colour || "wild"}${wide ? " uc" : ""}`, "data-code": card.code,
      disabled: !moves.length || moving, onclick: (e) => choose(card, moves, send, e.currentTarget),
    }, ...cardFace(card, verb ? el("span", { class: "verb", text: ` ${verb}` }) : null));
  }

  function choose(card, all, send, button) {
    const uno = $("uno").checked;
    let moves = all.some((m) => m.uno) ? all.filter((m) => m.uno === uno) : all;
    if (!moves.length) moves = all;
    if (moves.length === 1) { send(moves[0].action, button); return; }
    pending = card; // which of its moves (a Wild: which colour?)
    $("colours").replaceChildren(el("b", { text: `${card.name}: choose${moves.every((m) => m.call) ? " the colour" : ""}` }), ...moves.map((m) =>
      el("button", { class: m.call ? `c-${m.call}` : "", "data-call": m.call || "", "data-action": m.action,
        text: m.call ? `${SYMBOL[m.call]} ${capital(m.call)}` : capital(m.words),
        onclick: (e) => send(m.action, e.currentTarget) })),
    el("button", { text: "Cancel", onclick: () => { pending = null; $("colours").classList.add("hidden"); } }));
    $("colours").classList.remove("hidden");
  }

  $("press").onclick = () => whileBusy("press", $("press"), async () => {
    try { await post("/api/press", {}); say(""); } catch (err) { say(err.message, $("press")); }
  });
  // The host ends the game in play unfinished (asked first): its record stays in the journal,
  // and it no longer holds the journal up (a restore, deleting it).
  $("endgame").onclick = () => {
    if (!window.confirm("End this game unfinished? Nobody can carry it on; its record is kept.")) return;
    whileBusy("end", $("endgame"), async () => {
      try { await post("/api/digital/end", { confirm: true }); say(""); }
      catch (err) { say(err.message, $("endgame")); }
    });
  };

  // ---------------------------------------------------------------- the stream
  async function connect() {
    me = await Tinker.whoami();
    document.body.classList.toggle("host", me.host);
    seat = asked !== null ? asked : me.seats.length === 1 ? me.seats[0] : null;
    // a seat's link whose key holds no seat: the link of a game since replaced or ended
    if (fromLink && !me.seats.length) {
      say("This seat's link is for a game that has ended or been replaced: ask the host for " +
        "the new one.", $("who").parentElement);
    }
    const status = el("div", { class: "status", role: "status", text: "connecting…" });
    document.body.append(status);
    const q = seat !== null ? `?seat=${seat}` : "";
    const source = new EventSource("/api/digital/events" + q);
    source.addEventListener("digital", (e) => {
      status.textContent = "live";
      status.classList.remove("down");
      const first = view === null;
      render(JSON.parse(e.data));
      if (first) loadLinks();
    });
    source.addEventListener("error", async () => {
      status.textContent = "reconnecting…";
      status.classList.add("down");
      if (seat !== null) { // a new game since (the seat's key is gone): say so, stop retrying
        const res = await fetch("/api/digital/view" + q);
        if (res.status === 403) {
          source.close();
          say((await res.json()).error, $("who").parentElement);
          status.textContent = "not your seat";
        }
      }
    });
  }
  connect();
})();
