package replay

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxSkipsKept is how many skipped lines keep their message; every skipped
// line is counted.
const MaxSkipsKept = 100

// Skip is a line of the log that gave no request, and why.
type Skip struct {
	Line   int
	Field  string // the field at fault, as the log names it; "" for the line as a whole
	Reason string
}

func (s Skip) Error() string {
	if s.Field == "" {
		return fmt.Sprintf("line %d: %s", s.Line, s.Reason)
	}
	return fmt.Sprintf("line %d: %s: %s", s.Line, s.Field, s.Reason)
}

// Skipped counts the lines skipped and keeps the first MaxSkipsKept.
type Skipped struct {
	Count int
	First []Skip
}

func (s *Skipped) add(k Skip) {
	s.Count++
	if len(s.First) < MaxSkipsKept {
		s.First = append(s.First, k)
	}
}

// maxShown bounds how much of a bad value a message repeats.
const maxShown = 40

// shown is text from the log as a message quotes it: short, escaped, never
// markup or control characters.
func shown(text string) string {
	if len(text) > maxShown {
		cut := maxShown
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		return strconv.Quote(text[:cut]) + "…"
	}
	return strconv.Quote(text)
}
