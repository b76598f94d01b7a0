// Package challenge is the playground's capture-the-flag ladder: tenant A
// holds a flag and the reader, as another tenant, tries to read it through
// the engine, then meets each defence in turn. The page (web/challenge) and
// `kvleak challenge` share it; it imports the engine only.
//
// A challenge is data and a predicate. Its starting run is a preset's
// settings and the first operations of that preset's run (Challenge.Start),
// so that it follows the engine's presets as they change. Its goal is a
// pure function of the engine after the reader's run — its responses, their
// provenance, the event log, the counters — never of what a page shows.
// The run is judged by what it did, however the reader got there (the
// form, a preset, a pasted link): Check replays nothing and trusts nothing
// but the engine.
//
// Fair play: each challenge holds some settings as its rules (all of them
// unless it names the ones the reader may change, Challenge.Free). A run
// that meets the goal with a held setting changed does not count, and the
// verdict names the setting; a free setting changed is named too, with
// word that the solution still counts.
//
// "Prove it cannot be done" challenges (Challenge.Question) ask the reader
// a yes-or-no question, and a right answer alone does not solve them: the
// run must hold the experiment that decides it. For symmetric pools the
// question is whether any prompt can leak; the deciding experiment is the
// shortest prompt prefill rejects (its max_req_input_len). validate_input_length
// rejects every prompt at or over a server's limit, so if decode rejects
// that one prompt too, decode's limit is no larger than prefill's and every
// prompt prefill rejects, decode rejects as well: the leak's window
// (engine.LeakWindow) is closed, and the answer "it cannot" is proven by
// the run, not taken on trust. A longer probe proves nothing (a shorter
// prompt might still pass decode), and the predicate says so.
package challenge
