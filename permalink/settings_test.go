package permalink

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// The new settings stay out of a link while at their defaults, so every
// link made before them encodes the same; set, they round-trip.
func TestExperimentKeysInLinks(t *testing.T) {
	cases := []struct {
		name string
		set  func(*engine.Config)
		keys string // the query's part for the three settings
	}{
		{"defaults", func(*engine.Config) {}, ""},
		{"gateway off is the default", func(c *engine.Config) { c.Gateway = engine.GatewayOff }, ""},
		{"door none", func(c *engine.Config) { c.Door = "none" }, "&door=none"},
		{"door set", func(c *engine.Config) { c.Door = "errored.cancelled" }, "&door=errored.cancelled"},
		{"writer check", func(c *engine.Config) { c.CheckWriter = true }, "&wcheck=1"},
		{"gateway block", func(c *engine.Config) { c.Gateway = engine.GatewayBlock }, "&gw=block"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := engine.DemoConfig()
			tc.set(&c)
			q := EncodeLink(LinkState{Config: c})
			assert.Equal(t, fmt.Sprintf("v=4&ctx=%d&pool=%d&dpool=%d&page=%d&reserve=%d&mode=vulnerable&alloc=sorted&cancel=both&scrub=0",
				c.ContextTokens, c.PoolTokens, c.DecodePoolTokens, c.PageTokens, c.ReservedDecodeTokens)+tc.keys, q)
			st, err := DecodeLink(q, nil)
			require.NoError(t, err)
			want := c
			if want.Gateway == engine.GatewayOff {
				want.Gateway = ""
			}
			assert.Equal(t, want, st.Config)
		})
	}
}

// Bad values of a setting in a link get a message.
func TestSettingsBadValues(t *testing.T) {
	for _, q := range []string{"door=finished", "door=errored.errored", "gw=maybe", "wcheck=2"} {
		_, err := DecodeLink("v=4&"+q, nil)
		assert.Error(t, err, q)
	}
}

// Every setting has its own key, and a link writes each of them at a
// value other than the default and reads it back.
func TestSettingsHaveOneKeyEach(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Settings {
		require.NotEmpty(t, s.Key())
		assert.False(t, seen[s.Key()], s.Key())
		seen[s.Key()] = true
		got, ok := settingByKey(s.Key())
		require.True(t, ok)
		assert.Equal(t, s.Key(), got.Key())
		assert.Equal(t, 1, btoi(s.Int(&engine.Config{}) != nil)+btoi(s.Flag(&engine.Config{}) != nil)+btoi(s.IsChoice()), "%s is one kind", s.Key())
	}
	assert.Empty(t, Setting{}.Key(), "the zero Setting is none")
	assert.Empty(t, Setting{}.Value(engine.DemoConfig()))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
