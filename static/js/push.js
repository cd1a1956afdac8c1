/* "Notify me on this phone": registers the site's service worker (/sw.js), subscribes this browser
   to Web Push with the site's public key and posts the subscription (CSRF token in the header), so
   that the user's notices reach the phone even with the site closed. Words come from the page. */
(function () {
  "use strict";
  const box = document.getElementById("phone-notices");
  if (!box) return;
  const on = box.querySelector("[data-push-on]");
  const off = box.querySelector("[data-push-off]");
  const status = box.querySelector("[data-push-status]");
  const say = (text) => { status.textContent = text || ""; };
  const token = () => (box.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) {
    on.hidden = true;
    say(box.dataset.textUnsupported);
    return;
  }

  function keyBytes(text) {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  function shown(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
  }

  async function post(url, subscription) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token() },
      body: JSON.stringify(subscription),
    });
    let answer = {};
    try { answer = await response.json(); } catch (e) { answer = {}; }
    if (!response.ok) throw { site: true, message: answer.error || box.dataset.textFailed };
    return answer;
  }

  async function subscribe() {
    say("");
    const permission = await Notification.requestPermission();
    if (permission !== "granted") { say(box.dataset.textDenied); return; }
    await navigator.serviceWorker.register(box.dataset.worker, { scope: "/" });
    const registration = await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    if (!subscription) {
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.pushKey),
      });
    }
    const answer = await post(box.dataset.subscribe, subscription.toJSON());
    shown(true);
    say(answer.text || box.dataset.textOn);
  }

  async function unsubscribe() {
    say("");
    const registration = await navigator.serviceWorker.getRegistration("/");
    const subscription = registration && (await registration.pushManager.getSubscription());
    if (subscription) {
      await post(box.dataset.forget, { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    shown(false);
    say(box.dataset.textOff);
  }

  /* The site's refusals are worded in the reader's language; the browser's own errors are not. */
  const failed = (e) => say(e && e.site ? e.message : box.dataset.textFailed);
  on.addEventListener("click", () => subscribe().catch(failed));
  off.addEventListener("click", () => unsubscribe().catch(failed));

  navigator.serviceWorker.getRegistration("/").then(async (registration) => {
    const subscription = registration && (await registration.pushManager.getSubscription());
    if (subscription && Notification.permission === "granted") shown(true);
  }).catch(() => {});
})();
