// Package wasmsize says where the bytes of a Go wasm go: it reads a
// module's sections and the sizes of its function bodies, names each body
// from the name section, and adds them up by Go package. Go's linker
// writes the name section unless it links with -s, so the breakdown reads a
// copy linked with -w only: the same code and data as the shipped wasm.
package wasmsize

import (
	"errors"
	"fmt"
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
	if len(b) < 8 || string(b[:4]) != "\x00asm" || string(b[4:8]) != "\x01\x00\x00\x00" {
		return m, errors.New("not a wasm module (version 1)")
	}
	r := &reader{b: b, off: 8}
	imported := 0
	var bodies []int
	names := map[int]string{}
	for r.off < len(r.b) {
		id := r.byte()
		size := r.uleb()
		if r.err != nil || size > uint64(len(r.b)-r.off) {
			return m, fmt.Errorf("section at offset %d: truncated", r.off)
		}
		payload := &reader{b: r.b[:r.off+int(size)], off: r.off}
		r.off += int(size)
		s := Section{ID: id, Name: standardNames[id], Size: int(size)}
		var err error
		switch id {
		case 0:
			s.Name = payload.name()
			if s.Name == "name" {
				err = readNames(payload, names)
			}
		case 2:
			imported, err = countFuncImports(payload)
		case 10:
			bodies, err = readBodies(payload)
		}
		if err == nil {
			err = payload.err
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
func countFuncImports(r *reader) (int, error) {
	n := 0
	for range r.count() {
		r.name()
		r.name()
		switch kind := r.byte(); kind {
		case 0: // func: type index
			r.uleb()
			n++
		case 1: // table: reftype, limits
			r.byte()
			r.limits()
		case 2: // memory: limits
			r.limits()
		case 3: // global: valtype, mutability
			r.byte()
			r.byte()
		default:
			return 0, fmt.Errorf("import kind %d", kind)
		}
		if r.err != nil {
			return 0, r.err
		}
	}
	return n, r.err
}

func readBodies(r *reader) ([]int, error) {
	n := r.count()
	sizes := make([]int, 0, n)
	for range n {
		start := r.off
		size := r.uleb()
		if r.err != nil || size > uint64(len(r.b)-r.off) {
			return nil, errors.New("truncated function body")
		}
		r.off += int(size)
		sizes = append(sizes, r.off-start)
	}
	return sizes, r.err
}

// readNames reads the function-name subsection (id 1) into names.
func readNames(r *reader, names map[int]string) error {
	for r.off < len(r.b) && r.err == nil {
		id := r.byte()
		size := r.uleb()
		if r.err != nil || size > uint64(len(r.b)-r.off) {
			return errors.New("truncated name subsection")
		}
		end := r.off + int(size)
		if id == 1 {
			sub := &reader{b: r.b[:end], off: r.off}
			for range sub.count() {
				idx := sub.uleb()
				names[int(idx)] = sub.name()
			}
			if sub.err != nil {
				return sub.err
			}
		}
		r.off = end
	}
	return r.err
}
