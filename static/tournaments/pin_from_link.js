/* A score sheet's QR code opens the match's page with that half's PIN in the address's fragment
   (#pin=…), which no browser sends to the server. Put it in every PIN box of the page, take it out
   of the address at once (history.replaceState: not in the history, not in a shared link), and keep
   it for this tab only, so that the box is filled again when the page is refreshed. */
(function () {
  "use strict";
  const key = "bilka-pin:" + location.pathname;
  const found = /^#pin=([0-9A-Za-z]{1,8})$/.exec(location.hash);
  if (found) {
    history.replaceState(history.state, "", location.pathname + location.search);
    try { sessionStorage.setItem(key, found[1]); } catch (e) { /* private mode: this load only */ }
  }
  let pin = found ? found[1] : "";
  if (!pin) {
    try { pin = sessionStorage.getItem(key) || ""; } catch (e) { pin = ""; }
  }
  if (!pin) return;
  function fill() {
    document.querySelectorAll('input[name="pin"]').forEach((input) => {
      if (!input.value) input.value = pin;
    });
  }
  fill();
  document.addEventListener("htmx:afterSettle", fill);
})();
