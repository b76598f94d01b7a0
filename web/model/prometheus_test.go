package model

import (
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	pmodel "github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// parseProm reads the exposition with Prometheus' own parser.
func parseProm(t *testing.T, text string) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(pmodel.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	require.NoError(t, err, text)
	return fams
}

// promValue is the sample of family name whose labels are exactly labels
// ("pool=decode,state=free"; "" for none).
func promValue(t *testing.T, fams map[string]*dto.MetricFamily, name, labels string) float64 {
	t.Helper()
	f, ok := fams[name]
	require.True(t, ok, "family %s", name)
	for _, m := range f.GetMetric() {
		var got []string
		for _, l := range m.GetLabel() {
			got = append(got, l.GetName()+"="+l.GetValue())
		}
		if strings.Join(got, ",") == labels {
			return m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	t.Fatalf("%s{%s} not found", name, labels)
	return 0
}

type promCheck struct {
	name, labels string
	want         float64
}

func TestPrometheusParses(t *testing.T) {
	lw, _ := engine.PresetBySlug("late-write")
	late, err := engine.Replay(lw.Config, lw.Ops)
	require.NoError(t, err)
	cases := []struct {
		preset string
		checks []promCheck
	}{
		{"late-write", []promCheck{
			{"sglang:decode_deferred_kv_release_total", "outcome=timeout", 1},
			{"sglang:decode_deferred_kv_release_total", "outcome=drained", 0},
			{"sglang:decode_deferred_kv_release_total", "outcome=error", 0},
			{"kvleak_leaked_responses_total", "", float64(late.Metrics().LeakedResponses)},
			{"kvleak_late_writes_total", "", 1},
		}},
		{"gateway-block", []promCheck{
			{"kvleak_gateway_blocked_total", "", 1},
			{"kvleak_gateway_alerts_total", "", 0},
			{"kvleak_requests_ended_total", "state=finished", 2},
		}},
		// Each free zeroes its pages: decode frees A's 8 and B's 8, prefill
		// A's 8 and the one page of B's placeholder. 25 pages of 16 tokens
		// at 70,272 bytes a token.
		{"scrub", []promCheck{
			{"kvleak_scrub_writes_total", "", 25},
			{"kvleak_scrub_bytes_total", "", 28_108_800},
			{"kvleak_pages", "pool=decode,state=free", float64(engine.DemoConfig().PagesOf(engine.ServerDecode))}, // every page, staged or not
			{"kvleak_pages", "pool=decode,state=staged", 8},
			{"kvleak_pages", "pool=decode,state=stale", 0},
			{"kvleak_pages", "pool=prefill,state=free", 8},
			{"kvleak_pages", "pool=prefill,state=staged", 1},
			{"kvleak_pages", "pool=prefill,state=stale", 0},
		}},
		// Both pools keep what they held: decode's 8 pages of A's (and B's
		// one token), prefill's too.
		{"demo", []promCheck{
			{"kvleak_pages", "pool=decode,state=stale", 8},
			{"kvleak_pages", "pool=decode,state=allocated", 0},
			{"kvleak_pages", "pool=decode,state=lingering", 0},
			{"kvleak_pages", "pool=decode,state=unretired", 0},
			{"kvleak_pages", "pool=prefill,state=stale", 8},
			{"kvleak_pages", "pool=prefill,state=allocated", 0},
			{"kvleak_leaked_pages_total", "", 7},
			{"kvleak_wrong_status_total", "", 1},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.preset, func(t *testing.T) {
			s := NewSession()
			require.NoError(t, s.LoadPreset(tc.preset))
			text := s.Prometheus()
			fams := parseProm(t, text)
			for _, c := range tc.checks {
				assert.Equal(t, c.want, promValue(t, fams, c.name, c.labels), "%s{%s}", c.name, c.labels)
			}
			assert.Len(t, fams["kvleak_pages"].GetMetric(), 10, "four states of each pool, decode's lingering and unretired")
			for name, f := range fams {
				assert.NotEmpty(t, f.GetHelp(), "HELP of %s", name)
				assert.Contains(t, text, "# TYPE "+name+" "+strings.ToLower(f.GetType().String())+"\n")
			}
			assert.Len(t, fams, 15)
		})
	}
}
