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

  // While a restore runs its buttons are busy: a second tap would send the file again.
  function busy(on) {
    for (const id of ["restore", "restoreyes"]) {
      $(id).disabled = on;
      $(id).setAttribute("aria-busy", on ? "true" : "false");
    }
  }

  async function restore(replace) {
    if ($("restore").disabled) return;
    const file = $("restorefile").files[0];
    ask(null);
    if (!file) { say("Choose the backup file (.ttb) first."); return; }
    say("Restoring…", true);
    let res;
    busy(true);
    try {
      res = await fetch("/api/restore" + (replace ? "?replace=1" : ""),
        { method: "POST", credentials: "same-origin", body: file });
    } catch (_) {
      say("The tray did not answer: nothing was changed. Try again.");
      return;
    } finally {
      busy(false);
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
