package wasmsize

// A hand-assembled module, so the tests know every byte.

func uleb(v int) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func vec(items ...[]byte) []byte {
	out := uleb(len(items))
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}

func str(s string) []byte { return append(uleb(len(s)), s...) }

func section(id byte, payload []byte) []byte {
	return append(append([]byte{id}, uleb(len(payload))...), payload...)
}

func custom(name string, payload []byte) []byte { return section(0, append(str(name), payload...)) }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// body is a function body of n bytes after its size prefix.
func body(n int) []byte { return append(uleb(n), make([]byte, n)...) }

type named struct {
	idx  int
	name string
}

func nameSection(fns ...named) []byte {
	entries := make([][]byte, len(fns))
	for i, f := range fns {
		entries[i] = append(uleb(f.idx), str(f.name)...)
	}
	sub := vec(entries...)
	return custom("name", cat([]byte{1}, uleb(len(sub)), sub))
}

// testModule imports two functions and a memory, then defines bodies of
// the given sizes; names are for indexes 2.. (after the imports).
func testModule(names []string, sizes ...int) []byte {
	imports := vec(
		cat(str("gojs"), str("runtime.wasmExit"), []byte{0}, uleb(0)),
		cat(str("env"), str("mem"), []byte{2, 0}, uleb(1)),
		cat(str("gojs"), str("runtime.nanotime1"), []byte{0}, uleb(0)),
	)
	bodies := make([][]byte, len(sizes))
	for i, n := range sizes {
		bodies[i] = body(n)
	}
	var fns []named
	for i, n := range names {
		if n != "" {
			fns = append(fns, named{2 + i, n})
		}
	}
	return cat([]byte("\x00asm\x01\x00\x00\x00"),
		custom("go:buildid", []byte("x")),
		section(2, imports),
		section(10, vec(bodies...)),
		section(11, make([]byte, 300)),
		nameSection(fns...),
	)
}
