// The report's only script: sort the sessions table, open a session view (also from #s<n>).
(function () {
  "use strict";
  var table = document.getElementById("sessions");
  var body = table.tBodies[0];
  var dialog = document.getElementById("session-view");

  function sortValue(row, index, numeric) {
    var raw = row.cells[index].getAttribute("data-sort");
    if (raw === "") return null;  // missing values always sort last
    return numeric ? parseFloat(raw) : raw.toLowerCase();
  }

  function sortBy(th) {
    var index = th.cellIndex;
    var numeric = th.getAttribute("data-type") === "number";
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) { cell.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = sortValue(a, index, numeric), y = sortValue(b, index, numeric);
      if (x === null || y === null) return (x === null) - (y === null);
      var order = x < y ? -1 : (x > y ? 1 : 0);
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  function openSession(id) {
    var target = document.getElementById(id);
    if (!target || !target.classList.contains("session")) return;
    dialog.querySelectorAll("section.session").forEach(function (s) { s.hidden = s !== target; });
    if (!dialog.open) dialog.showModal();
    dialog.scrollTop = 0;
    history.replaceState(null, "", "#" + id);
  }

  table.tHead.addEventListener("click", function (event) {
    var th = event.target.closest("th");
    if (th) sortBy(th);
  });
  body.addEventListener("click", function (event) {
    var row = event.target.closest("tr");
    if (row) openSession(row.getAttribute("data-session"));
  });
  body.addEventListener("keydown", function (event) {
    var row = event.target.closest("tr");
    if (row && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      openSession(row.getAttribute("data-session"));
    }
  });
  dialog.addEventListener("close", function () {
    history.replaceState(null, "", location.pathname + location.search);
  });
  if (location.hash.length > 1) openSession(location.hash.slice(1));
})();
