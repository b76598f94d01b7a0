package engine

import "fmt"

// Op is one thing a user did to an engine: send a request, or settle a
// lingering request's deferred release. A run is a Config plus its Ops, which
// is all a permalink or an export needs to replay it.
type Op struct {
	Send   *Request `json:"send,omitempty"`
	Settle *Settle  `json:"settle,omitempty"`
}

// Settle ends a deferred release; see Engine.Settle.
type Settle struct {
	Request int     `json:"request"`
	Outcome Outcome `json:"outcome"`
}

// SendOp and SettleOp build Ops.
func SendOp(r Request) Op                { return Op{Send: &r} }
func SettleOp(request int, o Outcome) Op { return Op{Settle: &Settle{request, o}} }

// Apply performs one op. An error means nothing changed.
func (e *Engine) Apply(op Op) error {
	switch {
	case op.Send != nil && op.Settle == nil:
		_, err := e.Send(*op.Send)
		return err
	case op.Settle != nil && op.Send == nil:
		return e.Settle(op.Settle.Request, op.Settle.Outcome)
	}
	return &RequestError{"op", "an operation must be exactly one of send or settle"}
}

// Replay builds an engine from cfg and applies ops in order. It stops at the
// first op that fails and says which.
func Replay(cfg Config, ops []Op) (*Engine, error) {
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	for i, op := range ops {
		if err := e.Apply(op); err != nil {
			return nil, fmt.Errorf("operation %d: %w", i+1, err)
		}
	}
	return e, nil
}
