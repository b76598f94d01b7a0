// Package wasmsize says where the bytes of a Go wasm go: it reads a
// module's sections and the sizes of its function bodies, names each body
// from the name section, and adds them up by Go package. Go's linker
// writes the name section unless it links with -s, so the breakdown reads a
// copy linked with -w only: the same code and data as the shipped wasm.
package wasmsize

import (
	"errors"
	"fmt"

	"kvleak/internal/wasmbin"
)

// Section is one top-level section of a module.
type Section struct {
	ID   byte
	Name string // a custom section's name, else the standard one
	Size int    // payload bytes, without the id and size prefix
}

// Module is what the breakdown needs of a wasm binary.
type Module struct {
	Sections []Section
	// Funcs are the defined functions in index order (imports excluded):
	// each body's size, size prefix included, and its name ("" without one).
	Funcs []Func
}

// Func is one function body.
type Func struct {
	Name string
	Size int
}

// SectionSize is the payload size of the first section called name, or 0.
func (m Module) SectionSize(name string) int {
	for _, s := range m.Sections {
		if s.Name == name {
			return s.Size
		}
	}
	return 0
}

var standardNames = map[byte]string{
	1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
	7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount",
}

// Parse reads a wasm binary. It checks the structure it walks and no more:
// it is a measuring tool, not a validator.
func Parse(b []byte) (Module, error) {
	var m Module
	sections, err := wasmbin.Sections(b)
	if err != nil {
		return m, err
	}
	imported := 0
	var bodies []int
	names := map[int]string{}
	for _, sec := range sections {
		payload := &wasmbin.Reader{B: sec.Payload}
		s := Section{ID: sec.ID, Name: standardNames[sec.ID], Size: len(sec.Payload)}
		var err error
		switch sec.ID {
		case 0:
			s.Name = payload.Name()
			if s.Name == "name" {
				err = readNames(payload, names)
			}
		case 2:
			imported, err = countFuncImports(payload)
		case 10:
			bodies, err = readBodies(payload)
		}
		if err == nil {
			err = payload.Err
		}
		if err != nil {
			return m, fmt.Errorf("%s section: %w", s.Name, err)
		}
		m.Sections = append(m.Sections, s)
	}
	m.Funcs = make([]Func, len(bodies))
	for i, size := range bodies {
		m.Funcs[i] = Func{Name: names[imported+i], Size: size}
	}
	return m, nil
}

// countFuncImports counts the imported functions, which come first in
// the function index space that the name section uses.
func countFuncImports(r *wasmbin.Reader) (int, error) {
	n := 0
	for range r.Count() {
		r.Name()
		r.Name()
		switch kind := r.Byte(); kind {
		case 0: // func: type index
			r.ULEB()
			n++
		case 1: // table: reftype, limits
			r.Byte()
			r.Limits()
		case 2: // memory: limits
			r.Limits()
		case 3: // global: valtype, mutability
			r.Byte()
			r.Byte()
		default:
			return 0, fmt.Errorf("import kind %d", kind)
		}
		if r.Err != nil {
			return 0, r.Err
		}
	}
	return n, r.Err
}

func readBodies(r *wasmbin.Reader) ([]int, error) {
	n := r.Count()
	sizes := make([]int, 0, n)
	for range n {
		start := r.Off
		size := r.ULEB()
		if r.Err != nil || size > uint64(len(r.B)-r.Off) {
			return nil, errors.New("truncated function body")
		}
		r.Off += int(size)
		sizes = append(sizes, r.Off-start)
	}
	return sizes, r.Err
}

// readNames reads the function-name subsection (id 1) into names.
func readNames(r *wasmbin.Reader, names map[int]string) error {
	for r.Off < len(r.B) && r.Err == nil {
		id := r.Byte()
		size := r.ULEB()
		if r.Err != nil || size > uint64(len(r.B)-r.Off) {
			return errors.New("truncated name subsection")
		}
		end := r.Off + int(size)
		if id == 1 {
			sub := &wasmbin.Reader{B: r.B[:end], Off: r.Off}
			for range sub.Count() {
				idx := sub.ULEB()
				names[int(idx)] = sub.Name()
			}
			if sub.Err != nil {
				return sub.Err
			}
		}
		r.Off = end
	}
	return r.Err
}
