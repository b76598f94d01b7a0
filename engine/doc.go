// Package engine simulates, deterministically and without a GPU, the serving
// pipeline in which the GLM-5.3 multi-tenant KV-cache leak happened: a
// disaggregated prefill/decode engine over a paged KV pool whose free() keeps
// the old bytes.
//
// A request passes the stages of the real engine (see Stage): intake
// (validate_input_length), the admission door, prefill bootstrap, decode
// prealloc, prefill forward and KV transfer, decode transfer and running, the
// response and the release of its pages. A prompt below the advertised
// context but at or over max_req_input_len (Config.MaxReqInputLen, derived
// from the pool as SGLang does) takes the real rejection path: the prompt
// becomes a one-token placeholder and a pending 400 is recorded while
// "finished" stays false. The Vulnerable door checks only "finished", so the
// request goes on and decode reads its whole reserved slot — seven stale
// pages of another tenant — and answers 200. Each part of the fix the
// article attributes to #38704 stops it alone, and so does SGLang's merged
// per-server door, #38935 (see Modes). Which stale pages a slot gets is the
// allocator's policy (see Allocator); that it gets some is free() not
// clearing. A deferred release that times out lets a late transfer write
// into pages already handed to another request: the second bug class.
//
// The article's three questions are experiments here: what the door
// retires (Config.Door, a RetireSet over the pending terminal states; the
// modes map onto it), the launch suite (LaunchSuite, LaunchResults), and
// two defences downstream of free() besides scrubbing, each with its cost:
// decode's last-writer check and an AI gateway with bounded fingerprints.
// Only the pending rejection's path is the incident's; the others are the
// simulation's illustration and say so in their log lines.
//
// Everything the playground shows is computed here: page ownership, leaked
// pages, HTTP status, the ordered event log, metrics and the capacity check.
// The same Config and sequence of operations always give the same log,
// responses and metrics: there is no clock, no randomness and no map order.
package engine
