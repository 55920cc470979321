// The scoreboard: totals, chart, whose deal, the last pick and its meaning, the winner banner.
"use strict";
(() => {
  const { el, SYMBOL } = Tinker;
  const $ = (id) => document.getElementById(id);
  // Lines are told apart by colour AND by dash pattern, marker shape and a name label.
  const PALETTE = ["#ffd23f", "#4d9dff", "#ff6ea8", "#3ddc84", "#ff8c42", "#c7a4ff", "#5ce1e6",
                   "#f4f6fb", "#b5e655", "#ff4d4d"];
  const DASHES = ["", "10 5", "3 4", "14 4 3 4", "", "10 5", "3 4", "14 4 3 4", "", "10 5"];

  let me = { host: false, seats: [], press: false };
  Tinker.whoami().then((who) => {
    me = who;
    document.body.classList.toggle("host", who.host);
    if (who.host) {  // only the host's screen shows the QR code (it carries the token once)
      const img = $("qrimg");
      img.onload = () => $("qr").classList.remove("hidden");
      img.src = "/api/qr.svg";
    }
    $("pressrow").classList.toggle("hidden", !(who.press && (who.host || who.seats.length)));
    if (who.tray) $("presswhat").textContent = "The emulator's tray: this presses its Tinker Bell button.";
  });
  $("press").onclick = () => Tinker.post("/api/press", {}).catch((err) => {
    $("says").textContent = err.message;
  });

  function render(v) {
    document.body.dataset.version = v.version;
    renderScores(v);
    renderPick(v);
    renderWins(v.wins);
    renderPairing(v.pairing || { open: false, paired: false });
    const won = bannerText(v);
    const banner = $("banner");
    banner.classList.toggle("hidden", !won);
    banner.textContent = won ? "★ " + won + " ★" : "";
    announce(v.pick);
    renderChart(v);  // last: it takes the room the rest leaves
  }

  // localStorage, where the browser keeps it (a private window may refuse it: then per page).
  const kept = {
    get(key) { try { return JSON.parse(localStorage.getItem(key)); } catch (_) { return null; } },
    set(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (_) { /* */ } },
  };

  // The banner belongs to its game: gone with a new table game, and once a later game (UNO
  // Elite, which has no score sheet) has ended since (the server says so: `superseded`).
  // The winner's row keeps its WINNER tag for as long as that game's totals are shown.
  function bannerText(v) {
    return v.winner && !v.winner.superseded ? v.winner.text : null;
  }

  // Saying the pick aloud (off unless this browser's toggle is on): the browser's own speech,
  // once per pick, when the lights have settled (the view holds the colour back until then).
  // A pick already settled when the page opened is old news: not said.
  const speak = $("speak");
  speak.checked = kept.get("tinker.speak") === true;
  speak.onchange = () => kept.set("tinker.speak", speak.checked);
  let said;  // the seq of the last pick said (undefined until the first view)
  function announce(pick) {
    const settled = pick && !pick.pending ? pick.seq : null;
    if (said === undefined) { said = settled; return; }
    if (settled === null || settled === said) return;
    said = settled;
    if (!speak.checked || !("speechSynthesis" in window)) return;
    speechSynthesis.speak(new SpeechSynthesisUtterance(`Tinker Bell chose ${pick.colour}.`));
  }

  function renderScores(v) {
    const box = $("scores");
    $("rules").textContent = v.rules ? v.rules.says : "";
    const deal = $("deal");
    deal.classList.toggle("hidden", v.dealer === null);
    if (v.dealer !== null) deal.textContent = `Hand ${v.hand_count + 1}: ${v.players[v.dealer].name} deals`;
    if (!v.players.length) {
      box.replaceChildren(el("p", { class: "empty", text: "No game yet: start one on the entry page." }));
      return;
    }
    const target = v.rules.target;
    // On a TV the rows share the column's height: two columns of them from seven players on.
    const cols = v.players.length > 6 ? 2 : 1;
    box.style.setProperty("--cols", cols);
    box.style.setProperty("--rows", Math.ceil(v.players.length / cols));
    box.replaceChildren(...v.players.map((p) => {
      const share = Math.max(0, Math.min(100, (100 * p.total) / target));
      return el("div", { class: "score" + (p.leads ? " leads" : "") + (p.out ? " out" : ""),
                         "data-seat": p.seat },
        el("div", { class: "name" }, el("span", { class: "who", text: p.name }),
          p.team ? el("span", { class: "tag team", text: "Team " + p.team }) : null,
          p.deals ? el("span", { class: "tag deal", text: "DEALS" }) : null,
          p.leads && !p.won ? el("span", { class: "tag lead", text: "LEADS" }) : null,
          p.won ? el("span", { class: "tag lead", text: "WINNER" }) : null,
          p.out ? el("span", { class: "tag outtag", text: "OUT" }) : null),
        el("div", { class: "total", text: String(p.total) }),
        el("div", { class: "bar", title: `${p.total} of ${target}` },
          el("div", { style: `width:${share}%` })));
    }));
  }

  // The chart is drawn again when its room changes shape (a resized screen, a panel come or gone).
  let latest = null;
  let shape = "";
  new ResizeObserver(([entry]) => {
    const { width, height } = entry.contentRect;
    const now = `${Math.round(width / 4)}x${Math.round(height / 4)}`;
    if (now !== shape && latest) renderChart(latest);
  }).observe($("chart"));

  function renderChart(v) {
    latest = v;
    const box = $("chart");
    const chart = v.chart || { numbers: [], totals: [] };
    if (!chart.numbers.length) {
      box.replaceChildren(el("p", { class: "muted", text: "The chart starts after the first hand." }));
      return;
    }
    const NS = "http://www.w3.org/2000/svg";
    const s = (tag, attrs) => {
      const n = document.createElementNS(NS, tag);
      for (const [k, val] of Object.entries(attrs)) n.setAttribute(k, val);
      return n;
    };
    // The chart takes the shape of the room it has (a TV gives it what the pick leaves), tall
    // enough for every name at the lines' ends, wide enough on the right for the longest one.
    const room = box.getBoundingClientRect();
    shape = `${Math.round(room.width / 4)}x${Math.round(room.height / 4)}`;
    const longest = Math.max(...v.players.map((p) => p.name.length));
    const W = 640, L = 48, T = 12, B = 28, R = Math.min(240, 24 + 12.5 * longest);
    const shaped = room.height > 80 ? (W * room.height) / room.width : 250;
    const H = Math.round(Math.min(640, Math.max(T + B + 21 * v.players.length, 160, shaped)));
    const n = chart.numbers[chart.numbers.length - 1];  // the chart's points may skip hands
    const top = Math.max(v.rules.target, ...chart.totals.flat());
    const x = (hand) => L + ((W - L - R) * hand) / Math.max(1, n);
    const y = (t) => H - B - ((H - T - B) * t) / top;
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
                           "aria-label": "Running totals per hand" });
    svg.append(s("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }));
    svg.append(s("line", { x1: L, y1: y(v.rules.target), x2: W - R, y2: y(v.rules.target), class: "target" }));
    const tl = s("text", { x: 2, y: y(v.rules.target) + 5 }); tl.textContent = v.rules.target; svg.append(tl);
    const z = s("text", { x: 2, y: H - B + 5 }); z.textContent = "0"; svg.append(z);
    const hl = s("text", { x: W - R, y: H - 6, "text-anchor": "end" });
    hl.textContent = `hand ${n}`; svg.append(hl);
    const ends = [];
    v.players.forEach((p, seat) => {
      const pts = [[x(0), y(0)], ...chart.numbers.map((hand, i) => [x(hand), y(chart.totals[i][seat])])];
      const colour = PALETTE[seat % PALETTE.length];
      svg.append(s("polyline", { points: pts.map((q) => q.join(",")).join(" "), fill: "none",
        stroke: colour, "stroke-width": 4, "stroke-dasharray": DASHES[seat % DASHES.length],
        "stroke-linejoin": "round", "data-seat": seat }));
      const [ex, ey] = pts[pts.length - 1];
      svg.append(s("circle", { cx: ex, cy: ey, r: 5, fill: colour }));
      ends.push({ y: ey, name: p.name, colour });
    });
    ends.sort((a, b) => a.y - b.y);  // labels at the line ends, nudged apart so none overlap
    let last = -Infinity;
    for (const e of ends) last = e.ly = Math.max(e.y + 5, last + 21);
    let next = H - 4;  // and none below the chart's foot: pushed back up from there
    for (const e of ends.slice().reverse()) { e.ly = Math.min(e.ly, next); next = e.ly - 21; }
    for (const e of ends) {
      const ly = e.ly;
      const t = s("text", { x: W - R + 8, y: ly, style: `fill:${e.colour}`, "font-weight": 700 });
      t.textContent = e.name;
      svg.append(t);
    }
    box.replaceChildren(svg);
  }

  // The tray's button was held: its pairing window is open for a minute. The QR code is of the
  // pairing page (no token in it): the phone that scans it asks to become host there. A table
  // with no TV has the scoreboard on the very phone that should become host: it cannot scan
  // itself, so it taps (the button here, or the pairing page's link).
  function renderPairing(pairing) {
    const img = $("pairqr");
    if (pairing.open && !img.getAttribute("src")) {
      img.src = "/api/pair-qr.svg";
      fetch("/api/pairing", { cache: "no-store" }).then((r) => r.json())
        .then((p) => { $("pairurl").textContent = p.link; $("pairurl").href = p.link; })
        .catch(() => {});
    }
    $("pairing").classList.toggle("hidden", !pairing.open);
    document.body.classList.toggle("pairing-open", pairing.open);
    $("paired").classList.toggle("hidden", !pairing.paired);
  }

  $("pairhere").onclick = async () => {
    const say = (cls, text) => $("pairsays").replaceChildren(el("div", { class: cls, text }));
    try {
      if (!(await Tinker.becomeHost())) throw new Error("this phone did not become the host");
      say("ok", "Done: this phone is the host.");
      setTimeout(() => { location.href = "/enter"; }, 1500);
    } catch (err) {
      say("error", err.message);
    }
  };

  // The games without points (UNO Elite) have no score sheet: a tally of the games each won.
  function renderWins(tally) {
    const games = tally ? tally.games : 0;
    $("elitebox").classList.toggle("hidden", !games);
    if (!games) return;
    $("elitewins").replaceChildren(...tally.players.map((p) => el("li", { "data-name": p.name },
      el("b", { text: p.name }), ` ${p.wins} win${p.wins === 1 ? "" : "s"} of ${p.played}`)));
  }

  function renderPick(v) {
    const sw = $("swatch");
    const p = v.pick;
    // While the tray's lights spin, the server sends the pick without its colour (no spoiler):
    // the swatch says so, and the next message (when the lights settle) brings the colour.
    if (p && p.pending) {
      sw.className = "swatch none pending";
      sw.dataset.seq = p.seq;
      sw.replaceChildren(el("span", { class: "sym", text: "?" }), el("span", { text: "choosing…" }));
      $("says").textContent = p.says;
    } else if (p) {
      sw.className = "swatch c-" + p.colour;
      sw.dataset.seq = p.seq;
      sw.replaceChildren(el("span", { class: "sym", text: SYMBOL[p.colour] }),
                         el("span", { text: p.colour }));
      $("says").textContent = p.says;
    }
    Tinker.meanings($("meanings"), p);
    const d = $("declared");
    d.classList.toggle("hidden", !v.declared);
    if (v.declared) {
      d.textContent = `Declared: ${v.declared.name}${v.declared.who ? " (" + v.declared.who + ")" : ""}. ` +
        (me.press ? "Press Tinker Bell!" : "Press the Tinker Bell button!");
    }
  }

  Tinker.live(render);
})();
