package benchkit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrivateDirty(t *testing.T) {
	rollup := `55d0c0a0e000-7ffd2a5f1000 ---p 00000000 00:00 0                          [rollup]
Rss:              301236 kB
Pss:              151803 kB
Shared_Dirty:       1024 kB
Private_Clean:     10788 kB
Private_Dirty:     88236 kB
Swap:                  0 kB
`
	got, err := PrivateDirty(strings.NewReader(rollup))
	require.NoError(t, err)
	assert.Equal(t, int64(88236*1024), got, "Private_Dirty only, in bytes")

	got, err = PrivateDirty(strings.NewReader("Private_Dirty: 4 kB\nRss: 9 kB\nPrivate_Dirty: 8 kB\n"))
	require.NoError(t, err)
	assert.Equal(t, int64(12*1024), got, "a full smaps sums its mappings")

	for _, bad := range []string{"Rss: 4 kB\n", "Private_Dirty: 4 MB\n", "Private_Dirty: x kB\n", ""} {
		_, err := PrivateDirty(strings.NewReader(bad))
		assert.Error(t, err, "%q", bad)
	}
}
