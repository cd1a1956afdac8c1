/* The site's service worker, served at /sw.js so that its scope is the whole site: it shows a notice
   pushed to this phone (title, text, the page it is about) and opens that page when tapped. It keeps
   no pages in a cache: every page comes from the site as before. */
"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

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
