// The club's pages: every table at a glance (/), or one table for spectators (/table/NAME).
// Both read the same live snapshot (common.js's Tinker.live); neither can write anything.
"use strict";
(() => {
  const { el, SYMBOL } = Tinker;
  const $ = (id) => document.getElementById(id);
  const one = document.body.dataset.view === "table"
    ? decodeURIComponent(location.pathname.split("/").pop()) : null;

  function swatch(pick, big) {
    if (!pick) return el("div", { class: "swatch none", text: "no pick yet" });
    return el("div", { class: `swatch c-${pick.colour}`, "data-colour": pick.colour,
                       "data-seq": pick.seq },
      el("span", { class: "sym", text: SYMBOL[pick.colour] || "" }), pick.colour);
  }

  function onlineTag(t) {
    const on = t.online === true;
    return el("span", { class: "tag " + (on ? "online" : "offline"),
                        text: t.online === null ? "?" : (on ? "online" : "offline") });
  }

  function scoreRows(t) {
    const s = t.scores;
    if (!s || !s.players.length) return [el("p", { class: "muted", text: "No game yet." })];
    const target = s.target || 500;
    return s.players.map((p) => el("div", {
        class: "score" + (p.leads ? " leads" : "") + (p.out ? " out" : ""), "data-player": p.name },
      el("div", { class: "name" }, p.name,
        p.leads ? el("span", { class: "tag lead", text: s.over ? "WINNER" : "LEADS" }) : null,
        p.out ? el("span", { class: "tag outtag", text: "OUT" }) : null),
      el("div", { class: "total", text: String(p.total) }),
      el("div", { class: "bar", title: `${p.total} of ${target}` },
        el("div", { style: `width:${Math.max(0, Math.min(100, (100 * p.total) / target))}%` }))));
  }

  function finishedItems(games, withTable) {
    if (!games.length) return [el("li", { class: "muted", text: "None yet." })];
    return games.map((g) => el("li", {},
      withTable ? el("b", { text: g.table + ": " }) : null, g.text,
      el("span", { class: "muted", text: " (" + Object.entries(g.totals || {})
        .map(([n, v]) => `${n} ${v}`).join(", ") + ")" })));
  }

  function card(t) {
    return el("article", { class: "panel table-card", "data-table": t.name },
      el("h2", {}, el("a", { href: "/table/" + encodeURIComponent(t.name), text: t.name }),
        onlineTag(t)),
      el("div", { class: "leader" }, el("span", { class: "muted", text: "Leads: " }),
        el("b", { text: t.leader || "nobody yet" })),
      el("div", { class: "scores" }, ...scoreRows(t)),
      el("div", { class: "pick" }, swatch(t.pick),
        el("div", { class: "says", text: t.pick ? t.pick.says : "" })));
  }

  function renderClub(v) {
    const n = v.tables.length;
    $("summary").textContent = `${n} table${n === 1 ? "" : "s"}, ${v.finished.length} game${v.finished.length === 1 ? "" : "s"} finished`;
    if (n) $("tables").replaceChildren(...v.tables.map(card));
    $("finished").replaceChildren(...finishedItems(v.finished, true));
  }

  function renderTable(v) {
    const t = v.tables.find((x) => x.name === one);
    $("name").textContent = one;
    document.title = `Tinker Bell club: ${one}`;
    if (!t) return;
    $("online").replaceWith(Object.assign(onlineTag(t), { id: "online" }));
    $("rules").textContent = t.scores && t.scores.target ? `to ${t.scores.target}` : "";
    $("scores").replaceChildren(...scoreRows(t));
    $("swatch").replaceWith(Object.assign(swatch(t.pick), { id: "swatch" }));
    $("says").textContent = t.pick ? t.pick.says : "";
    const earlier = t.picks.slice(1);
    $("picks").replaceChildren(...(earlier.length ? earlier.map((p) =>
      el("li", { "data-seq": p.seq }, `#${p.seq} `, el("b", { text: p.colour })))
      : [el("li", { class: "muted", text: "None yet." })]));
    $("finished").replaceChildren(...finishedItems(t.finished, false));
  }

  // A change holds only the tables that changed: each replaces its namesake, new ones join,
  // and those the club evicted to make room (`removed`) go; `whole`: every table, to replace.
  function merge(view, change) {
    const byName = new Map(change.whole ? [] : view.tables.map((t) => [t.name, t]));
    for (const name of change.removed || []) byName.delete(name);
    for (const t of change.tables) byName.set(t.name, t);
    const tables = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
    return { ...view, ...change, tables };
  }

  Tinker.live((v) => {
    document.body.dataset.version = v.version;
    (one === null ? renderClub : renderTable)(v);
  }, merge);
})();
