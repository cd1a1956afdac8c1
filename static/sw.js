/* The site's service worker, served at /sw.js so that its scope is the whole site (its first line,
   written by the server, names its version and the shell it keeps: self.BILKA_SHELL).

   Offline: when installed it keeps the shell (the site's style, scripts, icons and the "no connection"
   page, /offline/). A page the player opens — home, his matches, the rules, the help, a tournament's
   home, rounds, results, standings, match pages, the hall — comes from the site when it can (network
   first) and a copy of it is kept (the newest MAX_PAGES, with the time it was fetched); when the site
   cannot be reached the copy is shown, marked with that time (data-kept-at on <html>, which the page's
   offline_forms.js shows as "as of 14:32"), or /offline/ for a page without a copy. Nothing else is
   kept: no POST, no /api/, /admin/ or /accounts/ page, no answer marked no-store, no redirect or
   error. A new version (a deploy) drops the old copies. Results sent while offline are kept by the
   page, not here (offline_forms.js); the worker tells the pages when the site answers again.

   Push: it shows a notice pushed to this phone (title, text, the page it is about) and opens that
   page when tapped. */
"use strict";

const SHELL = self.BILKA_SHELL || { version: "0", offline: "/offline/", files: [] };
const SHELL_CACHE = "bilka-shell-" + SHELL.version;
const PAGES_CACHE = "bilka-pages-" + SHELL.version;
const KEPT_AT = "X-Bilka-Kept-At";
const MAX_PAGES = 50;
/* The pages a player reads at the tables: the home page, his matches, the rules of the game and the
   help (a dispute at a real table is settled by them), and a tournament's home, rounds, results,
   standings, crosstable, bracket, match pages, live list and hall. */
const KEPT_PAGES = /^\/(?:me\/matches\/|rules\/|help\/|t\/[^/]+\/(?:rounds\/\d+\/|results\/|standings\/|crosstable\/|bracket\/|matches\/\d+\/|live\/|hall\/)?)?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL.files.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("bilka-") && name !== SHELL_CACHE && name !== PAGES_CACHE)
          .map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

let unreachable = false;

function reached() {
  /* The site answers again after a failed request: the pages send what they keep. */
  if (!unreachable) return;
  unreachable = false;
  self.clients.matchAll({ type: "window" }).then((windows) => {
    for (const client of windows) client.postMessage({ type: "bilka-online" });
  });
}

function keptAddress(url) {
  return url.origin + url.pathname + url.search;
}

async function keep(url, response) {
  const headers = new Headers(response.headers);
  headers.set(KEPT_AT, String(Date.now()));
  const copy = new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
  const cache = await caches.open(PAGES_CACHE);
  const address = keptAddress(url);
  await cache.delete(address, { ignoreVary: true });  // put last: the list runs oldest first
  await cache.put(address, copy);
  const addresses = await cache.keys();
  for (const old of addresses.slice(0, Math.max(0, addresses.length - MAX_PAGES))) await cache.delete(old);
}

async function marked(kept) {
  /* The kept copy with the time it was fetched on its <html>, for the page's script to show. */
  const text = await kept.text();
  const at = Number(kept.headers.get(KEPT_AT)) || 0;
  const headers = new Headers(kept.headers);
  headers.delete(KEPT_AT);
  headers.delete("Content-Length");
  return new Response(text.replace(/<html\b/i, '<html data-kept-at="' + at + '"'), { status: 200, headers });
}

function keepable(response) {
  const control = response.headers.get("Cache-Control") || "";
  return response.status === 200 && response.type === "basic" && !response.redirected &&
    !/no-store/i.test(control) && (response.headers.get("Content-Type") || "").startsWith("text/html");
}

async function keptCopy(url) {
  const cache = await caches.open(PAGES_CACHE);
  const copy = await cache.match(keptAddress(url), { ignoreVary: true });
  return copy ? marked(copy) : null;
}

async function page(request) {
  const url = new URL(request.url);
  const kept = KEPT_PAGES.test(url.pathname);
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    unreachable = true;
    const copy = kept ? await keptCopy(url) : null;
    if (copy) return copy;
    const offline = await caches.match(SHELL.offline, { ignoreVary: true });
    if (offline) return offline;
    throw error;
  }
  if ([502, 503, 504].includes(response.status)) {
    // the proxy in front answers for a site that is down: the copy says more than its error page
    unreachable = true;
    const copy = kept ? await keptCopy(url) : null;
    return copy || response;
  }
  reached();
  if (kept && keepable(response)) {
    try { await keep(url, response.clone()); } catch (e) { /* full storage: the page still shows */ }
  }
  return response;
}

async function shellFile(request) {
  /* The site's own files. A deployed name holds its content's hash (bilka.1a2b3c4d5e6f.css): its kept
     copy is good as long as the name. An unhashed name (a development server) is asked for first and
     its copy used only when the site cannot be reached. */
  const cache = await caches.open(SHELL_CACHE);
  const hashed = /\.[0-9a-f]{12}\.\w+$/.test(new URL(request.url).pathname);
  const copy = await cache.match(request, { ignoreVary: true });
  if (copy && hashed) return copy;
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      try { await cache.put(request, response.clone()); } catch (e) { /* full storage */ }
    }
    return response;
  } catch (error) {
    if (copy) return copy;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (/^\/(?:api|admin|accounts)\//.test(url.pathname)) return;
    event.respondWith(page(request));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(shellFile(request));
  }
});

self.addEventListener("message", (event) => {
  /* Signing out forgets the pages kept for the one who was signed in. */
  if (event.data && event.data.type === "bilka-forget") {
    event.waitUntil(caches.delete(PAGES_CACHE));
  }
});

function ownPage(url) {
  /* Only a page of this site is opened from a notice. */
  try {
    const target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch (e) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", (event) => {
  let notice = {};
  if (event.data) {
    try { notice = event.data.json(); } catch (e) { notice = { body: event.data.text() }; }
  }
  const title = notice.title || self.location.host;
  event.waitUntil(
    self.registration.showNotification(title, {
      body: notice.body || "",
      tag: notice.tag || undefined,
      icon: notice.icon || undefined,
      data: { url: ownPage(notice.url) },
    })
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || ownPage("/");
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === url && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(url);
    })
  );
});
