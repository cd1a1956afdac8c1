/* The site on a phone with a bad network, on every page (words from #offline-words in base.html):

   - registers the service worker (/sw.js), which keeps the pages a player opened (static/sw.js);
   - a page the worker shows from its copy (<html data-kept-at="ms">) says so: "as of 14:32";
   - a form marked data-offline-queue (the match page's result, confirm and dispute) is sent with
     fetch, each send with a new form key (clubs/form_keys.py). When the site cannot be reached the
     send is kept on this phone (localStorage: address, fields, key, time), shown as "waiting to
     send", and sent again with the same key — so the server enters it once however often it
     arrives — when the page next opens (iOS has no background sync), when the browser comes back
     online, when the worker sees the site answer, every half minute while one waits, or on "Send
     now". The server's answer is then shown: the page it redirected to with its messages, or its
     refusal;
   - signing out drops the kept pages. */
(function () {
  "use strict";
  const words = document.getElementById("offline-words");
  if (!words) return;
  const STORE = "bilka-waiting-forms";
  const NOTES = "bilka-answer-notes";
  const RETRY_MS = 30000;
  const main = document.getElementById("main");
  const worker = "serviceWorker" in navigator && window.isSecureContext;

  function fmt(text, args) { return text.replace(/%\((\w+)\)s/g, (_, k) => args[k]); }
  function two(n) { return String(n).padStart(2, "0"); }
  function clock(ms) {
    const at = new Date(ms), now = new Date();
    const time = two(at.getHours()) + ":" + two(at.getMinutes());
    if (at.toDateString() === now.toDateString()) return time;
    return at.toLocaleDateString(document.documentElement.lang || undefined) + " " + time;
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => two(b.toString(16))).join("");
  }

  function waiting() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function store(items) {
    try { localStorage.setItem(STORE, JSON.stringify(items)); } catch (e) { /* private mode */ }
  }
  function keep(item) {
    store(waiting().filter((x) => x.key !== item.key).concat([item]));
  }
  function drop(item) {
    store(waiting().filter((x) => x.key !== item.key));
  }

  function banner(id, cls) {
    let box = document.getElementById(id);
    if (!box) {
      box = document.createElement("div");
      box.id = id;
      box.className = cls;
      box.setAttribute("role", "status");
      main.prepend(box);
    }
    return box;
  }

  /* --- a page shown from the worker's copy ------------------------------------------------- */
  const keptAt = Number(document.documentElement.dataset.keptAt || 0);
  if (keptAt) {
    banner("offline-as-of", "message message-warning offline-as-of").textContent =
      fmt(words.dataset.asOf, { time: clock(keptAt) });
  }

  /* --- the messages of an answer that arrived in the background ---------------------------- */
  function showNotes() {
    let notes = [];
    try { notes = JSON.parse(sessionStorage.getItem(NOTES) || "[]"); sessionStorage.removeItem(NOTES); } catch (e) { notes = []; }
    if (!notes.length) return;
    let list = main.querySelector(".messages");
    if (!list) {
      list = document.createElement("ul");
      list.className = "messages";
      main.prepend(list);
    }
    for (const note of notes) {
      const li = document.createElement("li");
      li.className = note.cls;
      li.textContent = note.text;
      list.appendChild(li);
    }
  }

  /* --- sends kept on this phone -------------------------------------------------------------- */
  function showWaiting() {
    const items = waiting();
    const old = document.getElementById("offline-waiting");
    if (!items.length) { if (old) old.remove(); return; }
    const box = banner("offline-waiting", "message message-warning offline-waiting");
    box.replaceChildren();
    for (const item of items) {
      const line = document.createElement("p");
      line.textContent = fmt(words.dataset.waiting, { time: clock(item.at) }) + " ";
      if (item.page !== location.pathname) {
        const link = document.createElement("a");
        link.href = item.page;
        link.textContent = item.title || item.page;
        line.append(link, " ");
      }
      box.appendChild(line);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button button-small";
    button.textContent = words.dataset.sendNow;
    button.addEventListener("click", () => flush());
    box.appendChild(button);
  }

  async function answer(response) {
    /* Show what the server answered: the page it sent us to with its messages, or its refusal. */
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    const notes = Array.from(doc.querySelectorAll(".messages .message"), (li) => ({ cls: li.className, text: li.textContent }));
    if (response.ok) {
      try { sessionStorage.setItem(NOTES, JSON.stringify(notes)); } catch (e) { /* shown without them */ }
      location.replace(response.url);
      return;
    }
    const theirs = doc.getElementById("main");
    if (theirs) main.replaceChildren(...Array.from(theirs.childNodes, (node) => document.importNode(node, true)));
    window.scrollTo(0, 0);
  }

  let sending = false;

  async function send(item) {
    /* True when the server answered (and its answer is shown), false when it could not be reached. */
    // This page's CSRF token may be newer than the kept one (a sign-in since renews it); the key
    // stays, and the server compares the fields without the token.
    const token = document.querySelector("input[name=csrfmiddlewaretoken]");
    const fields = item.fields.map(([name, value]) => [name, name === "csrfmiddlewaretoken" && token ? token.value : value]);
    let response;
    try {
      response = await fetch(item.url, {
        method: "POST",
        credentials: "same-origin",
        body: new URLSearchParams(fields),
      });
    } catch (e) {
      return false;
    }
    if ([502, 503, 504].includes(response.status)) return false;  // a proxy in front, the site not up
    drop(item);
    await answer(response);
    return true;
  }

  async function flush() {
    if (sending) return;
    sending = true;
    try {
      for (const item of waiting()) {
        if (await send(item)) return;  // its answer is being shown: the next waits for that page
      }
    } finally {
      sending = false;
      showWaiting();
    }
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-offline-queue")) return;
    const submitter = event.submitter;
    if (submitter && submitter.hasAttribute("data-offline-skip")) return;  // e.g. a preview: sent as a form
    event.preventDefault();
    const data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    const key = newKey();
    data.set("form_key", key);
    const fields = [];
    data.forEach((value, name) => { if (typeof value === "string") fields.push([name, value]); });
    const item = {
      key, fields, at: Date.now(), page: location.pathname, title: document.title,
      url: form.getAttribute("action") || location.pathname + location.search,
    };
    if (submitter) submitter.disabled = true;
    if (await send(item)) return;
    if (submitter) submitter.disabled = false;
    keep(item);
    showWaiting();
    document.getElementById("offline-waiting").scrollIntoView({ block: "nearest" });
  });

  /* --- signing out --------------------------------------------------------------------------- */
  document.addEventListener("submit", (event) => {
    if (!event.target.hasAttribute || !event.target.hasAttribute("data-forget-pages")) return;
    if (worker && navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage({ type: "bilka-forget" });
  });

  showNotes();
  showWaiting();
  window.addEventListener("online", flush);
  setInterval(() => { if (waiting().length) flush(); }, RETRY_MS);
  if (worker) {
    navigator.serviceWorker.register(words.dataset.worker, { scope: "/" }).catch(() => { /* no worker: no copies */ });
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.type === "bilka-online") flush();
    });
  }
  if (waiting().length) flush();
})();
