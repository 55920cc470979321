// The entry page: card keyboard, typed totals, undo, edit, the Tinker Bell declaration, new game.
"use strict";
(() => {
  const { el, post, markBusy, SYMBOL } = Tinker;
  const $ = (id) => document.getElementById(id);
  let view = null;
  let keys = [];
  const points = {};
  // the hand being entered: who went out, and per seat a list of codes and/or a typed total
  let form = { winner: null, held: {}, typed: {}, selected: null, editing: null };

  // What the display said, beside what caused it (the button pressed, its row), scrolled into
  // view: a refusal at the top of the page is not seen from the New game form at the bottom.
  function say(text, ok, near) {
    const box = $("message");
    if (near && text) {
      const row = near.closest(".row") || near;
      if (row.nextElementSibling !== box) row.after(box);
    }
    box.replaceChildren(text ? el("div", { class: ok ? "ok" : "error", text }) : "");
    if (text) box.scrollIntoView({ block: "nearest" });
  }
  async function send(path, body, done, near) {
    try {
      const res = await post(path, body);
      say(done || "", true, near);
      return res;
    } catch (err) {
      say(err.message, false, near);
      throw err;
    }
  }

  // A write is one action, sent once: while it is under way its button is busy (a double tap
  // is one tap), and so is every button of the same write a re-draw makes meanwhile (`busy`,
  // by name). Its refusal is said by `send`; the page is drawn again when it is answered.
  const busy = new Set();
  async function write(name, button, work) {
    if (busy.has(name)) return undefined;
    busy.add(name);
    markBusy(button, true);
    try { return await work(); } catch (err) {
      if (!("status" in err)) console.error(err);  // a refusal or a lost answer is said already
      return undefined;
    } finally {
      busy.delete(name);
      markBusy(button, false);
      if (view) { renderForm(); renderHistory(); renderDeclare(); }
    }
  }
  const busyMark = (name) => (busy.has(name) ? { disabled: true, "aria-busy": "true" } : {});

  let me = { host: false, seats: [], press: false };
  function showRole(who) {
    me = who;
    document.body.classList.toggle("host", who.host);
    $("notoken").classList.toggle("hidden", who.host);
    $("replaced").classList.toggle("hidden", !who.replaced);
  }
  $("tokensave").onclick = () => write("signin", $("tokensave"), async () => {
    try {
      showRole(await Tinker.signIn($("tokenin").value.trim()));
      $("tokenin").value = "";
      say("");
      loadGames();
    } catch (err) { say(err.message, false, $("tokensave")); }
  });

  function resetForm() {
    form = { winner: null, held: {}, typed: {}, selected: null, editing: null };
  }

  function alive() {
    return view.players.filter((p) => !p.out);
  }

  function seatTotal(seat) {
    if (form.typed[seat] !== undefined && form.typed[seat] !== "") return Number(form.typed[seat]);
    return (form.held[seat] || []).reduce((a, c) => a + points[c], 0);
  }

  function renderForm() {
    const box = $("handform");
    // A game played on /play scores its own hands: nothing is entered here (the note says so).
    $("playednote").classList.toggle("hidden", !view || !view.played);
    box.classList.toggle("hidden", !view || !view.players.length || view.played
      || (!!view.winner && form.editing === null));
    if (!view || !view.players.length) return;
    $("formtitle").textContent = form.editing !== null ? `Editing hand ${form.editing + 1}`
      : `Hand ${view.hand_count + 1}` + (view.dealer !== null ? ` (${view.players[view.dealer].name} deals)` : "");
    $("cancel").classList.toggle("hidden", form.editing === null);
    box.classList.toggle("started", form.winner !== null);  // a phone drops the how-to then
    $("submit").textContent = form.editing !== null ? "Save hand " + (form.editing + 1) : "Enter hand";
    $("submit").disabled = busy.has("hand");
    $("undo").disabled = !view.can_undo || busy.has("undo");
    $("redo").classList.toggle("hidden", !view.redo);
    $("redo").disabled = busy.has("redo");
    $("redo").title = REDO[view.redo] || "";
    $("winners").replaceChildren(el("b", { text: "Went out:" }), ...alive().map((p) =>
      el("button", { "aria-pressed": String(form.winner === p.seat), "data-seat": p.seat,
        onclick: () => { form.winner = p.seat; if (form.selected === p.seat) form.selected = null;
                         delete form.held[p.seat]; delete form.typed[p.seat]; renderForm(); } },
        p.name)));
    const others = alive().filter((p) => p.seat !== form.winner);
    if (form.selected === null && form.winner !== null && others.length) form.selected = others[0].seat;
    $("seats").replaceChildren(...(form.winner === null ? [] : others.map((p) => {
      const held = form.held[p.seat] || [];
      const input = el("input", { type: "number", min: 0, inputmode: "numeric", placeholder: "total",
        "aria-label": `typed total for ${p.name}`, value: form.typed[p.seat] ?? "" });
      input.addEventListener("input", () => { form.typed[p.seat] = input.value; updateSums(); });
      input.addEventListener("focus", () => { form.selected = p.seat; markSelected(); });
      return el("div", { class: "seat" + (form.selected === p.seat ? " selected" : ""), "data-seat": p.seat,
                         onclick: () => { form.selected = p.seat; markSelected(); } },
        el("button", { class: "who", text: (view.rules.partners && p.seat === (form.winner + 2) % 4)
          ? p.name + " (partner)" : p.name }),
        el("div", { class: "held" }, ...held.map((code, i) => {
          const k = keys.find((x) => x.code === code);
          return el("button", { class: "chip c-" + k.colour, title: "remove " + k.name,
            onclick: (e) => { e.stopPropagation(); held.splice(i, 1); renderForm(); } },
            `${SYMBOL[k.colour]} ${k.label} ✕`);
        })),
        el("div", { class: "sum", "data-sum": p.seat, text: String(seatTotal(p.seat)) }),
        input);
    })));
  }
  function markSelected() {
    for (const row of document.querySelectorAll(".seat")) {
      row.classList.toggle("selected", Number(row.dataset.seat) === form.selected);
    }
  }
  function updateSums() {
    for (const cell of document.querySelectorAll("[data-sum]")) {
      cell.textContent = String(seatTotal(Number(cell.dataset.sum)));
    }
  }

  // On a phone the keyboard shows one colour at a time (a row of colour tabs above it), so it
  // and "Enter hand" fit on the first screen with keys a finger can hit; wider screens show all.
  const COLOURS = ["red", "blue", "green", "yellow", "wild"];
  const title = (colour) => colour[0].toUpperCase() + colour.slice(1);
  function showColour(colour) {
    $("keys").dataset.show = colour;
    for (const tab of $("keytabs").children) {
      tab.setAttribute("aria-pressed", String(tab.dataset.colour === colour));
    }
  }
  function renderKeys() {
    const colours = COLOURS.filter((c) => keys.some((k) => k.colour === c));  // the deck's own
    $("keytabs").replaceChildren(...colours.map((colour) => el("button", {
      class: "keytab c-" + colour, "data-colour": colour, "aria-pressed": "false",
      onclick: () => showColour(colour) }, `${SYMBOL[colour]} ${title(colour)}`)));
    const out = [];
    for (const colour of colours) {
      out.push(el("div", { class: "rowname", text: title(colour) }));
      for (const k of keys.filter((x) => x.colour === colour)) {
        out.push(el("button", { class: "key c-" + colour + (colour === "wild" ? " wide" : ""),
          title: `${k.name} (${k.points} points)`, "data-code": k.code,
          // its name to a screen reader, with the key's own (maybe shortened) label in it
          "aria-label": k.name.split(" ").includes(k.label) ? k.name : `${k.label}: ${k.name}`,
          onclick: () => {
            if (form.selected === null) { say("First tap who went out, then a player.", false, $("keys")); return; }
            (form.held[form.selected] ||= []).push(k.code);
            delete form.typed[form.selected];
            renderForm();
          } }, el("span", { class: "ks", "aria-hidden": "true", text: SYMBOL[colour] }), k.label));
      }
    }
    $("keys").replaceChildren(...out);
    showColour($("keys").dataset.show || "red");
  }

  // What Redo brings back, said on its button (the view's `redo`: the kind of the entry undone).
  const REDO = { hand: "Enter the undone hand again", edit: "Make the undone edit again",
                 void: "Strike the hand again", dealer: "Set the dealer again" };

  $("submit").onclick = () => write("hand", $("submit"), async () => {
    if (form.winner === null) { say("Tap who went out first.", false, $("submit")); return; }
    const held = view.players.map((p) => {
      if (p.out || p.seat === form.winner) return null;
      if (form.typed[p.seat] !== undefined && form.typed[p.seat] !== "") return Number(form.typed[p.seat]);
      if (view.rules.partners && p.seat === (form.winner + 2) % 4 && !(form.held[p.seat] || []).length) return null;
      return form.held[p.seat] || [];
    });
    const body = { kind: form.editing !== null ? "edit" : "hand", winner: form.winner, held };
    if (form.editing !== null) body.hand = form.editing;
    await send("/api/entry", body, form.editing !== null ? `Hand ${form.editing + 1} saved.` : "Hand entered.",
               $("submit"));
    resetForm();
  });
  $("cancel").onclick = () => { resetForm(); renderForm(); };
  $("undo").onclick = () => write("undo", $("undo"),
    () => send("/api/entry", { kind: "undo" }, "Undone: Redo brings it back.", $("undo")));
  $("redo").onclick = () => write("redo", $("redo"),
    () => send("/api/entry", { kind: "redo" }, "Redone.", $("redo")));

  // A long word of a name may break at a soft hyphen (every 4 letters, "Bart-holo-mew") on a
  // narrow phone; a short one never breaks ("Mum", not "Mu/m").
  const soft = (name) => name.replace(/[^\s-]{6,}/g,
    (word) => word.match(/.{1,4}/g).reduce((out, part, i, parts) =>
      (i && (parts.length - i > 1 || part.length >= 3) ? out + "\u00ad" : out) + part, ""));

  // What a player scored in a hand, above (on a phone) or before their running total; nothing
  // at all where they scored nothing, so the cell is the total alone (no placeholder mark).
  const scoredOver = (wentOut, points) => {
    const star = wentOut ? "★ " : "";
    if (!points) return star ? [el("span", { class: "scored", text: star })] : [];
    return [el("span", { class: "scored", text: star + "+" + points }), el("span", { class: "eq", text: " = " })];
  };

  function renderHistory() {
    const box = $("history");
    if (!view.hands.length) { box.textContent = "No hands yet."; return; }
    const head = el("tr", {}, el("th", { text: "Hand" }), el("th", { class: "dealt", text: "Dealt" }),
      ...view.players.map((p) => el("th", { text: soft(p.name) })), el("th", { class: "host-only", text: "" }));
    const first = view.hand_count - view.hands.length;  // older hands: in the export
    const rows = view.hands.map((h, j) => { const i = first + j; return el("tr", {},
      el("td", {}, String(h.number),
        el("span", { class: "dealt-here", text: soft(view.players[h.dealer].name) + " dealt" })),
      el("td", { class: "dealt", text: view.players[h.dealer].name }),
      ...view.players.map((p, s) => el("td", { class: s === h.winner ? "win" : "",
        title: s === h.winner ? "went out" : "" },
        ...scoredOver(s === h.winner, h.scored[s]),
        el("span", { class: "running", text: String(h.totals[s]) }))),
      el("td", { class: "host-only" }, ...(view.played ? [] : [
        el("button", { text: "Edit", onclick: () => {
          form = { winner: h.winner, held: {}, typed: {}, selected: null, editing: i };
          h.held.forEach((x, s) => { if (Array.isArray(x)) form.held[s] = [...x];
                                      else if (typeof x === "number") form.typed[s] = String(x); });
          renderForm();
          $("handform").scrollIntoView();
        } }),
        el("button", { class: "danger", text: "Strike", ...busyMark("void"), onclick: (e) => {
          const button = e.currentTarget;
          if (busy.has("void") || !confirm(`Strike hand ${h.number} from the game? (Undo brings it back.)`)) return;
          write("void", button, () => send("/api/entry", { kind: "void", hand: i }, `Hand ${h.number} struck.`, button));
        } })]))); });
    box.replaceChildren(...(first > 0 ? [el("p", { text: `The last ${view.hands.length} of ${view.hand_count} hands (the export has them all).` })] : []),
      el("table", { class: "history" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  }

  function renderDeclare() {
    const cards = [["RD2", "red", "Red +2"], ["BD2", "blue", "Blue +2"], ["GD2", "green", "Green +2"],
                   ["YD2", "yellow", "Yellow +2"], ["WDA", "wild", "Discard All"], ["VD4", "wild", "Villain +4"]];
    $("declare").replaceChildren(...cards.map(([code, colour, label]) =>
      el("button", { class: "key c-" + colour, "data-declare": code, title: label,
        "aria-pressed": String(!!view.declared && view.declared.card === code), ...busyMark("declare"),
        onclick: (e) => {
          const seat = $("declarer").value === "" ? null : Number($("declarer").value);
          const button = e.currentTarget;
          write("declare", button, () => send("/api/entry", { kind: "declare", card: code, seat },
            `${label} declared: press the button.`, button));
        } }, `${SYMBOL[colour]} ${label}`)),
      el("button", { text: "Clear", ...busyMark("declare"), onclick: (e) => {
        const button = e.currentTarget;
        write("declare", button, () => send("/api/entry", { kind: "declare", card: null }, "", button));
      } }));
    const sel = $("declarer");
    const keep = sel.value;
    sel.replaceChildren(el("option", { value: "", text: "(not said)" }),
      ...view.players.map((p) => el("option", { value: p.seat, text: p.name })));
    sel.value = keep;
    $("declared").textContent = view.declared ? `Declared: ${view.declared.name}` : "";
  }

  $("press").onclick = () => write("press", $("press"), () => send("/api/press", {}, "", $("press")));
  $("moregames").onclick = () => loadGames(true);
  // A restore (backup.js) brings another journal: its games may have the same ids as these.
  document.addEventListener("tinker:restored", () => { resetForm(); loadGames(); });

  // The display is asked first, without a confirmation: it refuses what cannot start (a name,
  // two alike, too many or too few players) before anyone is asked anything, and answers
  // `confirm` only while a game with hands is unfinished. Then the question, and the same
  // game sent again with the yes (a new action: its own key).
  $("newgame").onclick = () => write("newgame", $("newgame"), async () => {
    const button = $("newgame");
    const players = $("names").value.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);
    const d = $("dealer").value.trim();
    let dealer = 0;
    if (d) {
      dealer = players.findIndex((n) => n.toLowerCase() === d.toLowerCase());
      if (dealer < 0) { say(`The dealer ${d} is not one of the players.`, false, button); return; }
    }
    const body = { players, dealer, options: { scoring: $("scoring").value,
      target: Number($("target").value), partners: $("partners").checked } };
    if ($("ruleset").value) body.ruleset = $("ruleset").value;
    try {
      await post("/api/new-game", body);
    } catch (err) {
      if (!err.confirm) { say(err.message, false, button); return; }
      if (!confirm(`The current game is not finished. Start a new game for ${players.join(", ")}? `
                   + "(The current game stays in the journal.)")) return;
      await send("/api/new-game", { ...body, confirm: true }, "", button);
    }
    say("New game started.", true, button);
    resetForm();
    loadGames();
  });

  // A new table key: the old one (every other phone's cookie) works no more; this phone's
  // cookie is the new one, and the key is shown to pass on (typed on the entry page).
  $("newkey").onclick = () => write("newkey", $("newkey"), async () => {
    if (!confirm("Make a new table key? Every other phone stops being the host's and must "
                 + "pair again; the games are kept.")) return;
    const res = await send("/api/new-key", {}, "", $("newkey"));
    $("newkeysaid").textContent = `New table key: ${res.token}. Every other phone must pair again.`;
  });

  // A kept game in words: its name (a digital game's says its rules and players), when it was
  // started, and who won it, whether it is the one in play, or how it was left: ended by the
  // host, or unfinished (a game put aside for a new one, which a family may want to delete).
  function gameWords(g, current) {
    const when = new Date(g.created * 1000).toLocaleString(undefined,
      { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
    const state = g.winner ? `won by ${g.winner}` : g.finished ? "finished"
      : g.id === current ? "current" : g.ended ? "ended unfinished by the host"
      : g.entries || g.digital ? "unfinished" : "not played";
    return `${g.name} · ${when}` + (state ? ` · ${state}` : "");
  }
  let older = null;  // where the next page of kept games starts
  async function loadGames(more) {
    const res = await fetch("/api/games" + (more && older ? `?before=${older}` : ""));
    const data = await res.json();
    older = data.next;
    $("moregames").classList.toggle("hidden", !data.next);
    const rows = data.games.map((g) => el("div", { class: "row" },
      el("span", { class: "gamename", text: gameWords(g, data.current) }),
      me.host && g.entries ? el("a", { href: `/api/games/${g.id}.csv`, text: "CSV" }) : null,
      me.host && g.entries ? el("a", { href: `/api/games/${g.id}.json`, text: "JSON" }) : null,
      me.host && g.digital ? el("a", { href: `/api/games/${g.id}.jsonl`, text: "Game record" }) : null,
      g.id === data.current || !me.host ? null : el("button", { class: "danger", text: "Delete",
        onclick: (e) => write("delete " + g.id, e.currentTarget, async () => {
          const phrase = prompt(`This deletes ${g.name} for good. Type: delete game ${g.id}`);
          if (phrase === null) return;
          await send(`/api/games/${g.id}/delete`, { confirm: phrase }, `${g.name} deleted.`, $("games"));
          loadGames();
        }) })));
    if (more) $("games").append(...rows); else $("games").replaceChildren(...rows);
  }

  // The keys of the game in play's deck (each ruleset's sheet gives its own keyboard).
  async function loadKeys() {
    const res = await fetch("/api/cards");
    const data = await res.json();
    keys = data.keys;
    for (const k of keys) points[k.code] = k.points;
    $("press").classList.toggle("hidden", !data.emulator || !me.host);
    renderKeys();
    if (!$("ruleset").options.length) {  // the rulesets a game here may be of, offered once
      $("ruleset").replaceChildren(...data.rulesets.map((r) => el("option", { value: r.name, text: r.title })));
      $("rulesetbox").classList.toggle("hidden", data.rulesets.length < 2);
    }
  }

  async function start() {
    showRole(await Tinker.whoami());
    await loadKeys();
    loadGames();
    Tinker.live((v) => {
      const gameChanged = !view || view.game !== v.game;
      const rulesChanged = view && (view.rules || {}).title !== (v.rules || {}).title;
      view = v;
      document.body.dataset.version = v.version;
      if (gameChanged) { resetForm(); loadGames(); }
      if (rulesChanged) loadKeys();  // a game of another ruleset: its own deck's keys
      if (form.editing !== null && form.editing >= v.hand_count) resetForm();
      $("totals").textContent = v.players.map((p) => `${p.name} ${p.total}`).join(" · ");
      renderForm();
      renderHistory();
      renderDeclare();
    });
  }
  start();
})();
