// Live refresh shared by every environment (docs/environments.md#live-refresh).
// About once a second, re-fetch the current URL with If-None-Match and X-Live-Refresh: 1.
// An unchanged page answers 304; a changed one has its <header> and <main> brought up to date
// in place (only the nodes that differ change), unless a form field has focus or holds input
// that was not sent yet.
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

  // --- morph: bring the page's nodes to the fresh page's, changing only what differs --------
  // A node that did not change stays the same node (tools that hold element references, such as
  // accessibility snapshots, keep them). Each fresh child is paired with an old sibling: first
  // one that is exactly the same, then one with the same key (its id, data-key, or the first
  // link in it: an item of a list that changed), then the next unpaired one of the same kind.
  // Paired nodes are moved into the fresh order and brought up to date; the rest is replaced.

  function ownKey(node) {  // the key a node gives itself: its id or data-key
    if (node.nodeType !== 1) return null;
    if (node.id) return "#" + node.id;
    if (node.hasAttribute("data-key")) return "k" + node.getAttribute("data-key");
    return null;
  }

  function keyOf(node) {
    var own = ownKey(node);
    if (own !== null || node.nodeType !== 1) return own;
    var link = node.tagName === "A" ? node : node.querySelector("a[href]");
    return link && link.hasAttribute("href") ? node.tagName + " " + link.getAttribute("href") : null;
  }

  function sameKind(a, b) {
    return a.nodeType === b.nodeType && (a.nodeType !== 1 || a.tagName === b.tagName);
  }

  function print(node) {
    return node.nodeType === 1 ? node.outerHTML : node.nodeType + ":" + node.nodeValue;
  }

  function morphAttributes(old, fresh) {
    var i;
    for (i = old.attributes.length - 1; i >= 0; i--) {
      var name = old.attributes[i].name;
      if (!fresh.hasAttribute(name)) old.removeAttribute(name);
    }
    for (i = 0; i < fresh.attributes.length; i++) {
      var attr = fresh.attributes[i];
      if (old.getAttribute(attr.name) !== attr.value) old.setAttribute(attr.name, attr.value);
    }
  }

  function morphNode(old, fresh, moves) {
    if (old.nodeType !== 1) {
      if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
      return;
    }
    if (old.outerHTML === fresh.outerHTML) return;
    morphAttributes(old, fresh);
    morphChildren(old, fresh, moves);
  }

  // An item that moved from one list to another (a person from Suggestions to Invitations) has
  // no old sibling to pair with: it is looked up by its key anywhere in the old page, among the
  // nodes no morph has claimed, and moved over. Only items move: a node with its own key, or a
  // list item or row keyed by its first link (a link inside an item stays with its item).
  // `moves` lives for one swap.
  function Moves(roots) {
    this.roots = roots;
    this.byKey = null;  // key -> the outermost old node with it, built at the first look-up
    this.claimed = new Set();  // old nodes already paired with a fresh one
    this.frozen = new Set();  // old nodes paired exactly: nothing in them may be taken
  }

  Moves.prototype.take = function (fresh, parent) {
    var key = keyOf(fresh);
    if (key === null || (ownKey(fresh) === null && !/^(LI|TR|ARTICLE)$/.test(fresh.tagName))) return undefined;
    if (this.byKey === null) {
      var byKey = this.byKey = {};
      this.roots.forEach(function (root) {
        root.querySelectorAll("*").forEach(function (node) {
          var k = keyOf(node);
          if (k !== null && !(k in byKey)) byKey[k] = node;
        });
      });
    }
    var node = this.byKey[key];
    if (!node || this.claimed.has(node) || !sameKind(node, fresh) || node.contains(parent)) return undefined;
    for (var up = node.parentNode; up; up = up.parentNode) {
      if (this.frozen.has(up)) return undefined;
    }
    this.claimed.add(node);
    return node;
  };

  function pairByIndex(olds, fresh, pairs, used, indexOf) {
    var index = {};
    olds.forEach(function (node, i) {
      var value = indexOf(node);
      if (value !== null) (index[value] = index[value] || []).push(i);
    });
    fresh.forEach(function (node, j) {
      var value = pairs[j] === undefined ? indexOf(node) : null;
      var candidates = value !== null ? index[value] : null;
      while (candidates && candidates.length) {
        var i = candidates.shift();
        if (!used[i]) { used[i] = true; pairs[j] = olds[i]; return; }
      }
    });
  }

  function otherItems(old, fresh) {  // two items that name themselves differently: never one node
    var a = ownKey(old), b = ownKey(fresh);
    return a !== null && b !== null && a !== b;
  }

  function morphChildren(parent, freshParent, moves) {
    var olds = Array.prototype.slice.call(parent.childNodes);
    var fresh = Array.prototype.slice.call(freshParent.childNodes);
    var pairs = new Array(fresh.length);
    var used = new Array(olds.length);
    pairByIndex(olds, fresh, pairs, used, print);
    olds.forEach(function (node, i) { if (used[i]) moves.frozen.add(node); });
    pairByIndex(olds, fresh, pairs, used, keyOf);
    olds.forEach(function (node, i) { if (used[i]) moves.claimed.add(node); });
    fresh.forEach(function (node, j) {
      if (pairs[j] === undefined) pairs[j] = moves.take(node, parent);
    });
    var next = 0;
    fresh.forEach(function (node, j) {
      if (pairs[j] !== undefined) return;
      for (var i = next; i < olds.length; i++) {
        if (!used[i] && !moves.claimed.has(olds[i]) && sameKind(olds[i], node) && !otherItems(olds[i], node)) {
          used[i] = true; pairs[j] = olds[i]; next = i + 1; moves.claimed.add(olds[i]); return;
        }
      }
    });
    olds.forEach(function (node, i) { if (!used[i]) parent.removeChild(node); });
    var cursor = parent.firstChild;
    fresh.forEach(function (node, j) {
      var old = pairs[j];
      if (old === undefined) {
        parent.insertBefore(document.importNode(node, true), cursor);
        return;
      }
      if (old === cursor) cursor = cursor.nextSibling;
      else parent.insertBefore(old, cursor);
      morphNode(old, node, moves);
    });
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var tags = ["header", "main"];
    var moves = new Moves(tags.map(function (tag) { return document.querySelector(tag); })
      .filter(function (node) { return node !== null; }));
    tags.forEach(function (tag) {
      var fresh = doc.querySelector(tag);
      var old = document.querySelector(tag);
      if (fresh && old) morphNode(old, fresh, moves);
    });
    if (doc.title && doc.title !== document.title) document.title = doc.title;
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
