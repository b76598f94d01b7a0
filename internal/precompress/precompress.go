// Package precompress writes .br and .gz twins next to a static site's
// compressible files, so a file server can send them without compressing
// on every request. Output is deterministic: same input, same bytes.
package precompress

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// Compressible lists the extensions that get twins. Images such as PNG are
// already compressed and gain nothing.
var Compressible = map[string]bool{
	".wasm": true, ".js": true, ".css": true, ".html": true, ".svg": true,
	".webmanifest": true, ".json": true, ".txt": true, ".csv": true,
}

// Options tunes brotli. Quality 11 is best but super-linear in time: on
// the multi-megabyte wasm it takes many times what quality 9 does, so large
// files get their own quality.
type Options struct {
	Quality      int   // brotli quality for small files; 0 means 11
	LargeQuality int   // brotli quality for files >= LargeBytes; 0 means 10
	LargeBytes   int64 // 0 means 1 MiB
}

func (o Options) quality(size int64) int {
	large, q, lq := o.LargeBytes, o.Quality, o.LargeQuality
	if large == 0 {
		large = 1 << 20
	}
	if q == 0 {
		q = brotli.BestCompression
	}
	if lq == 0 {
		lq = 10
	}
	if size >= large {
		return lq
	}
	return q
}

// Twins returns the twin file names written for name, or nil if name is not
// compressible. Twins themselves are never compressible, so re-runs are safe.
func Twins(name string) []string {
	if !Compressible[strings.ToLower(filepath.Ext(name))] {
		return nil
	}
	return []string{name + ".br", name + ".gz"}
}

type job struct {
	path string
	size int64
	enc  string // "br" or "gz"
}

// Dir writes twins for every compressible file under dir, replacing old
// ones. A twin that would not be smaller than its original is not written
// (and a stale one is removed): serving it would only cost bytes.
func Dir(dir string, o Options) error {
	var jobs []job
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || Twins(path) == nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		jobs = append(jobs, job{path, info.Size(), "br"}, job{path, info.Size(), "gz"})
		return nil
	})
	if err != nil {
		return err
	}
	// Biggest first, so the slow wasm brotli job overlaps all the rest.
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].size > jobs[j].size })
	return runAll(jobs, o)
}

func runAll(jobs []job, o Options) error {
	ch := make(chan job)
	errs := make(chan error, len(jobs))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				if err := twin(j, o); err != nil {
					errs <- fmt.Errorf("precompress %s (%s): %w", j.path, j.enc, err)
				}
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
	close(errs)
	return <-errs // nil when the channel is empty
}

func twin(j job, o Options) error {
	src, err := os.ReadFile(j.path)
	if err != nil {
		return err
	}
	var out []byte
	if j.enc == "br" {
		out, err = Brotli(src, o.quality(j.size))
	} else {
		out, err = Gzip(src)
	}
	if err != nil {
		return err
	}
	dst := j.path + "." + j.enc
	if len(out) >= len(src) {
		if err := os.Remove(dst); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	return os.WriteFile(dst, out, 0o644)
}

// Brotli compresses b at the given quality. Inputs over the default 4 MiB
// window get a 16 MiB one, so the whole wasm is one back-reference space.
func Brotli(b []byte, quality int) ([]byte, error) {
	lgwin := 22
	if len(b) > 1<<22 {
		lgwin = 24
	}
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: quality, LGWin: lgwin})
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Gzip compresses b at best compression with an empty header (no name, no
// mtime), so the output depends on the content alone.
func Gzip(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
