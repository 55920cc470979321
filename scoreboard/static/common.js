// Shared by every page: the table token, the live view stream, small DOM helpers. No framework.
"use strict";

const Tinker = (() => {
  const params = new URLSearchParams(location.search);
  if (params.get("token")) {
    localStorage.setItem("tinker-token", params.get("token"));
  }
  const token = () => localStorage.getItem("tinker-token") || "";

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

  // Each message is a whole snapshot with the journal id as its SSE id, so a page that
  // reconnects (EventSource does so by itself) is up to date with its first message.
  function live(render) {
    const status = el("div", { class: "status", role: "status", text: "connecting…" });
    document.body.append(status);
    const source = new EventSource("/api/events");
    source.addEventListener("view", (e) => {
      status.textContent = "live";
      status.classList.remove("down");
      render(JSON.parse(e.data));
    });
    source.addEventListener("error", () => {
      status.textContent = "reconnecting…";
      status.classList.add("down");
    });
    return source;
  }

  async function post(path, body) {
    const res = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Table-Token": token() },
      body: JSON.stringify(body || {}),
    });
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

  const SYMBOL = { red: "▲", blue: "■", green: "●", yellow: "★", wild: "◆" };

  return { token, el, live, post, SYMBOL };
})();
