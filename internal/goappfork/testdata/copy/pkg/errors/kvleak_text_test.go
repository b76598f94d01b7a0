package errors

import (
	"io"
	"strings"
	"testing"
)

// Edit no-json: an error reads as text, with either encoder.
func TestKvleakErrorsAsText(t *testing.T) {
	err := New("setting storage value failed").WithTag("key", "k").WithTag("at", 2).Wrap(io.EOF)
	got := err.Error()
	if !strings.HasPrefix(got, "setting storage value failed at=2 key=k (") || !strings.HasSuffix(got, "): EOF") {
		t.Errorf("Error() = %q", got)
	}
	SetIndentEncoder()
	if again := err.Error(); again != got {
		t.Errorf("with the indent encoder: %q, want %q", again, got)
	}
}
