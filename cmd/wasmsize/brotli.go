package main

import (
	"fmt"
	"io"
	"os"
	"sync"

	"kvleak/internal/precompress"
)

// brotliQuality is the shipped wasm's (make site's BROTLI_Q).
const brotliQuality = 11

// writeBrotli prints each wasm's brotli bytes, as the site ships them, and
// the difference from the first's: with wasms[0] the shipped wasm and the
// rest linked without one patch of go-app each, what each patch buys (make
// fork-sizes).
func writeBrotli(w io.Writer, wasms []string) error {
	if len(wasms) == 0 {
		return fmt.Errorf("-brotli: no wasm file given")
	}
	sizes := make([]int, len(wasms))
	errs := make([]error, len(wasms))
	var wg sync.WaitGroup
	for i, name := range wasms {
		wg.Go(func() {
			data, err := os.ReadFile(name)
			if err == nil {
				data, err = precompress.Brotli(data, brotliQuality)
			}
			sizes[i], errs[i] = len(data), err
		})
	}
	wg.Wait()
	for i, name := range wasms {
		if errs[i] != nil {
			return errs[i]
		}
		if i == 0 {
			fmt.Fprintf(w, "%-36s %10d B brotli\n", name, sizes[0])
		} else {
			fmt.Fprintf(w, "%-36s %10d B brotli, %+d B\n", name, sizes[i], sizes[i]-sizes[0])
		}
	}
	return nil
}
