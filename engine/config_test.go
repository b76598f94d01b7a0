package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validBase is a mid-sized valid config that each case below bends one
// field of: 65,536 pages of 16 tokens.
func validBase() Config {
	return Config{
		ContextTokens: 1024, PoolTokens: 1 << 20, PageTokens: 16, SlotPages: 8,
		Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: DefaultKVBytesTok,
	}
}

func TestConfigValidate(t *testing.T) {
	const huge = 1 << 62
	cases := []struct {
		name  string
		edit  func(c *Config)
		field string // "" when valid
		rule  string // part of the message naming the allowed range
	}{
		{"base", func(c *Config) {}, "", ""},
		{"demo", func(c *Config) { *c = DemoConfig() }, "", ""},

		{"context zero", func(c *Config) { c.ContextTokens = 0 }, "context", "between 1 and 16,777,216 tokens"},
		{"context negative", func(c *Config) { c.ContextTokens = -1 }, "context", "between 1 and 16,777,216 tokens"},
		{"context min", func(c *Config) { c.ContextTokens = 1 }, "", ""},
		{"context max", func(c *Config) { c.ContextTokens = MaxContextTokens }, "", ""},
		{"context max+1", func(c *Config) { c.ContextTokens = MaxContextTokens + 1 }, "context", "between 1 and 16,777,216 tokens"},
		{"context huge", func(c *Config) { c.ContextTokens = huge }, "context", "between 1 and 16,777,216 tokens"},
		{"context huge negative", func(c *Config) { c.ContextTokens = -huge }, "context", "between 1 and 16,777,216 tokens"},

		{"pool zero", func(c *Config) { c.PoolTokens = 0 }, "pool", "between 1 and 4,194,304 tokens"},
		{"pool negative", func(c *Config) { c.PoolTokens = -1 }, "pool", "between 1 and 4,194,304 tokens"},
		{"pool min", func(c *Config) { c.PoolTokens, c.PageTokens, c.SlotPages = 1, 1, 1 }, "", ""},
		{"pool max", func(c *Config) { c.PoolTokens = MaxPoolTokens }, "", ""},
		{"pool max+1", func(c *Config) { c.PoolTokens = MaxPoolTokens + 1 }, "pool", "between 1 and 4,194,304 tokens"},
		{"pool huge", func(c *Config) { c.PoolTokens = huge }, "pool", "between 1 and 4,194,304 tokens"},

		{"page zero", func(c *Config) { c.PageTokens = 0 }, "page", "between 1 and 65,536 tokens"},
		{"page negative", func(c *Config) { c.PageTokens = -1 }, "page", "between 1 and 65,536 tokens"},
		{"page min", func(c *Config) { c.PageTokens = 1 }, "", ""},
		{"page max", func(c *Config) { c.PageTokens = MaxPageTokens }, "", ""},
		{"page max+1", func(c *Config) { c.PageTokens = MaxPageTokens + 1 }, "page", "between 1 and 65,536 tokens"},
		{"page huge", func(c *Config) { c.PageTokens = huge }, "page", "between 1 and 65,536 tokens"},
		{"page equals pool", func(c *Config) { c.PoolTokens, c.PageTokens, c.SlotPages = 8, 8, 1 }, "", ""},
		{"page larger than pool", func(c *Config) { c.PoolTokens, c.PageTokens, c.SlotPages = 8, 9, 1 }, "page", "between 1 and 8 tokens (at most the pool size)"},

		{"slot zero", func(c *Config) { c.SlotPages = 0 }, "slot", "between 1 and 1,024 pages"},
		{"slot negative", func(c *Config) { c.SlotPages = -1 }, "slot", "between 1 and 1,024 pages"},
		{"slot min", func(c *Config) { c.SlotPages = 1 }, "", ""},
		{"slot max", func(c *Config) { c.SlotPages = MaxSlotPages }, "", ""},
		{"slot max+1", func(c *Config) { c.SlotPages = MaxSlotPages + 1 }, "slot", "between 1 and 1,024 pages"},
		{"slot huge", func(c *Config) { c.SlotPages = huge }, "slot", "between 1 and 1,024 pages"},
		{"slot equals pool pages", func(c *Config) { c.PoolTokens, c.PageTokens, c.SlotPages = 64, 16, 4 }, "", ""},
		{"slot larger than pool pages", func(c *Config) { c.PoolTokens, c.PageTokens, c.SlotPages = 64, 16, 5 }, "slot", "between 1 and 4 pages (at most the pages in the pool)"},
		{"slot larger than demo pool", func(c *Config) { *c = DemoConfig(); c.SlotPages = 9 }, "slot", "between 1 and 8 pages"},

		{"kvBytes zero", func(c *Config) { c.KVBytesPerToken = 0 }, "kvBytes", "between 1 and 1,048,576 bytes"},
		{"kvBytes negative", func(c *Config) { c.KVBytesPerToken = -1 }, "kvBytes", "between 1 and 1,048,576 bytes"},
		{"kvBytes min", func(c *Config) { c.KVBytesPerToken = 1 }, "", ""},
		{"kvBytes max", func(c *Config) { c.KVBytesPerToken = MaxKVBytesPerTok }, "", ""},
		{"kvBytes max+1", func(c *Config) { c.KVBytesPerToken = MaxKVBytesPerTok + 1 }, "kvBytes", "between 1 and 1,048,576 bytes"},
		{"kvBytes huge", func(c *Config) { c.KVBytesPerToken = huge }, "kvBytes", "between 1 and 1,048,576 bytes"},

		{"mode fixed", func(c *Config) { c.Mode = Fixed }, "", ""},
		{"mode retire-only", func(c *Config) { c.Mode = RetireOnly }, "", ""},
		{"mode length-check-only", func(c *Config) { c.Mode = LengthCheckOnly }, "", ""},
		{"mode empty", func(c *Config) { c.Mode = "" }, "mode", `must be "vulnerable", "fixed", "retire-only" or "length-check-only"`},
		{"mode wrong case", func(c *Config) { c.Mode = "Vulnerable" }, "mode", `must be "vulnerable", "fixed", "retire-only" or "length-check-only"`},
		{"mode bogus", func(c *Config) { c.Mode = "open" }, "mode", `must be "vulnerable", "fixed", "retire-only" or "length-check-only"`},

		{"alloc empty means sorted", func(c *Config) { c.Allocator = "" }, "", ""},
		{"alloc sorted", func(c *Config) { c.Allocator = Sorted }, "", ""},
		{"alloc lifo", func(c *Config) { c.Allocator = LIFO }, "", ""},
		{"alloc fifo", func(c *Config) { c.Allocator = FIFO }, "", ""},
		{"alloc wrong case", func(c *Config) { c.Allocator = "LIFO" }, "alloc", `must be "sorted", "lifo" or "fifo"`},
		{"alloc bogus", func(c *Config) { c.Allocator = "buddy" }, "alloc", `must be "sorted", "lifo" or "fifo"`},

		{"cancel one", func(c *Config) { c.Cancel = CancelOneHalf }, "", ""},
		{"cancel empty", func(c *Config) { c.Cancel = "" }, "cancel", `must be "both" or "one"`},
		{"cancel padded", func(c *Config) { c.Cancel = "both " }, "cancel", `must be "both" or "one"`},
		{"cancel bogus", func(c *Config) { c.Cancel = "prefill" }, "cancel", `must be "both" or "one"`},

		{"first bad field wins", func(c *Config) { c.ContextTokens, c.PoolTokens, c.Mode = 0, 0, "" }, "context", "between 1 and"},
		{"scrub does not matter", func(c *Config) { c.ScrubOnFree = true }, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := validBase()
			tc.edit(&c)
			err := c.Validate()
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			var ce *ConfigError
			require.True(t, errors.As(err, &ce), "want a *ConfigError, got %T", err)
			assert.Equal(t, tc.field, ce.Field)
			assert.Contains(t, ce.Rule, tc.rule)
			assert.Contains(t, err.Error(), tc.rule, "the message includes the range")
			assert.Contains(t, err.Error(), fieldLabel[tc.field], "the message names the field")
			assert.Contains(t, err.Error(), ce.Value, "the message shows the value")
		})
	}
}

