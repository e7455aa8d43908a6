// Shows mailmoat's Web Push notifications. Tapping opens the message; "Later" and "Mute
// sender" open their signed links, which ask for a confirming tap (link scanners fetch URLs).
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {title: "mailmoat"}; }
  var links = {url: data.url || "/", later: data.later || "", mute: data.mute || ""};
  var actions = [];
  if (links.later) actions.push({action: "later", title: "Later"});
  if (links.mute) actions.push({action: "mute", title: "Mute sender"});
  event.waitUntil(self.registration.showNotification(data.title || "mailmoat", {
    body: data.body || "", data: links, actions: actions, tag: links.url
  }));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var links = event.notification.data || {};
  var target = (event.action && links[event.action]) || links.url || "/";
  event.waitUntil(clients.openWindow(target));
});
