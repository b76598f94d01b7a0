// Command wasmmerge writes a Go wasm with its data segments joined (see
// internal/wasmdata): the build's step between the linker and the site.
//
//	wasmmerge -in build/app.linked.wasm -out build/app.wasm
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"kvleak/internal/wasmdata"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wasmmerge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "the wasm the linker wrote")
	out := fs.String("out", "", "where to write the merged wasm (not the same file)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := check(*in, *out, fs.NArg()); err != nil {
		fmt.Fprintf(stderr, "wasmmerge: %v (see wasmmerge -h)\n", err)
		return 2
	}
	st, sizes, err := merge(*in, *out)
	if err != nil {
		fmt.Fprintf(stderr, "wasmmerge: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wasmmerge: %s: %d data segments -> %d (%d zero bytes written back), %d -> %d bytes\n",
		*out, st.Before, st.After, st.ZerosAdded, sizes[0], sizes[1])
	return 0
}

func check(in, out string, extra int) error {
	switch {
	case extra > 0:
		return errors.New("unexpected arguments: flags only")
	case in == "" || out == "":
		return errors.New("-in and -out are both needed")
	case filepath.Clean(in) == filepath.Clean(out):
		return errors.New("-out must not be -in: the linker's wasm is the input of the next run")
	}
	return nil
}

// merge writes out through a temporary file, so a failed run leaves no
// half-written wasm where make would take it for a finished one.
func merge(in, out string) (wasmdata.Stats, [2]int, error) {
	src, err := os.ReadFile(in)
	if err != nil {
		return wasmdata.Stats{}, [2]int{}, err
	}
	dst, st, err := wasmdata.Merge(src)
	if err != nil {
		return st, [2]int{}, fmt.Errorf("%s: %w", in, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".wasmmerge-*")
	if err != nil {
		return st, [2]int{}, err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(dst); err != nil {
		tmp.Close()
		return st, [2]int{}, err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return st, [2]int{}, err
	}
	if err := tmp.Close(); err != nil {
		return st, [2]int{}, err
	}
	return st, [2]int{len(src), len(dst)}, os.Rename(tmp.Name(), out)
}
