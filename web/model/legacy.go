package model

import (
	"fmt"
	"strconv"
	"strings"

	"kvleak/engine"
)

// limitNotice says which requests of a run made before the engine followed
// SGLang's prompt limit now end differently ("" when none do).
func limitNotice(what string, cfg engine.Config, ops []engine.Op) string {
	changed, err := engine.LimitChanges(cfg, ops)
	if err != nil || len(changed) == 0 {
		return ""
	}
	names := make([]string, len(changed))
	for i, id := range changed {
		names[i] = "r" + strconv.Itoa(id)
	}
	return fmt.Sprintf("This %s was made before the playground followed SGLang's prompt limit (max_req_input_len = min(context − 1, pool − 1) − 5): %s now %s differently than when it was made.",
		what, strings.Join(names, ", "), plural(len(changed), "ends", "end"))
}
