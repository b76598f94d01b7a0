package deploycheck

import (
	"fmt"
	"strings"
)

// fixedIn is the first release that carries SGLang #38704 for each
// transfer backend, as the article gives it ("upgrade past v0.5.21
// (Mooncake, NIXL) or v0.5.22 (MORI)"). mooncake_tcp is Mooncake over TCP:
// SGLang's pd_disaggregation_hook rewrites it to mooncake.
var fixedIn = map[string]string{
	"mooncake":     "0.5.21",
	"mooncake_tcp": "0.5.21",
	"nixl":         "0.5.21",
	"mori":         "0.5.22",
}

// FixState is whether a server's release carries the fix.
type FixState int

const (
	FixUnknown FixState = iota // no version, a backend the article does not name, or a pre-release
	LacksFix
	HasFix
)

// Fix is what a server's release and transfer backend say about the fix.
type Fix struct {
	State FixState
	// FixedIn is the first release with the fix for the backend; "" when
	// the article names none.
	FixedIn string
	// Words say it in a clause: "0.5.20 (mooncake) predates the fix in
	// 0.5.21".
	Words string
}

// FixOf reads the fix from a server's version and backend.
func FixOf(s Server) Fix {
	in, named := fixedIn[s.Backend]
	if !named {
		what := "no version"
		if s.Version != "" {
			what = s.Version
		}
		return Fix{FixUnknown, "", fmt.Sprintf("%s (%s): the article names no fixed release for the %s backend", what, s.Backend, s.Backend)}
	}
	if s.Version == "" {
		what := "the JSON has no version"
		if s.Source == FromLaunch {
			what = "the launch command does not say the SGLang release"
		}
		return Fix{FixUnknown, in, fmt.Sprintf("%s (%s has the fix from %s)", what, s.Backend, in)}
	}
	have, _ := parseVersion(s.Version)
	fix, _ := parseVersion(in)
	switch {
	case have.release == [3]int{}:
		// python/sglang/version.py falls back to setuptools_scm, whose
		// version for a checkout it finds no release tag in is
		// 0.0.0.devN+g<commit> (and "0.0.0.dev0" when even that fails): it
		// names no release, so neither the fix nor its absence.
		return Fix{FixUnknown, in, fmt.Sprintf("%s (%s) is a development build that names no release%s: whether it carries the fix in %s is unknown", s.Version, s.Backend, commitOf(s.Version), in)}
	case have.pre != 0 && have.release == fix.release:
		return Fix{FixUnknown, in, fmt.Sprintf("%s (%s) is a pre-release of %s: whether it carries the fix is unknown", s.Version, s.Backend, in)}
	case have.less(fix):
		return Fix{LacksFix, in, fmt.Sprintf("%s (%s) predates the fix in %s", s.Version, s.Backend, in)}
	}
	return Fix{HasFix, in, fmt.Sprintf("%s (%s) carries the fix (from %s)", s.Version, s.Backend, in)}
}

// commitOf is ", commit <sha>" for a setuptools_scm local version
// (+g87549f8f0), or "".
func commitOf(v string) string {
	_, local, _ := strings.Cut(v, "+")
	sha, _, _ := strings.Cut(strings.TrimPrefix(local, "g"), ".")
	if !strings.HasPrefix(local, "g") || sha == "" || strings.Trim(sha, "0123456789abcdef") != "" {
		return ""
	}
	return ", commit " + sha
}

// version is an SGLang release as pip spells it: 0.5.21, 0.5.21.post1,
// 0.5.22rc0, with an optional leading v (image tags) and local part.
type version struct {
	release [3]int
	// pre orders pre-releases before the release they lead to: dev −4,
	// a −3, b −2, rc −1; 0 for the release and its post-releases.
	pre int
}

var preRanks = []struct {
	word string
	rank int
}{{"dev", -4}, {"rc", -1}, {"a", -3}, {"b", -2}, {"post", 0}}

// parseVersion reads major.minor.patch and one optional suffix: rcN, aN,
// bN, devN or postN, joined by nothing, "." or "-".
func parseVersion(s string) (version, bool) {
	var v version
	s = strings.TrimPrefix(s, "v")
	s, _, _ = strings.Cut(s, "+") // a local version (+cu126) says nothing of the release
	for i := range v.release {
		n, rest, ok := leadingInt(s)
		if !ok {
			return v, false
		}
		v.release[i] = n
		s = rest
		if i < 2 {
			if !strings.HasPrefix(s, ".") {
				return v, false
			}
			s = s[1:]
		}
	}
	if s == "" {
		return v, true
	}
	s = strings.TrimLeft(s[:1], ".-") + s[1:]
	for _, p := range preRanks {
		if rest, ok := strings.CutPrefix(s, p.word); ok {
			if rest == "" {
				v.pre = p.rank
				return v, true
			}
			if _, tail, ok := leadingInt(rest); ok && tail == "" {
				v.pre = p.rank
				return v, true
			}
		}
	}
	return v, false
}

// leadingInt reads 1 to 6 digits at the start of s.
func leadingInt(s string) (n int, rest string, ok bool) {
	i := 0
	for i < len(s) && i < 6 && '0' <= s[i] && s[i] <= '9' {
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == 0 || i < len(s) && '0' <= s[i] && s[i] <= '9' {
		return 0, s, false
	}
	return n, s[i:], true
}

func (v version) less(w version) bool {
	for i := range v.release {
		if v.release[i] != w.release[i] {
			return v.release[i] < w.release[i]
		}
	}
	return v.pre < w.pre
}
