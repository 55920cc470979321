// Digital play: a seat's link (/play?key=K, from its QR code) sets that seat's cookie once; the
// page then shows that seat's hand and moves. Without a seat the page watches (public state
// only) or, for the host, sets up a new game. Every move goes to the server, which answers
// with the engine's rule message when a move is refused.
"use strict";
(() => {
  const { el, post, SYMBOL } = Tinker;
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const asked = params.has("seat") ? Number(params.get("seat")) : null;  // one of several seats
  let seat = null;
  let me = { host: false, seats: [], press: false };
  let view = null;
  let pending = null; // the Wild waiting for its colour

  function say(text) {
    const box = view && view.ruleset === "elite" ? "emessage" : "message";
    $(box).replaceChildren(text ? el("div", { class: "error", text }) : "");
  }

  async function act(action, uno) {
    pending = null;
    $("colours").classList.add("hidden");
    const body = seat !== null ? { seat, action } : { action };
    if (uno) body.uno = true;  // UNO Elite: the card is played saying UNO!
    try {
      await post("/api/digital/act", body);
      say("");
    } catch (err) {
      say(err.message);
    }
  }

  function cardFace(card, extra) {
    return [el("span", { class: "sym", "aria-hidden": "true", text: SYMBOL[card.colour] }),
      el("span", { class: "nm", text: card.name }), extra].filter(Boolean);
  }

  // ---------------------------------------------------------------- setting up
  const seats = [["You", true], ["Bot Bea", false], ["Bot Cy", false]];
  function renderSetup() {
    $("seatrows").replaceChildren(...seats.map(([name, person], i) => el("div", { class: "row" },
      el("b", { text: `Seat ${i + 1}` }),
      el("input", { type: "text", value: name, "aria-label": `name of seat ${i + 1}`,
        oninput: (e) => { seats[i][0] = e.target.value; } }),
      el("label", {}, el("input", { type: "checkbox", checked: person, "data-seat": i,
        onchange: (e) => { seats[i][1] = e.target.checked; } }), "a person plays"),
      seats.length > 2 ? el("button", { text: "remove", onclick: () => { seats.splice(i, 1); renderSetup(); } }) : null)));
    $("notoken").classList.toggle("hidden", me.host);
    $("start").disabled = !me.host;
  }
  $("addseat").onclick = () => { if (seats.length < 10) { seats.push([`Bot ${seats.length + 1}`, false]); renderSetup(); } };
  $("tokensave").onclick = async () => {
    try { me = await Tinker.signIn($("tokenin").value.trim()); $("tokenin").value = ""; say(""); }
    catch (err) { say(err.message); }
    document.body.classList.toggle("host", me.host);
    renderSetup();
  };
  async function start(confirm) {
    const body = {
      players: seats.map(([n]) => n.trim()),
      humans: seats.map(([, p], i) => (p ? i : null)).filter((i) => i !== null),
      bots: $("bots").value, pace: Number($("pace").value), ruleset: $("ruleset").value,
      options: $("ruleset").value === "elite" ? { mode: $("mode").value }
        : { target: Number($("target").value) }, confirm: !!confirm,
    };
    try {
      const res = await post("/api/digital/new", body);
      const links = Object.entries(res.links);
      if (links.length === 1 && !params.has("new")) { location.href = links[0][1]; return; }
      showLinks(res.links, body.players);
      say("");
    } catch (err) {
      if (err.confirm && window.confirm(err.message)) return start(true);
      say(err.message);
    }
  }
  $("start").onclick = () => start(false);
  $("ruleset").onchange = () => {  // UNO Elite has no points to play to, and a mode instead
    const elite = $("ruleset").value === "elite";
    $("modebox").classList.toggle("hidden", !elite);
    $("targetbox").classList.toggle("hidden", elite);
  };

  // The host's screen: each person's seat link, and its QR code for their own phone. A link
  // works on its own (it carries the seat's key once, then a cookie takes over).
  function showLinks(links, names) {
    const rows = Object.entries(links).map(([s, href]) => el("div", { class: "seatlink" },
      el("img", { src: `/api/digital/qr/${s}.svg`, alt: `QR code: the link for ${names[s]}'s seat` }),
      el("div", {}, el("b", { text: names[s] }), el("br"),
        el("a", { href, text: `open seat ${Number(s) + 1} here` }),
        el("div", { class: "muted", text: "Scan it with that player's own phone." }))));
    $("links").replaceChildren(el("h2", { text: "Links for the people playing" }), ...rows);
  }
  async function loadLinks() {
    if (!me.host || !view || !view.game) return;
    const res = await fetch("/api/digital/links", { cache: "no-store" });
    if (res.ok) showLinks((await res.json()).links, view.players.map((p) => p.name));
    $("seatlinks").replaceChildren(...$("links").childNodes);
    $("seatlinksbox").classList.toggle("hidden", !$("seatlinks").childNodes.length);
  }
  $("showlinks").onclick = loadLinks;
  $("eshowlinks").onclick = loadLinks;

  // ---------------------------------------------------------------- the game
  function render(v) {
    view = v;
    document.body.dataset.version = v.version;
    $("journalerr").textContent = v.journal_error ? `Not saved: ${v.journal_error}` : "";
    $("journalerr").classList.toggle("hidden", !v.journal_error);
    const setup = (!v.game || params.has("new")) && seat === null;
    const elite = v.ruleset === "elite";
    $("setup").classList.toggle("hidden", !setup);
    $("game").classList.toggle("hidden", setup || elite);
    $("elite").classList.toggle("hidden", setup || !elite);
    $("seatlinksbox").classList.toggle("hidden", setup || !$("seatlinks").childNodes.length);
    if (setup) { renderSetup(); return; }
    if (elite) {
      const self = seat !== null ? v.players[seat] : null;
      $("who").textContent = self ? `${self.name}, seat ${seat + 1}` : "watching (no hand shown)";
      TinkerElite.render(v, act, me);
      $("banner").classList.toggle("hidden", v.winner === null);
      if (v.winner !== null) $("banner").textContent = `★ ${v.winner} won UNO Elite ★`;
      return;
    }
    // the table first: what is in play and whose move it is stay where they are; only the
    // log's own box scrolls, so an update never moves the page away from "Your move"
    const logBox = $("log");
    const atEnd = logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 8;
    const mine = seat !== null ? v.players[seat] : null;
    $("who").textContent = mine ? `${mine.name}, seat ${seat + 1}` : "watching (no hand shown)";
    const turn = v.awaiting.seat;
    $("players").replaceChildren(...v.players.map((p) => el("div", {
      class: "pl" + (p.seat === turn ? " turn" : "") + (p.seat === seat ? " me" : ""), "data-seat": p.seat },
      el("div", { class: "nm", text: p.name }),
      el("div", { class: "ct", text: `${p.cards} card${p.cards === 1 ? "" : "s"} · ${p.score} points` }),
      el("div", { class: "muted", text: [p.person ? "person" : "bot", p.deals ? "deals" : "",
        p.seat === turn ? "to move" : "", p.out ? "OUT" : ""].filter(Boolean).join(" · ") }))));
    if (v.top) {
      $("top").className = `bigcard c-${v.top.colour}`;
      $("top").dataset.code = v.top.code;
      $("top").replaceChildren(...cardFace(v.top));
    }
    $("colour").textContent = v.colour ? `${SYMBOL[v.colour]} ${v.colour} in play`
      : v.awaiting.kind === "tinker_bell" || v.choosing ? "Tinker Bell chooses the colour" : "colour to be named";
    $("colour").dataset.colour = v.colour || "";
    $("facts").textContent = `hand ${v.hand_no} · play goes ${v.direction} · ${v.draw_pile} in the draw pile · to ${v.target}`;
    $("says").textContent = v.says;
    const tb = v.awaiting.kind === "tinker_bell" && !v.choosing;
    const canPress = v.emulator && (me.host || me.seats.length > 0);
    $("pressbox").classList.toggle("hidden", !tb);
    $("press").classList.toggle("hidden", !canPress);
    $("presstext").textContent = canPress ? "Press Tinker Bell:" : v.emulator
      ? "Waiting for a player to press Tinker Bell…" : "Press the Tinker Bell button on the tray!";
    renderHand(v);
    logBox.replaceChildren(...v.log.map((line) => el("li", { text: line })));
    if (atEnd) logBox.scrollTop = logBox.scrollHeight;
    $("hands").replaceChildren(...(v.hands.length ? v.hands.map((h) =>
      el("div", { text: `Hand ${h.hand}: ${h.winner} went out, scoring ${h.points}` })) : ["No hand finished yet."]));
    $("record").classList.toggle("hidden", !me.host);
    $("newlink").classList.toggle("hidden", !me.host);
    $("banner").classList.toggle("hidden", !v.winner);
    if (v.winner) $("banner").textContent = `★ ${v.winner} won the game ★`;
  }

  function renderHand(v) {
    const uno = $("uno");
    $("unobox").classList.toggle("hidden", !v.uno_possible);
    if (!v.uno_possible) uno.checked = false;
    $("hand").replaceChildren(...v.hand.map((card) => {
      const verb = card.moves.length ? card.moves[0].verb : "";
      return el("button", {
        class: `card c-${card.colour}`, "data-code": card.code, disabled: !card.moves.length,
        "aria-label": `${verb} ${card.name}`.trim(), onclick: () => choose(card),
      }, ...cardFace(card, verb ? el("span", { class: "verb", text: verb }) : null));
    }));
    $("moves").replaceChildren(...v.moves.map((m) =>
      el("button", { class: "primary", "data-action": m.a, text: m.text, onclick: () => act(m.a) })));
    $("calls").replaceChildren(...v.calls.map((m) =>
      el("button", { class: "danger", "data-action": m.a, text: m.text, onclick: () => act(m.a) })));
    if (pending && !v.hand.some((c) => c.code === pending.code && c.moves.length)) pending = null;
    $("colours").classList.toggle("hidden", !pending);
  }

  function choose(card) {
    const uno = $("uno").checked;
    let moves = card.moves.filter((m) => m.uno === uno);
    if (!moves.length) moves = card.moves;
    if (moves.length === 1) { act(moves[0].a); return; }
    pending = card; // a Wild: which colour?
    $("colours").replaceChildren(el("b", { text: `${card.name}: choose the colour` }), ...moves.map((m) =>
      el("button", { class: `c-${m.call}`, "data-call": m.call, text: `${SYMBOL[m.call]} ${m.call}`,
        onclick: () => act(m.a) })), el("button", { text: "cancel",
        onclick: () => { pending = null; $("colours").classList.add("hidden"); } }));
    $("colours").classList.remove("hidden");
  }

  $("press").onclick = async () => {
    try { await post("/api/press", {}); say(""); } catch (err) { say(err.message); }
  };

  // ---------------------------------------------------------------- the stream
  async function connect() {
    me = await Tinker.whoami();
    document.body.classList.toggle("host", me.host);
    seat = asked !== null ? asked : me.seats.length === 1 ? me.seats[0] : null;
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
        if (res.status === 403) { source.close(); say((await res.json()).error); status.textContent = "not your seat"; }
      }
    });
  }
  connect();
})();
