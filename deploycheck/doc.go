// Package deploycheck answers, for a real SGLang deployment in
// prefill/decode (PD) mode, whether the leak's window is open: it reads what
// each server reports — the JSON of GET /get_server_info, or the server's
// launch command line — and judges the pair with the engine's own limits
// (engine.NewLimits, engine.LeakWindow) and the releases the article names
// for the fix (v0.5.21 for Mooncake and NIXL, v0.5.22 for MORI).
//
// It is plain Go, shared by the terminal (cmd/kvleak check) and the page's
// "Check your deployment" panel: the same text gives the same verdict in
// both. What was pasted stays in the Server values; only numbers leave for
// the playground (Verdict.Replay).
//
// Where SGLang puts each value (names are SGLang's, so that a reader can
// look them up):
//   - GET /get_server_info (python/sglang/srt/entrypoints/http_server.py,
//     get_server_info) answers {**dataclasses.asdict(server_args),
//     **scheduler_info, "internal_states": [...], "version": __version__}.
//   - server_args is the ServerArgs dataclass (python/sglang/srt/
//     server_args.py): context_length (None means the model's own
//     config.json), page_size, max_total_tokens (the --max-total-tokens cap),
//     disaggregation_mode ("null", "prefill" or "decode") and
//     disaggregation_transfer_backend (default "mooncake"; the choices are
//     DISAGG_TRANSFER_BACKEND_CHOICES: mooncake, nixl, ascend, fake, mori,
//     mooncake_tcp).
//   - scheduler_info is what the scheduler reports once it is ready
//     (python/sglang/srt/managers/scheduler.py, Scheduler.get_init_info):
//     "status", "max_total_num_tokens" and "max_req_input_len".
//   - internal_states has one dict per data-parallel rank
//     (Scheduler.get_internal_state): the global server args again, and
//     "memory_usage": {"token_capacity": max_total_num_tokens, …}.
//   - max_total_num_tokens is the pool the model runner built: what fits in
//     memory, capped by --max-total-tokens, rounded down to whole pages
//     (model_runner.py, "max_total_tokens=… is larger than the profiled
//     value"); max_req_input_len = min(context_len − 1,
//     max_total_num_tokens − 1) − 5 (tp_worker.py) is what engine.Limits
//     computes.
package deploycheck
