package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const twoMooncake = `{"timestamp": 0, "input_length": 1, "output_length": 1}
{"timestamp": 0, "input_length": 2, "output_length": 1}
`

func TestEveryRequestItsOwnTenant(t *testing.T) {
	rd, got := readAll(t, twoMooncake, Tenancy{})
	assert.Equal(t, "line 1", got[0].Tenant)
	assert.Equal(t, "line 2", got[1].Tenant)
	assert.Equal(t, []string{Tenancy{}.Note(), rd.Notes()[1]}, rd.Notes())
	assert.Contains(t, rd.Notes()[1], "hash_ids")
}

func TestHashedTenants(t *testing.T) {
	var b strings.Builder
	for range 1000 {
		b.WriteString(`{"timestamp": 0, "input_length": 1, "output_length": 1}` + "\n")
	}
	ten := Tenancy{Tenants: 4, Seed: 7}
	_, got := readAll(t, b.String(), ten)
	counts := map[string]int{}
	for _, q := range got {
		counts[q.Tenant]++
	}
	require.Len(t, counts, 4)
	for i := 1; i <= 4; i++ {
		assert.InDelta(t, 250, counts[fmt.Sprint("tenant ", i)], 60, "a fair share each")
	}
	_, again := readAll(t, b.String(), ten)
	assert.Equal(t, got, again, "the same seed gives the same tenants")
	_, other := readAll(t, b.String(), Tenancy{Tenants: 4, Seed: 8})
	assert.NotEqual(t, got, other, "another seed gives others")
	assert.Equal(t, `The log names no tenant, so each request is given one of 4 tenants ("tenant 1" to "tenant 4") by a hash of its line number and the seed 7: the same log, number and seed give the same tenants. This is an assumption, not who sent them.`, ten.Note())
}

func TestTenancyChecked(t *testing.T) {
	for _, n := range []int{-1, MaxHashedTenants + 1} {
		_, err := NewReader(strings.NewReader(twoMooncake), Tenancy{Tenants: n})
		assert.ErrorContains(t, err, "must be between 1 and 1,000,000, or 0 for every request its own tenant")
	}
}

// A log of ours that names its tenants needs no note; one that leaves some
// out says how many.
func TestTenantNotes(t *testing.T) {
	rd, _ := readAll(t, "t,tenant,prompt_tokens,output_tokens\n0,A,1,1\n", Tenancy{})
	assert.Empty(t, rd.Notes())

	rd, got := readAll(t, `{"t": 0, "tenant": "A", "prompt_tokens": 1, "output_tokens": 1}
{"t": 0, "prompt_tokens": 1, "output_tokens": 1}
{"t": 0, "tenant": "", "prompt_tokens": 1, "output_tokens": 1}
`, Tenancy{Tenants: 1})
	assert.Equal(t, []string{"A", "tenant 1", "tenant 1"}, []string{got[0].Tenant, got[1].Tenant, got[2].Tenant})
	assert.Equal(t, []string{Tenancy{Tenants: 1}.Note(), "2 of 3 requests named no tenant."}, rd.Notes())

	rd, _ = readAll(t, "t,prompt_tokens,output_tokens\n0,1,1\n", Tenancy{})
	assert.Equal(t, []string{Tenancy{}.Note()}, rd.Notes())
}
