package replay

import (
	"strings"
	"testing"
	"time"
)

// dateLayouts are the layouts datetime reads as time.Parse reads them.
var dateLayouts = []string{"2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"}

// timeParse is what datetime read with time.Parse.
func timeParse(text string) (time.Time, bool) {
	text = strings.TrimSpace(text)
	if len(text) > 10 && text[10] == 'T' {
		text = text[:10] + " " + text[11:]
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, text); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// FuzzDatetimeAsTimeParse: datetime takes what time.Parse takes, and
// gives the same instant.
func FuzzDatetimeAsTimeParse(f *testing.F) {
	for _, s := range []string{"2023-11-16 18:15:46.6805900", "2023-11-16T18:15:46+01:00", "2023-11-16 18:15:46Z", "2024-02-29 0:00:00",
		"2023-02-29 00:00:00", "+999-01-01 23:59:59,5", "-001-12-31  1:02:03.1234567891-24:60", "2023-11-16 18:15:46.", "2023-11-16 18:15:46.x",
		"2023-13-01 00:00:00", "2023-11-16 24:00:00", "2023-11-16 18:60:00", "2023-11-16 18:15:60", "2023-11-16 18:15:46+25:00", "2023-11-16 18:15:46+1:000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		want, wantOK := timeParse(text)
		got, err := datetime("TIMESTAMP", text)
		if (err == nil) != wantOK || wantOK && !got.Equal(want) {
			t.Fatalf("%q: time.Parse %v %v, datetime %v %v", text, want, wantOK, got, err)
		}
	})
}
