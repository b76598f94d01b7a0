package model

import (
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	pmodel "github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseProm reads the exposition with Prometheus' own parser.
func parseProm(t *testing.T, text string) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(pmodel.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	require.NoError(t, err, text)
	return fams
}

func promValue(t *testing.T, fams map[string]*dto.MetricFamily, name, label, value string) float64 {
	t.Helper()
	f, ok := fams[name]
	require.True(t, ok, "family %s", name)
	for _, m := range f.GetMetric() {
		if label == "" && len(m.GetLabel()) == 0 {
			return m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
		for _, l := range m.GetLabel() {
			if l.GetName() == label && l.GetValue() == value {
				return m.GetCounter().GetValue() + m.GetGauge().GetValue()
			}
		}
	}
	t.Fatalf("%s{%s=%q} not found", name, label, value)
	return 0
}

type promCheck struct {
	name, label, value string
	want               float64
}

func TestPrometheusParses(t *testing.T) {
	cases := []struct {
		preset string
		checks []promCheck
	}{
		{"late-write", []promCheck{
			{"sglang:decode_deferred_kv_release_total", "outcome", "timeout", 1},
			{"sglang:decode_deferred_kv_release_total", "outcome", "drained", 0},
			{"sglang:decode_deferred_kv_release_total", "outcome", "error", 0},
			{"kvleak_leaked_responses_total", "", "", 1},
			{"kvleak_late_writes_total", "", "", 1},
		}},
		{"gateway-block", []promCheck{
			{"kvleak_gateway_blocked_total", "", "", 1},
			{"kvleak_gateway_alerts_total", "", "", 0},
			{"kvleak_requests_ended_total", "state", "finished", 2},
		}},
		{"scrub", []promCheck{
			{"kvleak_scrub_writes_total", "", "", 16},
			{"kvleak_scrub_bytes_total", "", "", 17_989_632},
			{"kvleak_pages", "state", "free", 8},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.preset, func(t *testing.T) {
			s := NewSession()
			require.NoError(t, s.LoadPreset(tc.preset))
			text := s.Prometheus()
			fams := parseProm(t, text)
			for _, c := range tc.checks {
				assert.Equal(t, c.want, promValue(t, fams, c.name, c.label, c.value), "%s{%s=%q}", c.name, c.label, c.value)
			}
			for name, f := range fams {
				assert.NotEmpty(t, f.GetHelp(), "HELP of %s", name)
				assert.Contains(t, text, "# TYPE "+name+" "+strings.ToLower(f.GetType().String())+"\n")
			}
			assert.Len(t, fams, 15)
		})
	}
}
