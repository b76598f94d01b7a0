package permalink

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"kvleak/engine"
)

// encodeOp writes one operation of a run as a permalink's op value.
func encodeOp(op engine.Op) string {
	esc := url.QueryEscape
	if op.Settle != nil {
		return "x," + strconv.Itoa(op.Settle.Request) + "," + esc(string(op.Settle.Outcome))
	}
	r := op.Send
	end := "-"
	switch {
	case r.FailTransfer:
		end = "fail"
	case r.CancelAt != "":
		end = string(r.CancelAt)
	}
	fields := []string{"s", esc(r.Tenant), strconv.Itoa(r.PromptTokens), esc(end), esc(r.Content)}
	if r.MaxNewTokens > 0 {
		fields = append(fields, strconv.Itoa(r.MaxNewTokens))
	}
	return strings.Join(fields, ",")
}

func decodeOp(raw string) (engine.Op, error) {
	fields := strings.Split(raw, ",")
	for i, f := range fields {
		v, err := url.QueryUnescape(f)
		if err != nil {
			return engine.Op{}, errors.New("not properly escaped")
		}
		fields[i] = v
	}
	switch {
	case len(fields) == 3 && fields[0] == "x":
		id, err := strconv.Atoi(fields[1])
		if err != nil || id < 1 || id > engine.MaxRequests {
			return engine.Op{}, fmt.Errorf("settle of request %q: not a request number", Clip(fields[1]))
		}
		return engine.SettleOp(id, engine.Outcome(fields[2])), nil
	case (len(fields) == 5 || len(fields) == 6) && fields[0] == "s":
		n, err := strconv.Atoi(fields[2])
		if err != nil || len(fields[2]) > 10 {
			return engine.Op{}, fmt.Errorf("prompt length %q: not a whole number", Clip(fields[2]))
		}
		r := engine.Request{Tenant: fields[1], PromptTokens: n, Content: fields[4]}
		if len(fields) == 6 {
			m, err := strconv.Atoi(fields[5])
			if err != nil || len(fields[5]) > 10 || m < 1 {
				return engine.Op{}, fmt.Errorf("max_new_tokens %q: not a whole number of at least 1", Clip(fields[5]))
			}
			r.MaxNewTokens = m
		}
		switch end := fields[3]; end {
		case "-":
		case "fail":
			r.FailTransfer = true
		default:
			r.CancelAt = engine.Stage(end)
		}
		if err := r.Validate(); err != nil {
			return engine.Op{}, err
		}
		return engine.SendOp(r), nil
	}
	return engine.Op{}, errors.New(`must be "s,<tenant>,<tokens>,<end>,<content>[,<max_new_tokens>]" or "x,<request>,<outcome>"`)
}
