// Digital play: the seat in the address (?seat=N&key=K) sees its own hand and moves; without a
// seat the page watches (public state only) or sets up a new game. Every move goes to the
// server, which answers with the engine's rule message when a move is refused.
"use strict";
(() => {
  const { el, post, SYMBOL } = Tinker;
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const seat = params.has("seat") ? Number(params.get("seat")) : null;
  const key = params.get("key") || "";
  let view = null;
  let pending = null; // the Wild waiting for its colour

  function say(text) {
    $("message").replaceChildren(text ? el("div", { class: "error", text }) : "");
  }

  async function act(action) {
    pending = null;
    $("colours").classList.add("hidden");
    try {
      await post("/api/digital/act", { seat, key, action });
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
    $("notoken").classList.toggle("hidden", !!Tinker.token());
  }
  $("addseat").onclick = () => { if (seats.length < 10) { seats.push([`Bot ${seats.length + 1}`, false]); renderSetup(); } };
  $("tokensave").onclick = () => { localStorage.setItem("tinker-token", $("tokenin").value.trim()); renderSetup(); };
  async function start(confirm) {
    const body = {
      players: seats.map(([n]) => n.trim()),
      humans: seats.map(([, p], i) => (p ? i : null)).filter((i) => i !== null),
      bots: $("bots").value, pace: Number($("pace").value), ruleset: $("ruleset").value,
      options: { target: Number($("target").value) }, confirm: !!confirm,
    };
    try {
      const res = await post("/api/digital/new", body);
      const links = Object.entries(res.links);
      if (links.length === 1) { location.href = links[0][1]; return; }
      $("links").replaceChildren(el("h2", { text: "Links for the people playing" }),
        ...links.map(([s, href]) => el("p", {}, el("a", { href: `${href}&token=${encodeURIComponent(Tinker.token())}`,
          text: `${body.players[s]}: open to play seat ${Number(s) + 1}` }))));
      say("");
    } catch (err) {
      if (err.confirm && window.confirm(err.message)) return start(true);
      say(err.message);
    }
  }
  $("start").onclick = () => start(false);

  // ---------------------------------------------------------------- the game
  function render(v) {
    view = v;
    $("journalerr").textContent = v.journal_error ? `Not saved: ${v.journal_error}` : "";
    $("journalerr").classList.toggle("hidden", !v.journal_error);
    const setup = !v.game || params.has("new");
    $("setup").classList.toggle("hidden", !setup);
    $("game").classList.toggle("hidden", setup);
    if (setup) { renderSetup(); return; }
    const me = seat !== null ? v.players[seat] : null;
    $("who").textContent = me ? `${me.name}, seat ${seat + 1}` : "watching (no hand shown)";
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
    $("colour").textContent = v.colour ? `${SYMBOL[v.colour]} ${v.colour} in play` : "colour to be named";
    $("colour").dataset.colour = v.colour || "";
    $("facts").textContent = `hand ${v.hand_no} · play goes ${v.direction} · ${v.draw_pile} in the draw pile · to ${v.target}`;
    $("says").textContent = v.says;
    const tb = v.awaiting.kind === "tinker_bell";
    $("pressbox").classList.toggle("hidden", !tb);
    $("press").classList.toggle("hidden", !v.emulator);
    $("presstext").textContent = v.emulator ? "Press the Tinker Bell button:" : "Press the Tinker Bell button on the tray!";
    renderHand(v);
    $("log").replaceChildren(...v.log.map((line) => el("li", { text: line })));
    if (v.log.length) $("log").lastChild.scrollIntoView({ block: "nearest" });
    $("hands").replaceChildren(...(v.hands.length ? v.hands.map((h) =>
      el("div", { text: `Hand ${h.hand}: ${h.winner} went out` })) : ["No hand finished yet."]));
    $("record").classList.toggle("hidden", !v.winner);
    $("banner").classList.toggle("hidden", !v.winner);
    if (v.winner) $("banner").textContent = `🏆 ${v.winner} won the game`;
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
  const status = el("div", { class: "status", role: "status", text: "connecting…" });
  document.body.append(status);
  const q = seat !== null ? `?seat=${seat}&key=${encodeURIComponent(key)}` : "";
  const source = new EventSource("/api/digital/events" + q);
  source.addEventListener("digital", (e) => {
    status.textContent = "live";
    status.classList.remove("down");
    render(JSON.parse(e.data));
  });
  source.addEventListener("error", async () => {
    status.textContent = "reconnecting…";
    status.classList.add("down");
    if (seat !== null) { // a wrong key, or a new game since: say so instead of retrying forever
      const res = await fetch("/api/digital/view" + q);
      if (res.status === 403) { source.close(); say((await res.json()).error); status.textContent = "not your seat"; }
    }
  });
})();
