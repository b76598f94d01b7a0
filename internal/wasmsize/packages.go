package wasmsize

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Package is a Go package the wasm links, with the module it belongs to
// ("" for the standard library).
type Package struct {
	Path, Module string
}

// Row is one line of the breakdown: the function bodies of one package (or
// module), in bytes and as a share of all function bodies.
type Row struct {
	Name  string
	Bytes int
	Share float64
	Funcs int
}

// Names the linker gives no package; they get rows of their own.
const (
	Unnamed  = "(no name)"       // the module has no name section
	Unmapped = "(not a package)" // runtime assembly, wasm helpers, the build id
)

// mangle is what Go's wasm linker does to a symbol name before it writes
// it to the name section (cmd/link/internal/wasm: nameRegexp): every
// character other than a letter, digit, '_' or '.' becomes '_', so
// "kvleak/web.(*page).Render" is written "kvleak_web.__page_.Render".
var unsafeName = regexp.MustCompile(`[^\w.]`)

func mangle(s string) string { return unsafeName.ReplaceAllString(s, "_") }

// generated are prefixes of the functions the compiler writes for a type
// (equality and hashing); they belong to the type's package.
var generated = []string{"type_.eq.", "type_.hash."}

// packageOf returns the package whose mangled path is the longest prefix of
// name followed by '.', or "" for none. byMangled maps mangled paths back.
func packageOf(name string, mangled []string, byMangled map[string]string) string {
	for _, g := range generated {
		name = strings.TrimPrefix(name, g)
	}
	for _, m := range mangled { // longest first
		if len(name) > len(m) && name[len(m)] == '.' && strings.HasPrefix(name, m) {
			return byMangled[m]
		}
	}
	return ""
}

// ByPackage adds the function bodies up by package, largest first (ties by
// name); functions no package claims are in Unnamed or Unmapped.
func ByPackage(m Module, pkgs []Package) []Row {
	byMangled := map[string]string{}
	mangled := make([]string, 0, len(pkgs))
	for _, p := range pkgs {
		k := mangle(p.Path)
		if _, dup := byMangled[k]; !dup {
			mangled = append(mangled, k)
		}
		byMangled[k] = p.Path
	}
	slices.SortFunc(mangled, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	in := make([]Row, len(m.Funcs))
	for i, f := range m.Funcs {
		name := Unnamed
		if f.Name != "" {
			name = cmp.Or(packageOf(f.Name, mangled, byMangled), Unmapped)
		}
		in[i] = Row{Name: name, Bytes: f.Size, Funcs: 1}
	}
	return merge(in)
}

// ByModule rolls package rows up by module: "std" for the standard
// library, the module path otherwise; Unnamed and Unmapped stay as they are.
func ByModule(pkgRows []Row, pkgs []Package) []Row {
	module := map[string]string{}
	for _, p := range pkgs {
		module[p.Path] = cmp.Or(p.Module, "std")
	}
	in := make([]Row, len(pkgRows))
	for i, r := range pkgRows {
		in[i] = Row{Name: cmp.Or(module[r.Name], r.Name), Bytes: r.Bytes, Funcs: r.Funcs}
	}
	return merge(in)
}

// merge adds up rows of the same name and computes the shares; largest
// first, ties by name, so the table is the same for the same wasm.
func merge(in []Row) []Row {
	idx := map[string]int{}
	var out []Row
	total := 0
	for _, r := range in {
		i, ok := idx[r.Name]
		if !ok {
			i = len(out)
			idx[r.Name] = i
			out = append(out, Row{Name: r.Name})
		}
		out[i].Bytes += r.Bytes
		out[i].Funcs += r.Funcs
		total += r.Bytes
	}
	for i := range out {
		if total > 0 {
			out[i].Share = float64(out[i].Bytes) / float64(total)
		}
	}
	slices.SortFunc(out, func(a, b Row) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.Name, b.Name))
	})
	return out
}
