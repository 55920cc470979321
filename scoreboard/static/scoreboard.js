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
  });
  $("press").onclick = () => Tinker.post("/api/press", {}).catch((err) => {
    $("says").textContent = err.message;
  });

  function render(v) {
    document.body.dataset.version = v.version;
    renderScores(v);
    renderChart(v);
    renderPick(v);
    renderElite(v.elite);
    renderPairing(v.pairing || { open: false, paired: false });
    const banner = $("banner");
    banner.classList.toggle("hidden", !v.winner);
    banner.textContent = v.winner ? "★ " + v.winner.text + " ★" : "";
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

  function renderChart(v) {
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
    const W = 640, H = 250, L = 48, R = 96, T = 12, B = 28;
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
    for (const e of ends) {
      const ly = Math.max(e.y + 5, last + 21);
      last = ly;
      const t = s("text", { x: W - R + 8, y: ly, fill: e.colour, "font-weight": 700 });
      t.textContent = e.name;
      svg.append(t);
    }
    box.replaceChildren(svg);
  }

  // The tray's button was held: its pairing window is open for a minute. The QR code is of the
  // pairing page (no token in it): the phone that scans it asks to become host there.
  function renderPairing(pairing) {
    const img = $("pairqr");
    if (pairing.open && !img.getAttribute("src")) {
      img.src = "/api/pair-qr.svg";
      fetch("/api/pairing", { cache: "no-store" }).then((r) => r.json())
        .then((p) => { $("pairurl").textContent = p.link; }).catch(() => {});
    }
    $("pairing").classList.toggle("hidden", !pairing.open);
    $("paired").classList.toggle("hidden", !pairing.paired);
  }

  // UNO Elite (digital play) has no points: a tally of the games each player won.
  function renderElite(elite) {
    const games = elite ? elite.games : 0;
    $("elitebox").classList.toggle("hidden", !games);
    if (!games) return;
    $("elitewins").replaceChildren(...elite.players.map((p) => el("li", { "data-name": p.name },
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
    $("meanings").replaceChildren(...(p ? p.meanings : []).map(([card, means]) =>
      el("li", {}, el("b", { text: card + ": " }), means)));
    const d = $("declared");
    d.classList.toggle("hidden", !v.declared);
    if (v.declared) {
      d.textContent = `Declared: ${v.declared.name}${v.declared.who ? " (" + v.declared.who + ")" : ""}. ` +
        (me.press ? "Press Tinker Bell!" : "Press the Tinker Bell button!");
    }
  }

  Tinker.live(render);
})();
