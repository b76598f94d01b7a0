package model

import (
	"errors"

	"kvleak/challenge"
	"kvleak/internal/jsonlite"
)

// The reader's progress on the challenge ladder is kept in the browser's
// localStorage as JSON (jsonlite), which the page writes directly
// (web/dom: Keep). Nothing of it leaves the page.

// ProgressKey is the localStorage key of the ladder's progress.
const ProgressKey = "kvleak:challenges"

// maxProgressBytes bounds what is read back: more than the ladder needs.
const maxProgressBytes = 4096

// maxTries bounds a stored count, so that a tampered one cannot overflow.
const maxTries = 1_000_000

// Progress is what the reader did on the ladder.
type Progress struct {
	Items []ProgressItem `json:"items"` // by challenge, n-1
}

// ProgressItem is one challenge's progress.
type ProgressItem struct {
	Solved bool `json:"solved,omitempty"`
	Tries  int  `json:"tries,omitempty"` // runs checked that did not solve it
}

// Item is challenge n's progress (the zero item when none).
func (p Progress) Item(n int) ProgressItem {
	if n < 1 || n > len(p.Items) {
		return ProgressItem{}
	}
	return p.Items[n-1]
}

// SolvedCount is how many challenges the reader has solved.
func (p Progress) SolvedCount() int {
	k := 0
	for _, it := range p.Items {
		if it.Solved {
			k++
		}
	}
	return k
}

// set replaces challenge n's item, copying the items: views may hold them.
func (p *Progress) set(n int, it ProgressItem) {
	items := make([]ProgressItem, len(challenge.Ladder()))
	copy(items, p.Items)
	items[n-1] = it
	p.Items = items
}

// Encode is the progress as the text kept in storage.
func (p Progress) Encode() []byte {
	b, _ := jsonlite.Marshal(p) // a struct of bools and ints: nothing to fail
	return b
}

// ParseProgress reads what Encode wrote. Progress it cannot read is an
// error; a count out of range, or a challenge past the ladder's end, is
// dropped.
func ParseProgress(data []byte) (Progress, error) {
	var p, read Progress
	if len(data) == 0 {
		return p, nil
	}
	if len(data) > maxProgressBytes || jsonlite.Unmarshal(data, &read) != nil {
		return p, errors.New("the challenges' progress kept in this browser is not in a form this page reads")
	}
	for i, it := range read.Items {
		if i < len(challenge.Ladder()) && it.Tries >= 0 && it.Tries <= maxTries {
			p.set(i+1, it)
		}
	}
	return p, nil
}
