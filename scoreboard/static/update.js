// The host's updates, on the entry page: the version that runs, a check for a newer signed
// release, an install, an update file; the progress while it runs, and the page back by itself
// on the new version (or why it stayed). The server does the work (scoreboard/update_page.py).
"use strict";
(() => {
  const { el } = Tinker;
  const POLL_MS = 1500;
  const says = el("p", { id: "updsays", role: "status", "aria-live": "polite" });
  const version = el("p", { id: "updversion", class: "muted" });
  const check = el("button", { id: "updcheck", text: "Check for updates" });
  const install = el("button", { id: "updinstall", class: "primary hidden" });
  const file = el("input", { id: "updfile", type: "file", accept: ".update" });
  const upload = el("button", { id: "updupload", text: "Upload and install" });
  // an upload's refusal, beside its button (the panel's sentence is above, out of a phone's view)
  const fileSays = el("p", { id: "updfilesays", class: "error hidden", role: "alert" });
  const lines = el("ol", { id: "updlines", class: "muted update-lines", "aria-label": "What the update said" });
  const box = el("section", { id: "update", class: "panel host-only", "aria-label": "Updates" },
    el("h2", { text: "Updates" }), version, says,
    el("div", { class: "row" }, check, install),
    el("details", { class: "update-file" },
      el("summary", { text: "Update from a file" }),
      el("p", { class: "muted", text: "For a tray with no network to its origin: the signed " +
        "file tinker-tray-VERSION.update published with a release." }),
      el("div", { class: "row" }, el("label", {}, "Update file ", file), upload), fileSays),
    lines);
  document.querySelector("main").append(box);

  let first = null;  // the version this page was loaded on: another one means the tray restarted
  let report = null;
  let timer = null;
  let since = null;  // when the tray stopped answering (it restarts on the new release)
  let installedAt = null;  // when the page first saw a release installed but not yet running
  // A refusal the page was just given (an upload or a request refused) stays said until the
  // tray's status changes: the status it had then is older news, never drawn over it.
  let refusedOver = null;
  const identity = (status) => JSON.stringify(status ? [status.state, status.at, status.last] : null);

  // the update's last line, without the command's name (the page is not a terminal)
  const plain = (line) => String(line).replace(/^tinker-tray update: /, "");

  function later(ms) {
    clearTimeout(timer);
    timer = setTimeout(refresh, ms);
  }

  function say(text, kind) {
    says.textContent = text;
    says.className = kind || "";
  }

  async function refresh() {
    let res;
    try {
      res = await fetch("/api/update", { cache: "no-store", credentials: "same-origin" });
    } catch (_) {  // not answering: the tray restarts on the new release
      since = since || Date.now();
      const minutes = (Date.now() - since) / 60000;
      say(minutes < 5 ? "The tray is restarting: this page comes back by itself…"
        : "The tray has not answered for five minutes: is it on? This page keeps trying.");
      later(POLL_MS);
      return;
    }
    since = null;
    if (res.status === 401 || res.status === 403) return;  // not the host's: nothing to show
    if (!res.ok) { later(POLL_MS * 4); return; }
    render(await res.json());
  }

  function render(data) {
    if (first === null) first = data.version;
    else if (data.version !== first) { location.reload(); return; }  // back, on the new version
    report = data;
    version.textContent = "Running " + (data.version || "a version this tray cannot name");
    const status = data.status;
    lines.replaceChildren(...(status ? status.lines : []).map((line) => el("li", { text: line })));
    check.disabled = upload.disabled = data.busy;
    install.classList.add("hidden");
    const unable = Boolean(data.how) && !data.busy;  // nothing here could update this tray
    check.classList.toggle("hidden", unable);
    box.querySelector(".update-file").classList.toggle("hidden", unable);
    if (refusedOver !== null && !data.busy && identity(status) === refusedOver) return;
    refusedOver = null;
    fileSays.classList.add("hidden");
    if (unable) {
      say(data.how);
    } else if (data.busy) {
      say("Updating… " + (status && status.lines.length ? status.lines[status.lines.length - 1] : "starting"));
      later(POLL_MS);
    } else if (!status) {
      say("");
    } else if (status.state === "failed") {
      const what = status.action === "check" ? "The check stopped: " : "The update stopped: ";
      say(what + plain(status.last || "it did not say why"), "error");
    } else if (data.installed && (data.mode === "checkout" || waited(data.installed) > 5)) {
      // a checkout's service cannot restart itself (nor, after five minutes, did the image's)
      say(`${data.installed} is installed: it runs from the next start. Restart the tray ` +
        `to run ${data.installed.split(" ")[0]}.`, "ok");
    } else if (data.installed) {
      say(`${data.installed} is installed: the tray restarts on it, and this page comes back by itself…`);
      later(POLL_MS);
    } else if (status.state === "done" && status.available) {
      install.textContent = "Update to " + status.available;
      install.classList.remove("hidden");
      say(`${status.available} can be installed (the tray keeps its games and paired phones).`);
    } else if (status.state === "done" && status.action === "check" && status.running) {
      // nothing newer: said as what is missing, a newer *signed* release (a tag refused for
      // its signature is on the lines below, with why)
      const refusedTag = status.lines.some((line) => String(line).startsWith("refused: "));
      say(`There is no newer signed release than ${status.running}` + (refusedTag
        ? ": a newer tag was refused, and the lines below say why." : ": this tray runs the newest."), "ok");
    } else {
      say(plain(status.last || ""), status.state === "done" ? "ok" : "");
    }
  }

  // minutes since this page first saw `installed` waiting for the next start
  function waited(installed) {
    if (!installedAt || installedAt.release !== installed) installedAt = { release: installed, at: Date.now() };
    return (Date.now() - installedAt.at) / 60000;
  }

  async function ask(path, doing) {
    say(doing);
    try {
      await Tinker.post(path, {});
    } catch (err) {
      refused(err.message);
    }
    later(300);
  }

  // A refusal of what was just asked: said in the panel (and beside the upload, for one),
  // kept there until the tray's status changes.
  function refused(sentence, upload) {
    say(sentence, "error");
    fileSays.textContent = upload ? sentence : "";
    fileSays.classList.toggle("hidden", !upload);
    if (upload) fileSays.scrollIntoView({ block: "nearest" });
    refusedOver = identity(report && report.status);
  }
  check.onclick = () => ask("/api/update/check", "Asking the origin for a newer signed release…");
  install.onclick = () => ask("/api/update/install", "Starting the update…");

  upload.onclick = () => {
    const chosen = file.files[0];
    if (!chosen) { refused("Choose an update file first (tinker-tray-….update).", true); return; }
    if (report && chosen.size > report.max_upload) {
      refused(`That file is ${Math.round(chosen.size / 1e6)} MB: an update file is at most ` +
        `${Math.round(report.max_upload / 1e6)} MB.`, true);
      return;
    }
    // XMLHttpRequest, not fetch: it tells how much of the file has gone
    const request = new XMLHttpRequest();
    request.open("POST", "/api/update/file");
    request.setRequestHeader("Content-Type", "application/octet-stream");
    request.upload.onprogress = (e) => {
      if (e.lengthComputable) say(`Uploading the update file: ${Math.floor(100 * e.loaded / e.total)}%`);
    };
    request.onload = () => {
      let answer = {};
      try { answer = JSON.parse(request.responseText); } catch (_) { /* not JSON */ }
      if (request.status >= 400) refused(answer.error || `the tray refused (${request.status})`, true);
      else file.value = "";
      later(300);
    };
    request.onerror = () => { refused("The upload was cut short: nothing was installed.", true); later(300); };
    upload.disabled = true;
    request.send(chosen);
  };

  // The host's only: shown once this visitor is the host (on loading, or after the token is typed)
  const whenHost = () => { if (document.body.classList.contains("host") && first === null) refresh(); };
  new MutationObserver(whenHost).observe(document.body, { attributes: true, attributeFilter: ["class"] });
  Tinker.whoami().then((me) => { if (me.host) refresh(); });
})();
