package benchkit

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// PrivateDirty reads the Private_Dirty line of a Linux smaps_rollup (or
// the sum over a full smaps) and returns it in bytes: the memory only that
// process wrote, which is what a renderer costs the machine (shared
// libraries and clean file pages are left out).
func PrivateDirty(r io.Reader) (int64, error) {
	var total int64
	found := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "Private_Dirty:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("unexpected Private_Dirty line %q", sc.Text())
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("unexpected Private_Dirty line %q: %w", sc.Text(), err)
		}
		total += kb * 1024
		found = true
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if !found {
		return 0, fmt.Errorf("no Private_Dirty line")
	}
	return total, nil
}
