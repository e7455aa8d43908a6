// Shows mailmoat's Web Push notifications and opens the message when tapped.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {title: "mailmoat"}; }
  event.waitUntil(self.registration.showNotification(data.title || "mailmoat", {
    body: data.body || "", data: {url: data.url || "/"}
  }));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(clients.openWindow(event.notification.data.url));
});
