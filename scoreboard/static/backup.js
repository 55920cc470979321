// The entry page's backup panel (the host's): "Back up" downloads the whole journal as one file
// (/api/backup); "Restore" sends a backup file as it is (/api/restore). Over a journal that
// holds games the server asks first (409, `confirm`): the page says why and restores only once
// the host answers "Replace them".
"use strict";
(() => {
  const { el } = Tinker;
  const $ = (id) => document.getElementById(id);

  function say(text, ok) {
    $("backupmessage").replaceChildren(text ? el("div", { class: ok ? "ok" : "error", text }) : "");
  }
  function ask(why) {
    $("restorewhy").textContent = why ? why.charAt(0).toUpperCase() + why.slice(1) + "." : "";
    $("restoreask").classList.toggle("hidden", !why);
    if (why) $("restoreno").focus();  // the safe answer first: a stray tap keeps the games
  }

  async function restore(replace) {
    const file = $("restorefile").files[0];
    ask(null);
    if (!file) { say("Choose the backup file (.ttb) first."); return; }
    say("Restoring…", true);
    let res;
    try {
      res = await fetch("/api/restore" + (replace ? "?replace=1" : ""),
        { method: "POST", credentials: "same-origin", body: file });
    } catch (_) {
      say("The tray did not answer: nothing was changed. Try again.");
      return;
    }
    let data = {};
    try { data = await res.json(); } catch (_) { /* not JSON */ }
    if (res.ok) {
      const games = `${data.restored} game${data.restored === 1 ? "" : "s"}`;
      say(`Restored ${games} from the backup made ${data.made}.`, true);
      $("restorefile").value = "";
      document.dispatchEvent(new CustomEvent("tinker:restored"));
    } else if (res.status === 409 && data.confirm) {
      say("");
      ask(data.error);
    } else {
      say(data.error || `the tray refused (${res.status})`);
    }
  }

  $("restore").onclick = () => restore(false);
  $("restoreyes").onclick = () => restore(true);
  $("restoreno").onclick = () => { ask(null); say("Nothing was changed.", true); };
})();
