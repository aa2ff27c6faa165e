// Live refresh shared by every environment (docs/environments.md#live-refresh).
// About once a second, re-fetch the current URL with If-None-Match and X-Live-Refresh: 1.
// An unchanged page answers 304; a changed one has its <header> and <main> swapped in,
// unless a form field has focus or holds input that was not sent yet.
(function () {
  "use strict";
  var etag = null;
  var busy = false;

  function defaultIndex(select) {
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].defaultSelected) return i;
    }
    return select.multiple ? -1 : 0;
  }

  function isDirty(field) {
    if (field.tagName === "SELECT") return field.selectedIndex !== defaultIndex(field);
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    return field.value !== field.defaultValue;
  }

  function formIsInUse() {
    var active = document.activeElement;
    if (active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && active.type !== "submit") return true;
    var fields = document.querySelectorAll("input, textarea, select");
    for (var i = 0; i < fields.length; i++) {
      if (fields[i].type !== "hidden" && isDirty(fields[i])) return true;
    }
    return false;
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    ["header", "main"].forEach(function (tag) {
      var fresh = doc.querySelector(tag);
      var old = document.querySelector(tag);
      if (fresh && old) old.innerHTML = fresh.innerHTML;
    });
    if (doc.title) document.title = doc.title;
  }

  function refresh() {
    if (busy || formIsInUse()) return;
    busy = true;
    var headers = { "X-Live-Refresh": "1" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(window.location.href, { headers: headers, cache: "no-store", redirect: "follow" })
      .then(function (response) {
        if (response.status !== 200) return null;
        var first = etag === null;
        etag = response.headers.get("ETag");
        return response.text().then(function (html) {
          if (!formIsInUse()) swap(html);
          return first;
        });
      })
      .catch(function () { /* the session may have ended; keep the page as it is */ })
      .then(function () { busy = false; });
  }

  window.setInterval(refresh, 1000);
})();
