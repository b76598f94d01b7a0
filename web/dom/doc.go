// Package dom is everything the playground does to the browser's document
// outside go-app's diff: the islands of raw HTML patched in place (the pool
// grid, the scrubber's marks, the event log), the after-paint scheduler and
// the address bar written through it, web storage and the run kept in the
// tab, the keyboard, the colour scheme, the embed's height and links, the
// pool map's canvas, downloads, files and the clipboard.
//
// The components (package web) keep rendering elements; they hand this
// package the element go-app mounted for them (Compo.JSValue) and the model's
// views, and render the strings it returns as raw elements. This package
// imports the model, never the engine (what it draws comes through the
// model's views) nor web.
//
// # What it relies on in go-app (v10)
//
// Written here once; the code cites it.
//
//   - Render, OnUpdate, OnMount. A component renders when an exported field
//     differs from its parent's new value by reflect.DeepEqual (unexported
//     fields are not compared, so a func kept unexported does not make a child
//     render each time). OnUpdate runs just before that Render, with the new
//     fields set, so it can bring the page up to them first (Island.Patch).
//     OnMount is dispatched after the component's first Render is mounted: its
//     elements are in the page. ctx.Defer runs after the frame's renders are
//     all in the page: where to read or change what they mounted.
//   - A raw element (app.Raw) is compared as a string. An equal string leaves
//     the element in the page as it is, with whatever was done to it since; a
//     different one replaces the whole element with a new one parsed from the
//     string.
//   - Children are diffed by position: the i-th new child is compared with the
//     i-th old one, so a child inserted before others updates or replaces all
//     that follow it, and raw elements at the same place with the same string
//     stay.
//   - An event handler go-app mounts stays the first one mounted on an element
//     that is reused, when the new one has the same code pointer: a closure
//     over a list's item would act on a stale item, so the handler reads its
//     subject from the element (Data, DataInt).
//
// # Native and browser
//
// Everything here builds natively: the browser is reached through go-app's
// app.Value, which natively is an inert stand-in, and app.IsClient tells the
// two apart. The markup and the patch plans are plain Go, unit-tested natively;
// what runs against the page is tested in the browser (e2e).
package dom
