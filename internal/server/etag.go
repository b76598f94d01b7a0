package server

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"sync"
	"time"
)

// etagCache remembers each served file's content-hash ETag. An entry is
// reused while the file's size and modification time are unchanged, so a
// rebuilt site gets fresh tags without a restart, and the map stays bounded
// by the number of files in the site.
type etagCache struct {
	mu      sync.Mutex
	entries map[string]etagEntry
}

type etagEntry struct {
	size    int64
	modTime time.Time
	etag    string
}

func newETagCache() *etagCache {
	return &etagCache{entries: map[string]etagEntry{}}
}

// get returns the strong ETag of f (opened as name, described by info) and
// leaves f positioned at its start.
func (c *etagCache) get(name string, f *os.File, info os.FileInfo) (string, error) {
	c.mu.Lock()
	e, ok := c.entries[name]
	c.mu.Unlock()
	if ok && e.size == info.Size() && e.modTime.Equal(info.ModTime()) {
		return e.etag, nil
	}
	// Hash outside the lock: a first request for the wasm must not stall
	// requests for other files. Two concurrent misses hash twice; harmless.
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	etag := `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
	c.mu.Lock()
	c.entries[name] = etagEntry{size: info.Size(), modTime: info.ModTime(), etag: etag}
	c.mu.Unlock()
	return etag, nil
}
