package permalink

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// The demo's link as version 3 wrote it (decode's pool 144 tokens, no
// budget, no clamp) reads as the run it was made with, as MigrateV3 says,
// and says what changed (web/model's test replays it).
func TestVersion3DemoLinkMigrates(t *testing.T) {
	const old = "v=3&preset=demo&ctx=256&pool=128&dpool=144&page=16&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&op=s,A,120,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,125,-,summarise+my+notes"
	st, err := DecodeLink(old, nil)
	require.NoError(t, err)
	made := engine.DemoConfig()
	made.DecodePoolTokens, made.ReservedDecodeTokens = 144, 0
	want, changed := engine.MigrateV3(made, st.Ops)
	assert.Equal(t, want, st.Config)
	assert.Equal(t, 0, st.Config.ReservedDecodeTokens)
	assert.Greater(t, st.Config.DecodePoolTokens, 144, "decode's pool raised so that A and B are decoded")
	assert.Empty(t, st.Preset, "today's demo keeps a reserve of 32: the link is not it")
	assert.True(t, strings.HasPrefix(st.Migrated, "This link (version 3) was made with an earlier version of the playground. "), st.Migrated)
	assert.Contains(t, st.Migrated, changed)
	assert.Contains(t, st.Migrated, "decode's pool is raised from 144 to "+engine.Thousands(int64(want.DecodePoolTokens))+" tokens")
	assert.Contains(t, st.Migrated, "this run reserves 0 tokens")
}

// Links made before version 2 keep opening, with the allocator they were
// made with; as every link made with one pool, decode gets the pool
// DecodePoolForSinglePool says and Migrated says what changed.
func TestVersion1LinksReadWithTheirAllocator(t *testing.T) {
	old := "v=1&preset=demo&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=both&scrub=0&op=s,A,8,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,12,-,summarise+my+notes"
	st, err := DecodeLink(old, nil)
	require.NoError(t, err)
	assert.Equal(t, engine.LIFO, st.Config.Allocator)
	assert.Equal(t, 16, st.Config.DecodePoolTokens, "the 16-token context, backed")
	assert.Equal(t, engine.DecodePoolForSinglePool(16, 8, 1), st.Config.DecodePoolTokens)
	assert.Empty(t, st.Preset, "the demo is another run now")
	_, changed := engine.MigrateV3(st.Config, st.Ops)
	assert.Equal(t, "This link (version 1) was made when the playground had one KV pool. Its pages-per-slot setting is gone: decode now reserves the pages of the prompt as its own intake sees it, as SGLang's DecodePreallocQueue does. Its pool is now the prefill server's; decode's pool, which it did not set, is 16 tokens — enough to back the advertised context, so every prompt the API passes reaches decode's door as before. It keeps the lifo allocator it was made with. "+changed+" Outcomes may differ from when it was made.",
		st.Migrated)
	assert.Contains(t, changed, "this run reserves 0 tokens, as it reserved none, and decode's pool stays 16 tokens")

	short, err := DecodeLink("v=1&preset=glm-launch", nil)
	require.NoError(t, err)
	assert.Empty(t, short.Migrated, "a preset by name is today's preset")
	assert.Equal(t, engine.Sorted, short.Config.Allocator)
}

// A version 2 link, made with one pool and pages per slot, reads: slot is
// dropped, decode gets a pool that backs the context, and Migrated names
// both.
func TestVersion2LinksReadWithANotice(t *testing.T) {
	// The demo as version 2 wrote it, B's 200 tokens in an 8-page slot.
	old := "v=2&preset=demo&ctx=256&pool=128&page=16&slot=8&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&op=s,A,120,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,200,-,summarise+my+notes&step=5"
	st, err := DecodeLink(old, nil)
	require.NoError(t, err)
	want := engine.DemoConfig()
	want.DecodePoolTokens = 256 // the 256-token context in whole pages: A and B are decoded
	want.ReservedDecodeTokens = 0
	assert.Equal(t, want, st.Config)
	assert.Equal(t, engine.DecodePoolForSinglePool(256, 128, 16), st.Config.DecodePoolTokens)
	assert.Equal(t, 5, st.Step)
	assert.Empty(t, st.Preset, "today's demo is another run: the link is not it")
	assert.True(t, strings.HasPrefix(st.Migrated, "This link (version 2) was made when the playground had one KV pool."), st.Migrated)
	assert.Contains(t, st.Migrated, "Its pages-per-slot setting is gone: decode now reserves the pages of the prompt as its own intake sees it")
	assert.Contains(t, st.Migrated, "Its pool is now the prefill server's; decode's pool, which it did not set, is 256 tokens")
	assert.Contains(t, st.Migrated, "Outcomes may differ from when it was made.")
	assert.NotContains(t, st.Migrated, "lifo", "version 2 links named their allocator")
}

// A link that names only a preset opens the preset as it is now, in any
// version: no migration, nothing to say.
func TestPermalinkShortPresetForm(t *testing.T) {
	for _, v := range []string{"1", "2", "3", "4"} {
		st, err := DecodeLink("v="+v+"&preset=glm-launch&step=4", nil)
		require.NoError(t, err, v)
		p, _ := engine.PresetBySlug("glm-launch")
		assert.Equal(t, "glm-launch", st.Preset, v)
		assert.Equal(t, p.Config, st.Config, v)
		assert.Equal(t, p.Ops, st.Ops, v)
		assert.Equal(t, 4, st.Step, v)
		assert.Empty(t, st.Migrated, v)
	}
}

// An older link of a run that is still a preset's keeps its name: the
// abort presets keep no reserve, and their pools decode every request.
func TestMigratedLinkKeepsAPresetItStillMatches(t *testing.T) {
	p, _ := engine.PresetBySlug("abort-one-half")
	require.Zero(t, p.Config.ReservedDecodeTokens)
	v4 := EncodeLink(LinkState{Preset: p.Slug, Config: p.Config, Ops: p.Ops})
	v3 := strings.Replace(strings.Replace(v4, "v=4&", "v=3&", 1), "&reserve=0&", "&", 1)
	require.NotEqual(t, v4, v3)
	st, err := DecodeLink(v3, nil)
	require.NoError(t, err)
	assert.Equal(t, p.Slug, st.Preset)
	assert.Equal(t, p.Config, st.Config)
	assert.NotEmpty(t, st.Migrated, "it was still made with an earlier version")

	g, _ := engine.PresetBySlug("glm-launch")
	st, err = DecodeLink(strings.Replace(strings.Replace(EncodeLink(LinkState{Preset: g.Slug, Config: g.Config, Ops: g.Ops}), "v=4&", "v=3&", 1),
		"&reserve="+strconv.Itoa(g.Config.ReservedDecodeTokens)+"&", "&", 1), nil)
	require.NoError(t, err)
	assert.Empty(t, st.Preset, "the launch preset keeps SGLang's reserve now; a v3 link of it ran without")
}