func TestConfigErrorMessage(t *testing.T) {
	c := validBase()
	c.PoolTokens = 5_000_000
	assert.EqualError(t, c.Validate(), "pool size 5,000,000: must be between 1 and 4,194,304 tokens")
	c = validBase()
	c.Mode = "open"
	assert.EqualError(t, c.Validate(), `admission mode "open": must be "vulnerable", "fixed", "retire-only" or "length-check-only"`)
}

func TestConfigRealScaleIsValid(t *testing.T) {
	cases := map[string]Config{
		"max pool, page 1": {
			ContextTokens: GLMContextTokens, PoolTokens: MaxPoolTokens, PageTokens: 1, SlotPages: DefaultSlotPages,
			Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: DefaultKVBytesTok,
		},
		"launch": {
			ContextTokens: GLMContextTokens, PoolTokens: GLMLaunchPoolTokens, PageTokens: 1, SlotPages: DefaultSlotPages,
			Mode: Vulnerable, Cancel: CancelOneHalf, KVBytesPerToken: DefaultKVBytesTok,
		},
		"remediated": {
			ContextTokens: GLMContextTokens, PoolTokens: GLMFixedPoolTokens, PageTokens: 1, SlotPages: DefaultSlotPages,
			Mode: Fixed, Cancel: CancelBoth, KVBytesPerToken: DefaultKVBytesTok,
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, c.Validate())
			assert.Equal(t, c.PoolTokens, c.PoolPages())
		})
	}
	e, err := New(cases["max pool, page 1"])
	require.NoError(t, err)
	m := e.Metrics()
	assert.Equal(t, MaxPoolPages, m.PagesTotal)
	assert.Equal(t, MaxPoolPages, m.PagesFree)
}

func TestNewRejectsBadConfig(t *testing.T) {
	c := DemoConfig()
	c.SlotPages = 0
	e, err := New(c)
	assert.Nil(t, e)
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "slot", ce.Field)

	e, err = Replay(c, nil)
	assert.Nil(t, e)
	require.ErrorAs(t, err, &ce)
}

func TestNewKeepsConfig(t *testing.T) {
	c := DemoConfig()
	e := newEngine(t, c)
	assert.Equal(t, c, e.Config())
	assert.Equal(t, 8, c.PoolPages())
	assert.Equal(t, 2, Config{PoolTokens: 10, PageTokens: 4}.PoolPages(), "a partial page is not a page")
}
