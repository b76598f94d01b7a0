package replay

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// datetime gives the instant time.Parse gives with the two layouts Azure's
// traces use (a T or a space between date and time), and refuses whatever
// time.Parse refuses. It is stricter where time.Parse is lenient: a
// one-digit hour, extra spaces — shapes no trace writes.
func FuzzDatetime(f *testing.F) {
	for _, s := range []string{
		"2023-11-16 18:15:46.6805900", "2023-11-16T18:15:46.6805900", "2023-11-16 18:15:46", "2023-11-16 18:15:46+00:00",
		"2023-11-16 18:15:46.5-07:30", "2024-02-29 00:00:00", "2023-02-29 00:00:00", "2023-11-16 24:00:00", "2023-11-16 18:15:46.",
		"2023-11-16 18:15:46Z", "2023-13-01 00:00:00", "2023-11-16 18:15", "x", "", "2023-11-16 18:15:46.12345678901",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, err := datetime("time", text)
		norm := strings.TrimSpace(text)
		if len(norm) > 10 && norm[10] == 'T' {
			norm = norm[:10] + " " + norm[11:]
		}
		var want time.Time
		var werr error = errRefused
		for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"} {
			if w, e := time.Parse(layout, norm); e == nil {
				want, werr = w, nil
				break
			}
		}
		if werr != nil {
			require.Error(t, err, "time.Parse refuses %q", text)
			return
		}
		if err != nil && !canonical.MatchString(norm) {
			return // time.Parse's leniency: a one-digit hour, extra spaces
		}
		require.NoError(t, err, "time.Parse reads %q", text)
		require.True(t, want.Equal(got), "%q: %v, time.Parse %v", text, got, want)
	})
}

// canonical is the shape datetime reads, after a T becomes a space.
var canonical = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}([.,]\d+)?(Z|[+-]\d{2}:\d{2})?$`)

var errRefused = errRefusedT{}

type errRefusedT struct{}

func (errRefusedT) Error() string { return "refused" }
