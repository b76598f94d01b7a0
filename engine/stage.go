package engine

// Stage is a step of the real pipeline, named so that a reader can find it in
// SGLang's disaggregated mode (see the postmortem and SGLang's disaggregation package).
type Stage string

const (
	StageIntake           Stage = "intake"            // API check and validate_input_length
	StageAdmission        Stage = "admission"         // the door: PrefillBootstrapQueue / DecodePreallocQueue
	StagePrefillBootstrap Stage = "prefill.bootstrap" // KV sender created for the bootstrap_room
	StageDecodePrealloc   Stage = "decode.prealloc"   // decode reserves the slot's pages, send_metadata
	StagePrefillForward   Stage = "prefill.forward"   // the forward pass builds the prompt's KV
	StagePrefillTransfer  Stage = "prefill.transfer"  // send_kv_chunk(last_chunk=True) into decode's pages
	StageDecodeTransfer   Stage = "decode.transfer"   // DecodeTransferQueue polls KVPoll until Success
	StageDecodeRunning    Stage = "decode.running"    // the running batch attends over kv_committed_len
	StageResponse         Stage = "response"          // the HTTP response to the client
	StageRelease          Stage = "release"           // pages returned to the free list
	StageRouter           Stage = "router"            // the router's reaction to a client abort
	StageGateway          Stage = "gateway"           // the AI gateway in front (the simulation's illustration)
)

// CancelStages are the stages at which a client can cancel a request in
// flight, in pipeline order.
var CancelStages = []Stage{
	StagePrefillBootstrap, StageDecodePrealloc, StagePrefillForward,
	StagePrefillTransfer, StageDecodeTransfer, StageDecodeRunning,
}

func cancelStage(s Stage) bool {
	for _, c := range CancelStages {
		if c == s {
			return true
		}
	}
	return false
}

// Half is the part of the system an event happened in.
type Half string

const (
	HalfAPI     Half = "api"
	HalfRouter  Half = "router"
	HalfPrefill Half = "prefill"
	HalfDecode  Half = "decode"
	HalfBoth    Half = "both"
)

// State is where a request ended, or that it waits for pages. SGLang's codes
// where it has them: 400 BadRequestError for FINISH_ABORT, 500 for a failed
// transfer; a cancelled request gets no answer, so its 499 is our own.
type State string

const (
	StateFinished  State = "finished"  // answered 200
	StateRejected  State = "rejected"  // refused before any work: the API's or the door's 400
	StateAborted   State = "aborted"   // the engine aborted it after admission (FINISH_ABORT): 400
	StateErrored   State = "errored"   // the KV transfer failed (KVPoll.Failed): 500
	StateCancelled State = "cancelled" // the client went away mid-flight: 499, the simulation's own code
	// StateWaiting is not an end: the request waits in DecodePreallocQueue
	// for free pages and goes on when a release makes room.
	StateWaiting State = "waiting"
)

// Outcome is how a deferred KV release ended, as counted by
// sglang:decode_deferred_kv_release_total{outcome}.
type Outcome string

const (
	OutcomeDrained Outcome = "drained" // prefill acknowledged; decode freed the pages
	OutcomeTimeout Outcome = "timeout" // no acknowledgement in time; freed anyway
	OutcomeError   Outcome = "error"   // prefill's transfer failed; freed
)

// Outcomes lists the deferred-release outcomes in a fixed order.
var Outcomes = []Outcome{OutcomeDrained, OutcomeTimeout, OutcomeError}
