// Progressive enhancement: offer Web Push only where the browser supports it.
(function () {
  "use strict";
  var button = document.getElementById("push-subscribe");
  var state = document.getElementById("push-state");
  if (!button || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  button.hidden = false;
  function keyBytes(b64) {
    var pad = "=".repeat((4 - (b64.length % 4)) % 4);
    var raw = atob((b64 + pad).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }
  button.addEventListener("click", function () {
    navigator.serviceWorker.register("/static/sw.js").then(function (reg) {
      return reg.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(button.dataset.key)
      });
    }).then(function (sub) {
      return fetch("/api/push/subscriptions", {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": button.dataset.csrf},
        body: JSON.stringify(sub.toJSON())
      });
    }).then(function (r) {
      state.textContent = r.ok ? "This browser will be notified." : "Could not subscribe.";
    }).catch(function (e) { state.textContent = "Could not subscribe: " + e.message; });
  });
})();
