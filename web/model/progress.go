package model

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"kvleak/challenge"
	"kvleak/engine"
	"kvleak/permalink"
)

// The reader's progress on the challenge ladder is kept in the browser's
// localStorage, as text the page writes directly (web/dom: KeepLocal): a
// header line, then a line per challenge the reader tried or solved —
// its number, 1 when solved, the tries, the winning run's query. Nothing
// of it leaves the page.

// ProgressKey is the localStorage key of the ladder's progress.
const ProgressKey = "kvleak:challenges"

const progressHeader = "kvleak-challenges 1"

// maxProgressBytes bounds what is read back: a line, with its winning
// link, per challenge.
func maxProgressBytes() int { return (permalink.MaxQueryBytes + 64) * len(challenge.Ladder()) }

// maxTries bounds a stored count, so that a tampered one cannot overflow.
const maxTries = 1_000_000

// Progress is what the reader did on the ladder, by challenge (n-1).
type Progress struct {
	items []ProgressItem
}

// ProgressItem is one challenge's progress.
type ProgressItem struct {
	Solved bool
	Tries  int    // runs checked that did not solve it
	Link   string // the query of the run that solved it ("" for a run too long for a link)
}

// Item is challenge n's progress (the zero item when none).
func (p Progress) Item(n int) ProgressItem {
	if n < 1 || n > len(p.items) {
		return ProgressItem{}
	}
	return p.items[n-1]
}

// SolvedCount is how many challenges the reader has solved.
func (p Progress) SolvedCount() int {
	k := 0
	for _, it := range p.items {
		if it.Solved {
			k++
		}
	}
	return k
}

// set replaces challenge n's item, copying the items: views may hold them.
func (p *Progress) set(n int, it ProgressItem) {
	items := make([]ProgressItem, max(len(p.items), len(challenge.Ladder())))
	copy(items, p.items)
	items[n-1] = it
	p.items = items
}

// Encode is the progress as the text kept in storage.
func (p Progress) Encode() []byte {
	var b strings.Builder
	b.WriteString(progressHeader + "\n")
	for i, it := range p.items {
		if !it.Solved && it.Tries == 0 {
			continue
		}
		solved := "0"
		if it.Solved {
			solved = "1"
		}
		fmt.Fprintf(&b, "%d\t%s\t%d\t%s\n", i+1, solved, it.Tries, it.Link)
	}
	return []byte(b.String())
}

// ParseProgress reads what Encode wrote. It skips a line it cannot read
// (another version's, or tampered with) and refuses only text that is not
// progress at all, so that one bad line costs one challenge's progress.
func ParseProgress(data []byte) (Progress, error) {
	var p Progress
	if len(data) == 0 {
		return p, nil
	}
	if len(data) > maxProgressBytes() {
		return p, fmt.Errorf("the challenges' progress kept in this browser is %s bytes; at most %s are read", engine.Thousands(int64(len(data))), engine.Thousands(int64(maxProgressBytes())))
	}
	lines := strings.Split(string(data), "\n")
	if lines[0] != progressHeader {
		return p, fmt.Errorf("the challenges' progress kept in this browser is not in a form this page reads")
	}
	for _, line := range lines[1:] {
		if n, it, ok := parseProgressLine(line); ok {
			p.set(n, it)
		}
	}
	return p, nil
}

func parseProgressLine(line string) (int, ProgressItem, bool) {
	f := strings.Split(line, "\t")
	if len(f) != 4 {
		return 0, ProgressItem{}, false
	}
	n, err1 := strconv.Atoi(f[0])
	tries, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil || n < 1 || n > len(challenge.Ladder()) || tries < 0 || tries > maxTries || (f[1] != "0" && f[1] != "1") {
		return 0, ProgressItem{}, false
	}
	link := f[3]
	if len(link) > permalink.MaxQueryBytes || strings.IndexFunc(link, func(r rune) bool { return !unicode.IsPrint(r) || r == ' ' }) >= 0 {
		link = ""
	}
	return n, ProgressItem{Solved: f[1] == "1", Tries: tries, Link: link}, true
}
