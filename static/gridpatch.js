// Patches the KV pool grid's cells in place, in one call from the wasm
// (web/poolgrid.go). Made from Go, each attribute was a call into
// JavaScript with its strings decoded on the way: up to seven calls a
// changed cell, a third of a timeline step's Go. Here the whole patch comes
// as one JSON text.
//
// patch is [[cell, content or "", "1" to set the content, name, value, …], …]:
// cell is its index in the grid, whose cells sit in runs of run elements
// (grid.children[k].children). Values are text for setAttribute; the
// content is HTML the wasm escaped. A cell the grid does not hold changes
// nothing and the call returns false, and the wasm renders the grid again.
//
// This file is external, not inline, so that it runs under a
// Content-Security-Policy without 'unsafe-inline'.
(function () {
  "use strict";

  window.kvleakPatchGrid = function (grid, run, patch) {
    var cells = JSON.parse(patch);
    var els = [];
    for (var i = 0; i < cells.length; i++) {
      var at = Number(cells[i][0]);
      var holder = grid.children[Math.floor(at / run)];
      var el = holder && holder.children[at % run];
      if (!el) {
        return false;
      }
      els.push(el);
    }
    for (var j = 0; j < cells.length; j++) {
      var p = cells[j];
      for (var k = 3; k + 1 < p.length; k += 2) {
        els[j].setAttribute(p[k], p[k + 1]);
      }
      if (p[2] === "1") {
        els[j].innerHTML = p[1];
      }
    }
    return true;
  };
})();
