package wasmsize

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// ParsePackages reads `go list -deps -f '{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}'`:
// one package a line, its module after a space (none for the standard library).
func ParsePackages(r io.Reader) ([]Package, error) {
	var out []Package
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		switch len(f) {
		case 0:
			continue
		case 1:
			out = append(out, Package{Path: f[0]})
		case 2:
			out = append(out, Package{Path: f[0], Module: f[1]})
		default:
			return nil, fmt.Errorf("package list line %d: %q is not \"path [module]\"", n, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("package list is empty")
	}
	return out, nil
}

// Report is what the table shows.
type Report struct {
	Shipped  string // the wasm the site serves, and its size
	Size     int
	Module   Module // parsed from the copy linked with names
	Modules  []Row
	Packages []Row
}

// Write prints the sections, then the modules, then every package. Plain
// text with fixed columns, so two reports compare with diff.
func (r Report) Write(w io.Writer) error {
	code := r.Module.SectionSize("code")
	fmt.Fprintf(w, "%s: %d bytes raw. Function bodies by Go package, from the name section\n", r.Shipped, r.Size)
	fmt.Fprintf(w, "of a copy linked with -w instead of -s -w (same code and data).\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "section\tbytes\tshare\t\n")
	for _, s := range r.Module.Sections {
		if s.Name == "name" {
			continue // not in the shipped wasm
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", s.Name, s.Size, pct(s.Size, r.Size))
	}
	tw.Flush()
	for _, t := range []struct {
		title string
		rows  []Row
	}{{"module", r.Modules}, {"package", r.Packages}} {
		fmt.Fprintf(w, "\n%s (share of the function bodies; code section %d bytes)\n", t.title, code)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "bytes\tshare\tfuncs\t  %s\n", t.title)
		for _, row := range t.rows {
			fmt.Fprintf(tw, "%d\t%.1f%%\t%d\t  %s\n", row.Bytes, row.Share*100, row.Funcs, row.Name)
		}
		tw.Flush()
	}
	return nil
}

func pct(part, whole int) string {
	if whole == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}
