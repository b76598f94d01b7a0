package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validBase is a mid-sized valid config that each case below bends one
// field of: 65,536 pages of 16 tokens on each server.
func validBase() Config {
	return Config{
		ContextTokens: 1024, PoolTokens: 1 << 20, DecodePoolTokens: 1 << 20, PageTokens: 16,
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
		{"pool min", func(c *Config) { c.PoolTokens, c.PageTokens = 1, 1 }, "", ""},
		{"pool max", func(c *Config) { c.PoolTokens = MaxPoolTokens }, "", ""},
		{"pool max+1", func(c *Config) { c.PoolTokens = MaxPoolTokens + 1 }, "pool", "between 1 and 4,194,304 tokens"},
		{"pool huge", func(c *Config) { c.PoolTokens = huge }, "pool", "between 1 and 4,194,304 tokens"},

		{"page zero", func(c *Config) { c.PageTokens = 0 }, "page", "between 1 and 65,536 tokens"},
		{"page negative", func(c *Config) { c.PageTokens = -1 }, "page", "between 1 and 65,536 tokens"},
		{"page min", func(c *Config) { c.PageTokens = 1 }, "", ""},
		{"page max", func(c *Config) { c.PageTokens = MaxPageTokens }, "", ""},
		{"page max+1", func(c *Config) { c.PageTokens = MaxPageTokens + 1 }, "page", "between 1 and 65,536 tokens"},
		{"page huge", func(c *Config) { c.PageTokens = huge }, "page", "between 1 and 65,536 tokens"},
		{"page equals pool", func(c *Config) { c.PoolTokens, c.DecodePoolTokens, c.PageTokens = 8, 8, 8 }, "", ""},
		{"page larger than prefill pool", func(c *Config) { c.PoolTokens, c.DecodePoolTokens, c.PageTokens = 8, 64, 9 }, "page", "between 1 and 8 tokens (at most the smaller pool)"},
		{"page larger than decode pool", func(c *Config) { c.PoolTokens, c.DecodePoolTokens, c.PageTokens = 64, 8, 9 }, "page", "between 1 and 8 tokens (at most the smaller pool)"},
		{"page equals the smaller pool", func(c *Config) { c.PoolTokens, c.DecodePoolTokens, c.PageTokens = 64, 8, 8 }, "", ""},

		{"dpool zero", func(c *Config) { c.DecodePoolTokens = 0 }, "dpool", "between 1 and 4,194,304 tokens"},
		{"dpool negative", func(c *Config) { c.DecodePoolTokens = -1 }, "dpool", "between 1 and 4,194,304 tokens"},
		{"dpool min", func(c *Config) { c.DecodePoolTokens, c.PageTokens = 1, 1 }, "", ""},
		{"dpool max", func(c *Config) { c.DecodePoolTokens = MaxPoolTokens }, "", ""},
		{"dpool max+1", func(c *Config) { c.DecodePoolTokens = MaxPoolTokens + 1 }, "dpool", "between 1 and 4,194,304 tokens"},
		{"dpool huge", func(c *Config) { c.DecodePoolTokens = huge }, "dpool", "between 1 and 4,194,304 tokens"},
		{"dpool smaller than prefill's", func(c *Config) { c.DecodePoolTokens = 1 << 10 }, "", ""},
		{"dpool not whole pages", func(c *Config) { c.DecodePoolTokens = 1<<20 + 15 }, "", ""},
		{"dpool huge with a zero pool: the pool first", func(c *Config) { c.PoolTokens, c.DecodePoolTokens = 0, huge }, "pool", "between 1 and 4,194,304 tokens"},

		// Both pools together hold at most MaxPoolPages pages (whole pages).
		{"both pools at the bound", func(c *Config) { c.PoolTokens, c.DecodePoolTokens, c.PageTokens = MaxPoolPages/2, MaxPoolPages/2, 1 }, "", ""},
		{"both pools one page over", func(c *Config) { c.PoolTokens, c.DecodePoolTokens, c.PageTokens = MaxPoolPages/2, MaxPoolPages/2+1, 1 },
			"dpool", "the two pools hold 4,194,305 pages together; at most 4,194,304"},
		{"the article's pools at page size 1", func(c *Config) {
			c.ContextTokens, c.PoolTokens, c.DecodePoolTokens, c.PageTokens = GLMContextTokens, GLMLaunchPoolTokens, 2_097_152, 1
		}, "", ""},
		{"both max pools at page size 1", func(c *Config) { c.PoolTokens, c.DecodePoolTokens, c.PageTokens = MaxPoolTokens, MaxPoolTokens, 1 },
			"dpool", "the two pools hold 8,388,608 pages together; at most 4,194,304"},
		{"both max pools at page size 2", func(c *Config) { c.PoolTokens, c.DecodePoolTokens, c.PageTokens = MaxPoolTokens, MaxPoolTokens, 2 }, "", ""},

		{"kvBytes zero", func(c *Config) { c.KVBytesPerToken = 0 }, "kvBytes", "between 1 and 1,048,576 bytes"},
		{"kvBytes negative", func(c *Config) { c.KVBytesPerToken = -1 }, "kvBytes", "between 1 and 1,048,576 bytes"},
		{"kvBytes min", func(c *Config) { c.KVBytesPerToken = 1 }, "", ""},
		{"kvBytes max", func(c *Config) { c.KVBytesPerToken = MaxKVBytesPerTok }, "", ""},
		{"kvBytes max+1", func(c *Config) { c.KVBytesPerToken = MaxKVBytesPerTok + 1 }, "kvBytes", "between 1 and 1,048,576 bytes"},
		{"kvBytes huge", func(c *Config) { c.KVBytesPerToken = huge }, "kvBytes", "between 1 and 1,048,576 bytes"},

		{"mode fixed", func(c *Config) { c.Mode = Fixed }, "", ""},
		{"mode retire-only", func(c *Config) { c.Mode = RetireOnly }, "", ""},
		{"mode length-check-only", func(c *Config) { c.Mode = LengthCheckOnly }, "", ""},
		{"mode empty", func(c *Config) { c.Mode = "" }, "mode", `must be "vulnerable", "fixed", "retire-only", "length-check-only" or "upstream"`},
		{"mode wrong case", func(c *Config) { c.Mode = "Vulnerable" }, "mode", `must be "vulnerable", "fixed", "retire-only", "length-check-only" or "upstream"`},
		{"mode bogus", func(c *Config) { c.Mode = "open" }, "mode", `must be "vulnerable", "fixed", "retire-only", "length-check-only" or "upstream"`},

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
	assert.EqualError(t, c.Validate(), "prefill pool size 5,000,000: must be between 1 and 4,194,304 tokens")
	c = validBase()
	c.DecodePoolTokens = 0
	assert.EqualError(t, c.Validate(), "decode pool size 0: must be between 1 and 4,194,304 tokens")
	c = validBase()
	c.PoolTokens, c.DecodePoolTokens, c.PageTokens = GLMLaunchPoolTokens, MaxPoolTokens, 1
	assert.EqualError(t, c.Validate(), "decode pool size 4,194,304: the two pools hold 4,875,584 pages together; at most 4,194,304")
	c = validBase()
	c.Mode = "open"
	assert.EqualError(t, c.Validate(), `admission mode "open": must be "vulnerable", "fixed", "retire-only", "length-check-only" or "upstream"`)
}

func TestConfigRealScaleIsValid(t *testing.T) {
	cases := map[string]Config{
		"both pools at the bound, page 1": {
			ContextTokens: GLMContextTokens, PoolTokens: MaxPoolPages - 2_097_152, DecodePoolTokens: 2_097_152, PageTokens: 1,
			Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: DefaultKVBytesTok,
		},
		"launch": {
			ContextTokens: GLMContextTokens, PoolTokens: GLMLaunchPoolTokens, DecodePoolTokens: GLMDecodePoolTokens, PageTokens: 1,
			Mode: Vulnerable, Cancel: CancelOneHalf, KVBytesPerToken: DefaultKVBytesTok,
		},
		"remediated": {
			ContextTokens: GLMContextTokens, PoolTokens: GLMFixedPoolTokens, DecodePoolTokens: GLMDecodePoolTokens, PageTokens: 1,
			Mode: Fixed, Cancel: CancelBoth, KVBytesPerToken: DefaultKVBytesTok,
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, c.Validate())
			assert.Equal(t, c.PoolTokens, c.PagesOf(ServerPrefill))
			assert.Equal(t, c.DecodePoolTokens, c.PagesOf(ServerDecode))
		})
	}
	e, err := New(cases["both pools at the bound, page 1"])
	require.NoError(t, err)
	m := e.Metrics()
	assert.Equal(t, PoolMetrics{Total: 2_097_152, Free: 2_097_152}, m.Prefill)
	assert.Equal(t, PoolMetrics{Total: 2_097_152, Free: 2_097_152}, m.Decode)
}

func TestNewRejectsBadConfig(t *testing.T) {
	c := DemoConfig()
	c.DecodePoolTokens = 0
	e, err := New(c)
	assert.Nil(t, e)
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "dpool", ce.Field)

	e, err = Replay(c, nil)
	assert.Nil(t, e)
	require.ErrorAs(t, err, &ce)
}

func TestNewKeepsConfig(t *testing.T) {
	c := DemoConfig()
	e := newEngine(t, c)
	assert.Equal(t, c, e.Config())
	assert.Equal(t, 8, c.PagesOf(ServerPrefill))
	assert.Equal(t, 10, c.PagesOf(ServerDecode))
	assert.Equal(t, []int{128, 160}, []int{c.PoolTokensOf(ServerPrefill), c.PoolTokensOf(ServerDecode)})
	assert.Equal(t, 2, Config{PoolTokens: 10, PageTokens: 4}.PagesOf(ServerPrefill), "a partial page is not a page")
	assert.Equal(t, 3, Config{DecodePoolTokens: 15, PageTokens: 4}.PagesOf(ServerDecode))
	m := e.Metrics()
	assert.Equal(t, []int{8, 10}, []int{m.Prefill.Total, m.Decode.Total})
}
