// Package pool is the two servers' KV pools at the step on screen:
// decode's as a grid of cells (or a table, or a map of a large pool on a
// canvas) with zoom and cell details, prefill's beside it (poolview.go).
//
// The page makes it with NewPoolView and hands it the model's pool views;
// a zoom or the comparison's toggle goes back up through callbacks.
package pool
