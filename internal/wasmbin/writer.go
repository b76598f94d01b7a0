package wasmbin

// AppendULEB appends v as an unsigned LEB128.
func AppendULEB(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// AppendSLEB appends v as a signed LEB128, in as few bytes as it takes.
func AppendSLEB(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// AppendSection appends a top-level section: its id, its size, its payload.
func AppendSection(b []byte, id byte, payload []byte) []byte {
	b = append(b, id)
	b = AppendULEB(b, uint64(len(payload)))
	return append(b, payload...)
}
