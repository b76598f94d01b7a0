// Command wasmsize prints where the bytes of the shipped wasm go, by Go
// module and package (make wasm-size), and writes the same table to -out
// so the next change can be compared with diff. With -brotli it prints the
// brotli size of each wasm file given instead (make fork-sizes).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"kvleak/internal/wasmsize"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wasmsize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	named := fs.String("wasm", "build/app-names.wasm", "the wasm linked with -w only: it has the name section")
	shipped := fs.String("shipped", "build/app.wasm", "the wasm the site serves (linked with -s -w)")
	pkgs := fs.String("pkgs", "build/wasm-pkgs.txt", "go list -deps output: \"path [module]\" per line")
	out := fs.String("out", "build/wasm-size.txt", "where to write the table as well")
	brotli := fs.Bool("brotli", false, "print the brotli bytes of each wasm file given as an argument, and how many more than the first's")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *brotli {
		if err := writeBrotli(stdout, fs.Args()); err != nil {
			fmt.Fprintf(stderr, "wasmsize: %v\n", err)
			return 1
		}
		return 0
	}
	var table bytes.Buffer
	if err := report(*named, *shipped, *pkgs, &table); err != nil {
		fmt.Fprintf(stderr, "wasmsize: %v\n", err)
		return 1
	}
	if err := os.WriteFile(*out, table.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "wasmsize: %v\n", err)
		return 1
	}
	stdout.Write(table.Bytes())
	return 0
}

func report(named, shipped, pkgList string, w io.Writer) error {
	m, err := parseFile(named)
	if err != nil {
		return err
	}
	if m.SectionSize("name") == 0 {
		return fmt.Errorf("%s has no name section: link it without -s", named)
	}
	s, err := parseFile(shipped)
	if err != nil {
		return err
	}
	// Only the name section may differ, or the table is of another build.
	for _, sec := range []string{"code", "data"} {
		if a, b := m.SectionSize(sec), s.SectionSize(sec); a != b {
			return fmt.Errorf("%s's %s section is %d bytes, %s's %d: not the same build", named, sec, a, shipped, b)
		}
	}
	f, err := os.Open(pkgList)
	if err != nil {
		return err
	}
	defer f.Close()
	pkgs, err := wasmsize.ParsePackages(f)
	if err != nil {
		return fmt.Errorf("%s: %w", pkgList, err)
	}
	fi, err := os.Stat(shipped)
	if err != nil {
		return err
	}
	rows := wasmsize.ByPackage(m, pkgs)
	return wasmsize.Report{Shipped: shipped, Size: int(fi.Size()), Module: m,
		Modules: wasmsize.ByModule(rows, pkgs), Packages: rows}.Write(w)
}

func parseFile(name string) (wasmsize.Module, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return wasmsize.Module{}, err
	}
	m, err := wasmsize.Parse(b)
	if err != nil {
		return m, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}
