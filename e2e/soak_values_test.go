package e2e

import (
	"fmt"
	"strings"

	"github.com/chromedp/chromedp/kb"
)

// The soak's inputs: good values, bad values and the edges between, per
// kind of field. A value is picked by index, so the same seed picks the
// same one.

// soakNumbers go into the numeric fields (#ctx, #pool, #page-size,
// #decode-pool, #prompt-tokens).
var soakNumbers = []string{
	// good
	"1", "2", "8", "16", "64", "256", "1024", "4096", "32768", "681280", "681,280", "681 280",
	"1Mi", "64Ki", "2.04M", "1k", "12_000",
	// bad or at a bound
	"", " ", "0", "-1", "-0", "abc", "1.5", "1.", ".5", "1e6", "0x10", "NaN", "Infinity", "∞",
	"１２", "٣", "2147483647", "2147483648", "9223372036854775807", "99999999999999999999",
	"1Gi", "1Ti", "1000000000000", "<b>1</b>", "1,,2", "--1", "1Mi1", "\u00a0512",
	strings.Repeat("9", 5000),
}

// soakTexts go into the free-text fields (#secret, #tenant-name).
var soakTexts = []string{
	// good
	"A", "B", "Z", "tenant-b", "the quarterly plan", "my API key: sk-123", "ça 🙂",
	// bad or odd
	"", "   ", "<img src=x onerror=alert(1)>", "a,b&c=d%ZZ#x?y", "\u202eRTL", "\x00\x01\x7f",
	"tab\there", "line\nbreak", "'\"`", strings.Repeat("x", 300), strings.Repeat("🙂", 100),
	strings.Repeat("long name ", 2000),
}

// soakQueries are the query strings the walk opens the page with: every
// view flag, each preset's short link, and links that must be refused with
// a banner (bad version, bad numbers, bad ops, too long).
var soakQueries = []string{
	"", "?v=1&preset=demo", "?v=1&preset=demo-fixed", "?v=1&preset=abort-one-half",
	"?v=1&preset=glm-launch", "?v=1&preset=demo&step=3", "?v=1&preset=demo&step=1",
	"?v=1&preset=demo&compare=1", "?v=1&preset=demo&embed=1", "?v=1&preset=demo&embed=1&ro=1",
	"?v=1&preset=demo&embed=1&ro=1&compare=1&step=2", "?embed=1", "?ro=1", "?compare=1",
	"?embed=1&ro=1", "?embed=1&ro=1&compare=1", "?embed=0&ro=1", "?compare=yes",
	"?v=1&ctx=16&pool=8&page=1&slot=8&mode=fixed&cancel=both&scrub=0&op=s,A,4,-,hi",
	"?v=1&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=one&scrub=1&op=s,A,4,decode,hi&op=x,1,drained",
	// an empty run in every view
	"?v=1&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=both&scrub=0",
	"?v=1&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=both&scrub=0&embed=1&ro=1",
	"?v=1&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=both&scrub=0&compare=1&step=1",
	// the capture-the-flag ladder: a challenge on its start, on a run, embedded
	"?challenge=6", "?v=3&preset=demo&challenge=1", "?challenge=2&embed=1&view=challenge",
	// refused
	"?challenge=0", "?challenge=99", "?v=3&preset=demo", "?v=2&preset=demo", "?v=1&preset=nope", "?v=1&ctx=0", "?v=1&ctx=abc", "?v=1&ctx=-5",
	"?v=1&op=s,%ZZ,1,-,x", "?v=1&step=99999", "?v=1&preset=demo&step=99999", "?v=1&preset=demo&step=-1",
	"?v=1&v=1", "?v=1&op=x,1,drained", "?v=1&op=x,0,bogus", "?v=1&op=s,A,1,bogus,x", "?v=1&op=s,,1,-,x",
	"?v=1&mode=weird", "?v=1&cancel=weird", "?v=1&scrub=2", "?%", "?v=1&preset=demo#frag", "?&&&", "?=",
	"?v=1&ctx=1&pool=1&page=1&slot=1&mode=vulnerable&cancel=both&scrub=0&op=s,A,99999999999,-,x",
	"?v=1&ctx=99999999999&pool=99999999999&page=1&slot=1&mode=vulnerable&cancel=both&scrub=0",
	"?v=1&" + strings.Repeat("op=s,A,1,-,x&", 250) + "ctx=16",
	"?" + strings.Repeat("a", 20_000),
}

// soakKeys are the keys pressed: the shortcuts, grid navigation and some
// that must do nothing.
var soakKeys = []string{",", ".", "p", "P", kb.ArrowLeft, kb.ArrowRight, kb.ArrowUp, kb.ArrowDown,
	kb.Home, kb.End, kb.Enter, " ", kb.Tab, "x", kb.Escape}

// keyName names a key in the trace.
func keyName(k string) string {
	if r := []rune(k); len(r) == 1 {
		if key, ok := kb.Keys[r[0]]; ok && key.Key != "" && key.Key != k {
			return key.Key
		}
	}
	return fmt.Sprintf("%q", k)
}
