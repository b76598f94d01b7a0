package benchkit

import (
	"fmt"
	"math"
	"strconv"

	"kvleak/engine"
)

// Format renders a value in its unit for the table: bytes with separators
// and a decimal MB, milliseconds with one decimal (or whole above 100).
// NaN is "—".
func Format(v float64, unit string) string {
	if math.IsNaN(v) {
		return "—"
	}
	switch unit {
	case "bytes":
		s := engine.Thousands(int64(math.Round(v))) + " B"
		if math.Abs(v) >= 100_000 {
			s += fmt.Sprintf(" (%.2f MB)", v/1e6)
		}
		return s
	case "ms":
		if math.Abs(v) >= 100 {
			return fmt.Sprintf("%.0f ms", v)
		}
		return fmt.Sprintf("%.1f ms", v)
	case "ns/op":
		switch {
		case v >= 1e6:
			return fmt.Sprintf("%.2f ms/op", v/1e6)
		case v >= 1e3:
			return fmt.Sprintf("%.1f µs/op", v/1e3)
		}
		return fmt.Sprintf("%.0f ns/op", v)
	case "B/op", "allocs/op":
		return engine.Thousands(int64(math.Round(v))) + " " + unit
	case "×":
		return fmt.Sprintf("%.2f×", v)
	case "":
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " " + unit
}
