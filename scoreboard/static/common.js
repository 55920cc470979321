// Shared by every page: who the visitor is, the live view stream, small DOM helpers. No framework.
"use strict";

const Tinker = (() => {
  // A QR code or a printed link carries the token (or a seat key) once: the server has set a
  // same-site cookie for it on this visit, so it leaves the address bar (and the history) now.
  const params = new URLSearchParams(location.search);
  if (params.has("token") || params.has("key")) {
    params.delete("token");
    params.delete("key");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }

  // Who this page's visitor is: {host, seats, press}. Pages hide what the visitor may not do.
  let me = null;
  async function whoami(fresh) {
    if (!me || fresh) {
      try { me = await (await fetch("/api/whoami", { cache: "no-store" })).json(); }
      catch (_) { me = { host: false, seats: [], press: false }; }
    }
    return me;
  }

  // The host types the token once (a page opened without the QR code): the server answers
  // with the cookie; the page never keeps the token itself.
  async function signIn(token) {
    await post("/api/session", { token });
    return whoami(true);
  }

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c !== null && c !== undefined && c !== false) node.append(c);
    }
    return node;
  }

  // Each message carries the journal id as its SSE id; a page that reconnects (EventSource does
  // so by itself) gets the whole view again with its first message.
  function live(render, merge) {
    const status = el("div", { class: "status", role: "status", text: "connecting…" });
    document.body.append(status);
    // The first message is the whole view; each later one ("view-change") only the keys
    // that changed since, merged into the view this page has (by `merge`, where a page's view
    // needs more than its top-level keys replaced).
    const source = new EventSource("/api/events");
    const unsaved = el("div", { class: "unsaved", role: "alert", hidden: true });
    document.body.prepend(unsaved);
    let current = null;
    const show = (view) => {
      current = view;
      status.textContent = "live";
      status.classList.remove("down");
      journalProblem(unsaved, view.journal);
      render(view);
    };
    source.addEventListener("view", (e) => show(JSON.parse(e.data)));
    const combine = merge || ((view, change) => ({ ...view, ...change }));
    source.addEventListener("view-change", (e) => show(combine(current, JSON.parse(e.data))));
    source.addEventListener("error", () => {
      status.textContent = "reconnecting…";
      status.classList.add("down");
    });
    return source;
  }

  // The journal could not save (a full SD card): every page says so until it saves again.
  function journalProblem(banner, journal) {
    const problems = [];
    if (journal && journal.unsaved) problems.push("⚠ " + journal.unsaved);
    if (journal && journal.unkept_pick) {
      problems.push(`Tinker Bell's pick #${journal.unkept_pick} was shown on the tray but not kept.`);
    }
    banner.textContent = problems.join(" ");
    banner.hidden = !problems.length;
  }

  // A write is one person's action, counted once. Each carries an Idempotency-Key made for
  // that action (16 random bytes as hex; crypto.randomUUID needs https, and the tray's pages
  // are http on the LAN), the same on the try again after a dropped connection: the display
  // answers a repeat as it answered the first, and writes nothing more (scoreboard/once.py).
  function actionKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function post(path, body, key = actionKey()) {
    const init = {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": key },
      credentials: "same-origin",
      body: JSON.stringify(body || {}),
    };
    let res;
    try { res = await fetch(path, init); } catch (_) {
      try { res = await fetch(path, init); }  // the answer was lost: the same action again
      catch (_) { throw new Error("the display did not answer: check this phone's Wi-Fi, then try again"); }
    }
    let data = {};
    try { data = await res.json(); } catch (_) { /* not JSON */ }
    if (!res.ok) {
      const err = new Error(data.error || `the display refused (${res.status})`);
      err.status = res.status;
      err.confirm = !!data.confirm;
      throw err;
    }
    return data;
  }

  // A button whose write is under way: disabled (a second tap does nothing) and aria-busy.
  function markBusy(button, on) {
    if (!button) return;
    button.disabled = on;
    if (on) button.setAttribute("aria-busy", "true"); else button.removeAttribute("aria-busy");
  }

  // The pairing window is open (the tray's button was held): this phone asks to become host.
  // Whether it is now (the answer sets the host cookie; `post` throws the refusal's sentence).
  async function becomeHost() {
    await post("/api/pair", {});
    return (await whoami(true)).host;
  }

  // What a pick means for each pixie-dust card (the view's `meanings`: when no card was
  // declared), one line each, into the list `box` (the scoreboard's and the virtual tray's).
  function meanings(box, pick) {
    box.replaceChildren(...(pick ? pick.meanings || [] : []).map(([card, means]) =>
      el("li", {}, el("b", { text: card + ": " }), means)));
  }

  const SYMBOL = { red: "▲", blue: "■", green: "●", yellow: "★", wild: "◆" };

  return { whoami, signIn, el, live, post, actionKey, markBusy, becomeHost, meanings, SYMBOL };
})();
