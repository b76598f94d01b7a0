// Package experiments is what the reader checks beyond the run itself: the
// launch tests, the requests whose decode half lingers, the capacity check
// and the engine's counters, and the same metrics as Prometheus' text.
package experiments
