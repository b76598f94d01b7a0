package server

import (
	"sort"
	"strconv"
	"strings"
)

// coding is one representation of a file: its Content-Encoding value
// ("" for identity) and the suffix of the twin that holds it.
type coding struct {
	name   string
	suffix string
}

// preference order: smallest first, identity last. It breaks q-value ties.
var codings = []coding{
	{name: "br", suffix: ".br"},
	{name: "gzip", suffix: ".gz"},
	{name: "", suffix: ""},
}

// identityFloor ranks identity below any coding the client lists with q>0
// when the client does not mention identity itself.
const identityFloor = 0.0001

// negotiate returns the codings the client accepts, best first. Identity
// is always last-resort: a client that refuses it still gets it, because
// a 406 for a static page helps nobody (RFC 9110 allows either).
func negotiate(acceptEncoding string) []coding {
	q := map[string]float64{}
	star, haveStar := 0.0, false
	for _, part := range strings.Split(acceptEncoding, ",") {
		name, weight, ok := parseCodingWeight(part)
		if !ok {
			continue
		}
		if name == "*" {
			star, haveStar = weight, true
			continue
		}
		if name == "x-gzip" {
			name = "gzip"
		}
		if _, seen := q[name]; !seen {
			q[name] = weight
		}
	}
	weightOf := func(c coding) float64 {
		key := c.name
		if key == "" {
			key = "identity"
		}
		if w, ok := q[key]; ok {
			return w
		}
		if haveStar {
			return star
		}
		if key == "identity" {
			return identityFloor
		}
		return 0
	}

	type ranked struct {
		c coding
		w float64
	}
	var list []ranked
	for _, c := range codings {
		if w := weightOf(c); w > 0 {
			list = append(list, ranked{c, w})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].w > list[j].w })
	out := make([]coding, 0, len(list)+1)
	hasIdentity := false
	for _, r := range list {
		out = append(out, r.c)
		hasIdentity = hasIdentity || r.c.name == ""
	}
	if !hasIdentity {
		out = append(out, codings[len(codings)-1])
	}
	return out
}

// parseCodingWeight reads "gzip;q=0.5" into ("gzip", 0.5). A malformed
// q-value makes the whole element invalid so it is ignored.
func parseCodingWeight(part string) (string, float64, bool) {
	name, params, _ := strings.Cut(part, ";")
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" {
		return "", 0, false
	}
	weight := 1.0
	for _, p := range strings.Split(params, ";") {
		k, v, found := strings.Cut(strings.TrimSpace(p), "=")
		if !found || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		w, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || w < 0 || w > 1 {
			return "", 0, false
		}
		weight = w
	}
	return name, weight, true
}
