package app

import (
	"strings"
	"testing"
)

// Edit no-json: go-app's JSON-based storage is an error, not a silent no-op.
func TestKvleakStorageRefusesJSON(t *testing.T) {
	s := newMemoryStorage()
	if err := s.Set("k", 1); err == nil || !strings.Contains(err.Error(), "left out of this wasm build") {
		t.Errorf("Set: %v", err)
	}
	var v int
	s.data["k"] = []byte("1")
	if err := s.Get("k", &v); err == nil {
		t.Error("Get: no error")
	}
}
