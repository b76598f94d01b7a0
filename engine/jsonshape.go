package engine

import "fmt"

// Bounds on an imported file's JSON, checked by a byte scan before it is
// decoded: decoding a hostile file (a megabyte of "[", millions of tiny
// values) costs the tab far more than reading it. An export nests 7 deep
// and averages about 6 bytes a token, so these leave room for any run file
// of MaxRunFileBytes.
const (
	MaxRunFileDepth  = 16
	MaxRunFileTokens = MaxRunFileBytes / 4
)

// checkJSONShape refuses data nested deeper than MaxRunFileDepth or with
// more than MaxRunFileTokens tokens (each bracket, string, ',' and ':'
// counts). It allocates nothing and does not validate the JSON: the decoder
// does that afterwards.
func checkJSONShape(data []byte) error {
	depth, tokens := 0, 0
	inString, escaped := false, false
	for _, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			if depth++; depth > MaxRunFileDepth {
				return fmt.Errorf("not a run file: it nests more than %d levels deep", MaxRunFileDepth)
			}
		case ']', '}':
			depth--
		case ',', ':':
		default:
			continue
		}
		if tokens++; tokens > MaxRunFileTokens {
			return fmt.Errorf("not a run file: it has more than %s JSON tokens", Thousands(MaxRunFileTokens))
		}
	}
	return nil
}
