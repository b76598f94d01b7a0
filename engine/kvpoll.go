package engine

// KVPoll is the state of a request's KV transfer as SGLang's KVPoll names
// it, on the event where the transfer reaches it.
type KVPoll string

const (
	PollBootstrapping   KVPoll = "Bootstrapping"   // sender or receiver created, peers not yet paired
	PollWaitingForInput KVPoll = "WaitingForInput" // decode sent its page indices; prefill has not run yet
	PollTransferring    KVPoll = "Transferring"    // send_kv_chunk in flight
	PollSuccess         KVPoll = "Success"         // the KV arrived
	PollFailed          KVPoll = "Failed"          // the transfer or its bootstrap failed
)
