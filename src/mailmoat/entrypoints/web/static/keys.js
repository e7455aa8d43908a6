// Keyboard shortcuts for the decision queue and the approval page. Small on purpose: every
// key only focuses, ticks, opens, or submits a form the page already has, so the page
// works the same without JavaScript (and the server checks CSRF on every POST as usual).
(function () {
  "use strict";
  var LANES = ["PUSH", "MEETING", "QUEUE", "INFO", "SILENT"];
  function rows() { return Array.prototype.slice.call(document.querySelectorAll("[data-row]")); }
  function current() {
    var active = document.activeElement;
    return active && active.closest ? active.closest("[data-row]") : null;
  }
  function focusRow(step) {
    var all = rows();
    if (!all.length) return;
    var at = all.indexOf(current());
    var next = at < 0 ? 0 : Math.min(all.length - 1, Math.max(0, at + step));
    all[next].focus();
    all.forEach(function (r) { r.classList.toggle("focused", r === all[next]); });
  }
  function moveTo(lane) {
    var form = document.getElementById("bulk");
    if (!form) return;
    var ticked = document.querySelectorAll("input[form=bulk][name=id]:checked");
    var row = current();
    if (!ticked.length && row) {
      var box = row.querySelector("input[name=id]");
      if (!box) return;
      box.checked = true;
    } else if (!ticked.length) { return; }
    var field = document.createElement("input");
    field.type = "hidden"; field.name = "lane"; field.value = lane;
    form.appendChild(field);
    form.submit();
  }
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && target.type !== "checkbox") return;
    var key = event.key;
    var row = current();
    if (key === "j") { focusRow(1); }
    else if (key === "k") { focusRow(-1); }
    else if ((key === "o" || key === "Enter") && row && target === row) { window.location = row.dataset.href; }
    else if (key === "x" && row) {
      var box = row.querySelector("input[name=id]");
      if (box) box.checked = !box.checked;
    }
    else if (/^[1-5]$/.test(key)) { moveTo(LANES[Number(key) - 1]); }
    else if (key === "e") { moveTo("INFO"); }
    else if (key === "a") {
      // Focus only: an irreversible send is never one stray keystroke away. Enter approves.
      var approve = document.querySelector("button[data-key=a]");
      if (!approve) return;
      approve.focus();
    }
    else if (key === "/") {
      var search = document.getElementById("q");
      if (!search) return;
      search.focus();
    }
    else if (key === "?") {
      var help = document.getElementById("keys-help");
      if (!help) return;
      help.hidden = !help.hidden;
    }
    else { return; }
    event.preventDefault();
  });
})();
