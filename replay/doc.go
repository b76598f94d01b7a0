// Package replay reads request logs for the replay of issue 40: each
// request's arrival, tenant and token counts, streamed through the
// simulation's vulnerable and fixed doors. It is plain Go, shared by the
// page (in the wasm) and the terminal (kvleak replay).
//
// Formats, told apart by the first non-blank line:
//   - ours, JSONL: {"t": 12.5, "tenant": "A", "prompt_tokens": 900, "output_tokens": 20};
//   - ours, CSV with the header t,tenant,prompt_tokens,output_tokens, its
//     columns in any order (more are ignored);
//   - Mooncake's traces (kvcache-ai/Mooncake, FAST'25): JSONL with timestamp
//     in milliseconds, input_length, output_length and hash_ids, which are
//     ignored: prefix caching is not modelled (Reader.Notes says so);
//   - Azure's LLM inference trace (Azure/AzurePublicDataset): CSV with the
//     header TIMESTAMP,ContextTokens,GeneratedTokens.
//
// Times: Request.At counts from the log's origin: t as written (seconds),
// timestamp as written (milliseconds), and for Azure's datetimes, from the
// first request. They are read as decimals to the nanosecond, not as
// floats, so a time written back is the time read.
//
// Order: requests must come in time order (equal times are fine), as every
// published trace does: the replay streams and cannot sort a log it does
// not hold. A line earlier than the request before it is skipped, and its
// message names that request's line, so one wrong time is easy to find.
//
// Bad lines: a line that is not JSON or CSV, lacks a field, or holds a bad
// value is skipped and counted, its message naming the line and the field;
// the rest of the log is read. Limits: a line of at most MaxLineBytes;
// prompts of 1 to MaxPromptTokens tokens and outputs of 0 to
// MaxOutputTokens (the engine's own bounds); times of at most MaxSeconds;
// tenant names as the page takes them (printable, 1 to engine.MaxTenantLen
// characters). A log that cannot be read at all — empty, of no known
// format, or without one good line — is an error.
//
// Tenants: where a line names none (the traces never do), Tenancy gives one.
// Sessions: our formats may name one (JSONL "session", text or a number;
// CSV column session); through more than one instance (Options.Instances)
// the router keeps a session on one instance and sends the rest
// round-robin.
//
// Files: Options.Files gets whom to tell, as CSV (files.go): every victim
// of every leaked response, and every exposed tenant.
//
// Memory is one line and MaxSkipsKept messages, whatever the log's length;
// the replay adds the requests in flight, the pools' runs, and a record per
// exposed tenant and per victim → recipient pair (MaxPairsKept of them
// named), whatever the files' length.
package replay
