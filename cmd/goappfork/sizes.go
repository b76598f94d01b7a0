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

// writeSizes prints each wasm's brotli bytes, as the site ships them, and
// the difference from the first's: with wasms[0] the shipped wasm and the
// rest linked without one edit each, what each edit buys.
func writeSizes(w io.Writer, wasms []string) error {
	sizes := make([]int, len(wasms))
	errs := make([]error, len(wasms))
	var wg sync.WaitGroup
	for i, name := range wasms {
		wg.Go(func() { sizes[i], errs[i] = brotliSize(name) })
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

// brotliSize is the length of name's brotli twin, as the site writes it.
func brotliSize(name string) (int, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return 0, err
	}
	br, err := precompress.Brotli(data, brotliQuality)
	return len(br), err
}
