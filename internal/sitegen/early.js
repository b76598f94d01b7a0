// The page until the engine runs (internal/sitegen/early.go puts this in
// the head and the states it shows in #early-states). Until the wasm app
// has replaced the prerendered page, a tap on a control is answered at once
// where the engine rendered its outcome at build time (the tour's cards),
// or kept: the control shows that it waits, with the download's progress,
// and the tap is made again on the same control once the app runs
// (#playground[data-ready=true]); values typed or picked, and files chosen,
// are kept the same way. Once something is kept, everything after it is
// kept too, so that the app sees the reader's actions in their order.
(function () {
  "use strict";
  var page = null; // the prerendered #playground
  var root = null; // #early-states
  var current = null; // the state on screen, or null where none is known
  var own = null; // the prerendered page's own parts, once replaced
  var kept = []; // what waits for the app, in order
  var unparsed = []; // the taps made before the states were parsed
  var waiting = []; // the controls that show it
  var opened = {}; // the disclosures the reader opened or closed, by key
  var focused = null; // the key of the element that had the focus last
  var opener = null; // the id of what had the focus when the tour opened
  var timer = 0;
  var status = null;
  var loading = "";

  // early reports whether the prerendered page is still the one on screen.
  function early() {
    if (!page) page = document.getElementById("playground");
    if (page && !root && (root = document.getElementById("early-states"))) {
      current = stateFor(location.search);
    }
    return !!page && page.isConnected && page.getAttribute("data-ready") !== "true";
  }

  function state(id) {
    return root && root.content.querySelector('[data-state="' + id + '"]');
  }

  // stateFor is the state a query opens: the page as prerendered, a state's
  // own query, or ?tour=N from the prerendered page.
  function stateFor(search) {
    var q = search.replace(/^\?/, "");
    if (q === "") return state("0");
    var tour = /^tour=([0-9]+)$/.exec(q);
    if (tour) return root.content.querySelector('[data-tour="' + tour[1] + '"]');
    var all = root.content.querySelectorAll("[data-state]");
    for (var i = 0; i < all.length; i++) {
      if (all[i].getAttribute("data-query") === q) return all[i];
    }
    return null;
  }

  function moveOf(id) {
    if (!current || kept.length) return null;
    var on = (current.getAttribute("data-on") || "").split(" ");
    for (var i = 0; i < on.length; i++) {
      var m = on[i].split(":");
      if (m[0] === id) return state(m[1]);
    }
    return null;
  }

  // show puts a state on screen: its parts in place of the page's, its
  // query in the address bar, the focus and the scroll where the app puts
  // them (web/tour/tour.go: OnMount, OnUpdate, OnDismount).
  function show(to) {
    var from = current, had = document.activeElement && document.activeElement.id;
    var parts = root.getAttribute("data-parts").split(" ");
    if (!own) {
      own = parts.map(function (id, i) {
        var el = document.getElementById(id);
        return i === 0 ? el.cloneNode(false) : el;
      });
    }
    var next = to.getAttribute("data-state") === "0" ? own : to.getAttribute("data-regions").split(" ").map(function (r) {
      return document.importNode(root.content.querySelector('[data-region="' + r + '"]').firstElementChild, true);
    });
    parts.forEach(function (id, i) {
      var el = document.getElementById(id);
      if (i === 0) {
        for (var a = el.attributes.length - 1; a >= 0; a--) {
          if (!next[0].hasAttribute(el.attributes[a].name)) el.removeAttribute(el.attributes[a].name);
        }
        for (var b = 0; b < next[0].attributes.length; b++) el.setAttribute(next[0].attributes[b].name, next[0].attributes[b].value);
      } else {
        el.replaceWith(next[i]);
      }
    });
    current = to;
    var q = to.getAttribute("data-query");
    history.replaceState(history.state, "", location.pathname + "?" + q + location.hash);

    var card = document.getElementById("tour");
    var wasOpen = from && from.hasAttribute("data-tour");
    if (card && !wasOpen) {
      opener = had;
      card.focus({ preventScroll: true });
      scrollBeside(to);
    } else if (card) {
      var same = had && document.getElementById(had);
      if (same && card.contains(same) && !same.disabled) same.focus({ preventScroll: true });
      else card.focus({ preventScroll: true });
      if (from.getAttribute("data-tour") !== to.getAttribute("data-tour")) scrollBeside(to);
    } else if (wasOpen) {
      var back = (opener && document.getElementById(opener)) || document.getElementById("take-tour");
      if (back) back.focus();
      opener = null;
    }
  }

  // scrollBeside brings the card's spot into view beside or above the card,
  // as web/dom/focus.go's ScrollBeside does.
  function scrollBeside(to) {
    var narrow = matchMedia(root.getAttribute("data-narrow")).matches;
    var spot = document.querySelector(to.getAttribute(narrow ? "data-spot-narrow" : "data-spot"));
    var card = document.getElementById("tour");
    if (!spot || !card) return;
    var sr = spot.getBoundingClientRect(), kr = card.getBoundingClientRect();
    var margin = 12, top = margin, bottom = innerHeight - margin;
    if (!(kr.right <= sr.left || kr.left >= sr.right)) {
      if (kr.top > (top + bottom) / 2) bottom = kr.top - margin;
      else top = kr.bottom + margin;
    }
    if (sr.top >= top && sr.bottom <= bottom) return;
    var by = sr.top - top, h = sr.bottom - sr.top;
    if (h < bottom - top) by -= (bottom - top - h) / 2;
    scrollBy({ top: by, behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
  }

  // keyOf names an element so that it is found again in the app's page:
  // its id, or the nearest ancestor's and the way down by child index.
  function keyOf(el) {
    var path = [];
    while (el.parentElement && !el.id) {
      path.unshift(Array.prototype.indexOf.call(el.parentElement.children, el));
      el = el.parentElement;
    }
    return { id: el.id, path: path };
  }

  function find(key) {
    var el = key.id ? document.getElementById(key.id) : null;
    for (var i = 0; el && i < key.path.length; i++) el = el.children[key.path[i]];
    return el || null;
  }

  function sameKey(a, b) {
    return a.id === b.id && a.path.join() === b.path.join();
  }

  function nameOf(el) {
    var label = el.labels && el.labels[0];
    return (el.getAttribute("aria-label") || (label && label.textContent) || el.textContent || el.id || "").replace(/\s+/g, " ").trim();
  }

  // keep holds an action for the app and marks its control as waiting.
  function keep(action, el) {
    var last = kept[kept.length - 1];
    if (action.kind !== "click" && last && last.kind === action.kind && sameKey(last.key, action.key)) kept[kept.length - 1] = action;
    else kept.push(action);
    mark(el, "“" + nameOf(el) + "” is kept: it is answered once the playground has loaded.");
  }

  function mark(el, text) {
    if (waiting.indexOf(el) < 0) {
      waiting.push(el);
      el.classList.add("early-wait");
      el.setAttribute("aria-busy", "true");
    }
    say(text);
    if (!timer) timer = setInterval(progress, 250);
    progress();
  }

  function unmark(el) {
    waiting.splice(waiting.indexOf(el), 1);
    el.classList.remove("early-wait");
    el.removeAttribute("aria-busy");
    el.style.removeProperty("--early-progress");
  }

  // say announces in the loading badge, a status region.
  function say(text) {
    var badge = document.getElementById("app-wasm-loader");
    if (!badge) return;
    if (!status) {
      status = document.createElement("p");
      status.className = "visually-hidden";
      status.setAttribute("role", "status");
      badge.appendChild(status);
      setTimeout(function () { status.textContent = text; }, 50);
      return;
    }
    status.textContent = text;
  }

  // progress shows how much of the wasm has come, on the waiting controls
  // and in the loading badge.
  function progress() {
    var p = window.kvleakWasmProgress;
    var pct = p && p.total ? Math.min(100, Math.floor((100 * p.loaded) / p.total)) : 0;
    waiting.forEach(function (el) { el.style.setProperty("--early-progress", pct + "%"); });
    var label = document.getElementById("app-wasm-loader-label");
    if (!label) return;
    if (!loading) loading = label.textContent;
    var n = kept.length + unparsed.length;
    if (n === 0) {
      clearInterval(timer);
      timer = 0;
      label.textContent = loading;
      return;
    }
    label.textContent = loading + " " + pct + "% · " + n + (n === 1 ? " action waits" : " actions wait") + " for it";
  }

  // A click is the reader's until the app runs (replays come after).
  function onClick(e) {
    if (!early() || !e.target.closest) return;
    var summary = e.target.closest("summary");
    if (summary && summary.parentElement.tagName === "DETAILS" && page.contains(summary)) {
      // A disclosure opens at once; the app's page gets it the same.
      opened[JSON.stringify(keyOf(summary.parentElement))] = !summary.parentElement.open;
      return;
    }
    var el = e.target.closest('button, input[type="checkbox"], input[type="radio"], [role="button"]');
    if (!el || !page.contains(el)) return;
    e.preventDefault();
    act(el);
  }

  // act answers a control from the states, or keeps it; before the states
  // are parsed (the end of the page), it waits for them.
  function act(el) {
    if (!root && document.readyState === "loading") {
      unparsed.push(keyOf(el));
      mark(el, "“" + nameOf(el) + "” answers once the page has loaded.");
      return;
    }
    var to = el.id && moveOf(el.id);
    if (to) show(to);
    else keep({ kind: "click", key: keyOf(el) }, el);
  }

  // The page's keys (web/dom/keys.go: ListenKeys) are its buttons'
  // aria-keyshortcuts.
  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || !early()) return;
    var t = e.target;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) return;
    if (e.key.indexOf("Arrow") === 0 && t.closest && t.closest("#grid")) return;
    var all = page.querySelectorAll("[aria-keyshortcuts]");
    for (var i = 0; i < all.length; i++) {
      if (all[i].getAttribute("aria-keyshortcuts") === e.key && !all[i].disabled) {
        e.preventDefault();
        act(all[i]);
        return;
      }
    }
  }

  function onValue(e) {
    var el = e.target;
    if (!early() || !/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) || /^(checkbox|radio)$/.test(el.type) || !page.contains(el)) return;
    if (el.type === "file") keep({ kind: "files", key: keyOf(el), files: Array.prototype.slice.call(el.files) }, el);
    else keep({ kind: "value", key: keyOf(el), value: el.value }, el);
  }

  // A dropped file would open in the tab, leaving the page: it is kept.
  function onDrop(e) {
    if (!early() || !page.contains(e.target)) return;
    e.preventDefault();
    if (e.type === "drop" && e.dataTransfer && e.dataTransfer.files.length) {
      keep({ kind: "drop", key: keyOf(e.target), files: Array.prototype.slice.call(e.dataTransfer.files) }, e.target);
    }
  }

  function onFocus(e) {
    if (early() && page.contains(e.target)) focused = keyOf(e.target);
  }

  function files(list) {
    var dt = new DataTransfer();
    list.forEach(function (f) { dt.items.add(f); });
    return dt;
  }

  // replay makes a kept action again, on the app's page.
  function replay(a) {
    var el = find(a.key);
    if (!el) {
      console.warn("kvleak: the app's page has no control for a tap made while it loaded", a.key);
      return;
    }
    if (a.kind === "click") {
      el.click();
    } else if (a.kind === "drop") {
      el.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: files(a.files) }));
    } else {
      if (a.kind === "files") el.files = files(a.files).files;
      else el.value = a.value;
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  // takeover runs once the app's page is on screen: what the reader opened
  // and focused, then what was kept, in order.
  function takeover() {
    clearInterval(timer);
    if (root) root.remove();
    own = null;
    waiting = [];
    Object.keys(opened).forEach(function (k) {
      var el = find(JSON.parse(k));
      if (el && el.tagName === "DETAILS" && el.open !== opened[k]) el.open = opened[k];
    });
    if (focused && (!document.activeElement || document.activeElement === document.body)) {
      var f = find(focused);
      if (f) f.focus({ preventScroll: true });
    }
    var all = kept;
    kept = [];
    all.forEach(replay);
  }

  // The app runs once its page, which replaces the prerendered one, says
  // data-ready="true" (web/page.go).
  function check() {
    var p = document.getElementById("playground");
    if (p && p !== page && p.getAttribute("data-ready") === "true") {
      ready.disconnect();
      takeover();
    }
  }
  var ready = new MutationObserver(check);

  addEventListener("click", onClick, true);
  addEventListener("keydown", onKey, true);
  addEventListener("input", onValue, true);
  addEventListener("change", onValue, true);
  addEventListener("dragover", onDrop, true);
  addEventListener("drop", onDrop, true);
  addEventListener("focusin", onFocus, true);
  // A link that opens the tour at a card (?tour=N), or a state's own.
  document.addEventListener("DOMContentLoaded", function () {
    if (early() && current && current.getAttribute("data-state") !== "0") {
      var to = current;
      current = state("0");
      show(to);
    }
    unparsed.splice(0).forEach(function (key) {
      var el = find(key);
      if (!el) return;
      unmark(el);
      if (early()) act(el);
      else el.click();
    });
    ready.observe(document.body, { childList: true });
    ready.observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
    check();
  });
})();
