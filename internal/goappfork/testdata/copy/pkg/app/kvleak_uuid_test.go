package app

import (
	"testing"

	"github.com/google/uuid"
)

// Edit uuid: newUUID's formatting, checked against the module it replaces.
func TestKvleakFormatUUID(t *testing.T) {
	for _, b := range [][16]byte{{}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}} {
		s := formatUUID(b)
		u, err := uuid.Parse(s)
		if err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != s {
			t.Errorf("formatUUID(%x) = %q: %v, version %d, variant %v", b, s, err, u.Version(), u.Variant())
		}
		// Only the version and variant bits differ from the input.
		b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
		if uuid.UUID(b).String() != s {
			t.Errorf("formatUUID(%x) = %q, want %q", b, s, uuid.UUID(b).String())
		}
	}
}
