// Loads the KV-cache leak playground into the iframe of embed-example.html
// and keeps the iframe as tall as the playground's content.
//
// The playground, in embed mode (?embed=1), posts
// {type: "kvleak:height", height: <CSS pixels>} to its parent whenever its
// content changes height. Only messages from the iframe itself, at the
// playground's origin, are believed.
//
// This file is external, not inline, so that it runs under a
// Content-Security-Policy without 'unsafe-inline'.
(function () {
  "use strict";

  var MIN_HEIGHT = 200;   // never collapse the frame to nothing
  var MAX_HEIGHT = 20000; // nor let a bad message make the page endless

  var frame = document.getElementById("kvleak-playground");
  if (!frame) {
    return;
  }

  // Where the playground lives: ?app=<URL> on this page's address, or this
  // page's own folder. Only http(s) addresses are used, so that ?app= cannot
  // turn the frame into a javascript: or data: URL.
  var base = new URL("./", location.href);
  var app = new URLSearchParams(location.search).get("app");
  if (app) {
    try {
      var candidate = new URL(app, location.href);
      if (candidate.protocol === "http:" || candidate.protocol === "https:") {
        base = candidate;
      }
    } catch (e) {
      // not a URL: keep the default
    }
  }
  var src = new URL(frame.getAttribute("data-kvleak-state") || "?embed=1", base);
  var origin = src.origin;

  window.addEventListener("message", function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow) {
      return;
    }
    var data = event.data;
    if (!data || data.type !== "kvleak:height") {
      return;
    }
    var height = Math.round(Number(data.height));
    if (!isFinite(height) || height <= 0) {
      return;
    }
    frame.height = String(Math.min(Math.max(height, MIN_HEIGHT), MAX_HEIGHT));
  });

  frame.src = src.href;
})();
