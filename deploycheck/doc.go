// Package deploycheck answers, for a real SGLang deployment in
// prefill/decode (PD) mode, whether the leak's window is open: it reads what
// each server reports — the JSON of GET /server_info (/get_server_info
// before the rename), the server's launch command line, or its Kubernetes
// command and args lists — and judges the pair with the engine's own limits
// (engine.NewLimits, engine.LeakWindow) and the releases the article names
// for the fix (v0.5.21 for Mooncake and NIXL, v0.5.22 for MORI).
//
// It is plain Go, shared by the terminal (cmd/kvleak check) and the page's
// "Check your deployment" panel: the same text gives the same verdict in
// both, and the same words (CheckReport). What was pasted stays in the
// Server values; only numbers leave for the playground (Verdict.Replay, in
// a link that package permalink writes).
//
// Where SGLang puts each value (names are SGLang's, so that a reader can
// look them up):
//   - GET /server_info (python/sglang/srt/entrypoints/http_server.py,
//     server_info; /get_server_info is its deprecated alias, which logs a
//     warning and returns the same) answers {**dataclasses.asdict(server_args),
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
//     "status", "max_total_num_tokens" and "max_req_input_len", at the top
//     level. internal_states[0] (Scheduler.get_internal_state) repeats the
//     server args with "memory_usage": {"token_capacity": …}, but not
//     max_req_input_len.
//   - max_total_num_tokens is the pool the model runner built: what fits in
//     memory, capped by --max-total-tokens, rounded down to whole pages
//     (model_runner.py, "max_total_tokens=… is larger than the profiled
//     value"). TpModelWorker.__init__ (managers/tp_worker.py) sets
//     max_req_len = min(context_len − 1, model_runner.max_token_pool_size −
//     1) and max_req_input_len = max_req_len − 5; max_token_pool_size is the
//     full-attention pool of a hybrid sliding-window model and
//     max_total_num_tokens otherwise (ModelRunner.max_token_pool_size,
//     sgl-project/sglang#22597). The check uses the reported
//     max_req_input_len, and engine.Limits' rule on max_total_num_tokens
//     where none is reported (Server.Limits).
//   - version is python/sglang/version.py's __version__: the release, or,
//     from a checkout setuptools_scm finds no release tag in,
//     0.0.0.devN+g<commit> (FixOf: unknown).
package deploycheck
