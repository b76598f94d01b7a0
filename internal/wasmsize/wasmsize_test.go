package wasmsize

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testPkgs = []Package{
	{Path: "runtime"},
	{Path: "kvleak/web", Module: "kvleak"},
	{Path: "kvleak/web/model", Module: "kvleak"},
	{Path: "github.com/google/uuid", Module: "github.com/google/uuid"},
}

func TestParse(t *testing.T) {
	b := testModule([]string{"runtime.main", "kvleak_web.__page_.Render", ""}, 10, 200, 3)
	m, err := Parse(b)
	require.NoError(t, err)
	var names []string
	for _, s := range m.Sections {
		names = append(names, s.Name)
	}
	assert.Equal(t, []string{"go:buildid", "import", "code", "data", "name"}, names)
	assert.Equal(t, 300, m.SectionSize("data"))
	assert.Equal(t, 0, m.SectionSize("elem"), "absent")
	// Names skip the two imported functions; sizes include the prefix.
	assert.Equal(t, []Func{{"runtime.main", 11}, {"kvleak_web.__page_.Render", 202}, {"", 4}}, m.Funcs)
	assert.Equal(t, 1+11+202+4, m.SectionSize("code"))
}

func TestParseRejects(t *testing.T) {
	good := testModule([]string{"runtime.main"}, 10)
	for name, b := range map[string][]byte{
		"empty":           nil,
		"not wasm":        []byte("\x7fELF\x01\x00\x00\x00"),
		"version 2":       []byte("\x00asm\x02\x00\x00\x00"),
		"cut short":       good[:len(good)-3],
		"body past end":   cat([]byte("\x00asm\x01\x00\x00\x00"), section(10, cat(uleb(1), uleb(50), []byte{0}))),
		"huge vector":     cat([]byte("\x00asm\x01\x00\x00\x00"), section(10, uleb(1<<30))),
		"bad import kind": cat([]byte("\x00asm\x01\x00\x00\x00"), section(2, vec(cat(str("a"), str("b"), []byte{9})))),
	} {
		_, err := Parse(b)
		assert.Error(t, err, name)
	}
}

func TestByPackage(t *testing.T) {
	m := Module{Funcs: []Func{
		{"runtime.main", 48},
		{"kvleak_web.__page_.Render", 30},
		{"kvleak_web_model.Session.Len", 7},    // the longer path wins
		{"type_.eq.kvleak_web_model.Field", 3}, // generated for the type's package
		{"github.com_google_uuid.NewString", 5},
		{"_rt0_wasm_js", 4},
		{"wasm_pc_f_loop", 1},
		{"kvleak_webx.F", 1}, // a prefix of a name is not its package
		{"", 1},
	}}
	got := ByPackage(m, testPkgs)
	byName := map[string]Row{}
	total := 0.0
	for _, r := range got {
		byName[r.Name] = r
		total += r.Share
	}
	assert.Equal(t, Row{"runtime", 48, 0.48, 1}, byName["runtime"])
	assert.Equal(t, 30, byName["kvleak/web"].Bytes)
	assert.Equal(t, Row{"kvleak/web/model", 10, 0.1, 2}, byName["kvleak/web/model"])
	assert.Equal(t, 5, byName["github.com/google/uuid"].Bytes)
	assert.Equal(t, Row{Unmapped, 6, 0.06, 3}, byName[Unmapped])
	assert.Equal(t, 1, byName[Unnamed].Bytes)
	assert.InDelta(t, 1.0, total, 1e-9)
	assert.Equal(t, "runtime", got[0].Name, "largest first")
	assert.Equal(t, "kvleak/web", got[1].Name)

	mods := ByModule(got, testPkgs)
	assert.Equal(t, []Row{
		{"std", 48, 0.48, 1},
		{"kvleak", 40, 0.40, 3},
		{"(not a package)", 6, 0.06, 3},
		{"github.com/google/uuid", 5, 0.05, 1},
		{Unnamed, 1, 0.01, 1},
	}, mods, "ties by name")
}

func TestMangleIsTheLinkers(t *testing.T) {
	// cmd/link/internal/wasm writes "(*T)" as "__T_" and "/" as "_".
	assert.Equal(t, "github.com_maxence_charriere_go_app_v10_pkg_app.__Body_.Render",
		mangle("github.com/maxence-charriere/go-app/v10/pkg/app.(*Body).Render"))
}

func TestParsePackages(t *testing.T) {
	got, err := ParsePackages(strings.NewReader("runtime\n\nkvleak/web kvleak\n"))
	require.NoError(t, err)
	assert.Equal(t, []Package{{Path: "runtime"}, {Path: "kvleak/web", Module: "kvleak"}}, got)
	_, err = ParsePackages(strings.NewReader("a b c\n"))
	assert.ErrorContains(t, err, "line 1")
	_, err = ParsePackages(strings.NewReader("\n"))
	assert.ErrorContains(t, err, "empty")
}

func TestReportWrite(t *testing.T) {
	m, err := Parse(testModule([]string{"runtime.main", "kvleak_web.F"}, 60, 40))
	require.NoError(t, err)
	rows := ByPackage(m, testPkgs)
	var buf bytes.Buffer
	require.NoError(t, Report{Shipped: "app.wasm", Size: 500, Module: m, Modules: ByModule(rows, testPkgs), Packages: rows}.Write(&buf))
	out := buf.String()
	assert.Contains(t, out, "app.wasm: 500 bytes raw")
	assert.Regexp(t, `\n +data +300 +60\.0%`, out)
	assert.NotRegexp(t, `\n +name +\d`, out, "the name section is not shipped")
	assert.Regexp(t, `\n +61 +59\.8% +1 +runtime\n +41 +40\.2% +1 +kvleak/web\n`, out)
	assert.Regexp(t, `\n +61 +59\.8% +1 +std\n`, out)
}
