/* The table's first-visit help (templates/gameplay/table.html): shown on a browser's first visit
 * to any table, until its "Got it" is pressed; the phone remembers that in localStorage. Where
 * localStorage cannot be written (a private window that refuses it) the note stays closed once
 * dismissed on this page. */
(function () {
  "use strict";
  var KEY = "bilka.tableHelpSeen";
  var note = document.getElementById("table-first-help");
  var close = document.getElementById("table-first-help-close");
  if (!note || !close) return;
  var seen = false;
  try { seen = localStorage.getItem(KEY) === "1"; } catch (e) { seen = false; }
  if (seen) return;
  note.hidden = false;
  close.addEventListener("click", function () {
    note.hidden = true;
    try { localStorage.setItem(KEY, "1"); } catch (e) { /* private mode: closed for this page */ }
  });
})();
