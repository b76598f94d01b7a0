package model

import (
	"fmt"
	"strings"

	"kvleak/engine"
)

// promMetric is one metric family of the exposition: SGLang's own name
// where it has one, kvleak_ for the playground's counters.
type promMetric struct {
	name, kind, help string
	samples          []promSample
}

type promSample struct {
	labels string // `outcome="timeout"`, or ""
	value  int64
}

func one(v int) []promSample { return []promSample{{"", int64(v)}} }

// promMetrics lists the run's metrics in exposition order.
func promMetrics(m engine.Metrics) []promMetric {
	var deferred []promSample
	for _, o := range engine.Outcomes {
		deferred = append(deferred, promSample{fmt.Sprintf("outcome=%q", o), int64(m.DeferredRelease[o])})
	}
	states := []struct {
		s engine.State
		n int
	}{{engine.StateFinished, m.Finished}, {engine.StateRejected, m.Rejected}, {engine.StateAborted, m.Aborted}, {engine.StateErrored, m.Errored}, {engine.StateCancelled, m.Cancelled}}
	var byState []promSample
	for _, s := range states {
		byState = append(byState, promSample{fmt.Sprintf("state=%q", s.s), int64(s.n)})
	}
	var pages []promSample
	for _, p := range []struct {
		server string
		m      engine.PoolMetrics
	}{{"prefill", m.Prefill}, {"decode", m.Decode}} {
		for _, st := range []struct {
			state string
			n     int
		}{{"allocated", p.m.Allocated}, {"free", p.m.Free}, {"staged", p.m.Staged}, {"stale", p.m.Stale}} {
			pages = append(pages, promSample{fmt.Sprintf("pool=%q,state=%q", p.server, st.state), int64(st.n)})
		}
	}
	pages = append(pages, promSample{`pool="decode",state="lingering"`, int64(m.PagesLingering)}, promSample{`pool="decode",state="unretired"`, int64(m.PagesUnretired)})
	return []promMetric{
		{"sglang:decode_deferred_kv_release_total", "counter", "Deferred KV releases on decode, by how they ended (SGLang's metric; a high share of timeout means the abort-ack path needs attention).", deferred},
		{"kvleak_requests_total", "counter", "Requests sent (the playground's own counter).", one(m.Requests)},
		{"kvleak_requests_ended_total", "counter", "Requests by the terminal state they reached (the playground's own counter).", byState},
		{"kvleak_requests_waiting", "gauge", "Requests waiting for free pages (in DecodePreallocQueue, or prefill's waiting queue).", one(m.Waiting)},
		{"kvleak_leaked_responses_total", "counter", "Responses whose decode read another tenant's pages (the playground's own counter).", one(m.LeakedResponses)},
		{"kvleak_leaked_pages_total", "counter", "Pages of another tenant that decode read into a response.", one(m.LeakedPages)},
		{"kvleak_wrong_status_total", "counter", "HTTP 200s for requests that intake had rejected or whose transfer had failed.", one(m.WrongStatus)},
		{"kvleak_pages", "gauge", "KV pool pages by server and state.", pages},
		{"kvleak_scrub_writes_total", "counter", "Pages zeroed by scrub-on-free: one write each.", one(m.ScrubWrites)},
		{"kvleak_scrub_bytes_total", "counter", "Bytes zeroed by scrub-on-free.", []promSample{{"", m.ScrubBytes}}},
		{"kvleak_writer_check_reads_total", "counter", "Page metadata reads of decode's last-writer check.", one(m.WriterChecks)},
		{"kvleak_ghost_pages_total", "counter", "Pages reserved for requests whose client had gone and that nothing retired.", one(m.GhostPages)},
		{"kvleak_late_writes_total", "counter", "Transfers that landed after a deferred-release timeout had freed their pages.", one(m.LateWrites)},
		{"kvleak_gateway_alerts_total", "counter", "Responses the AI gateway flagged for another tenant's content and delivered.", one(m.GatewayAlerts)},
		{"kvleak_gateway_blocked_total", "counter", "Responses the AI gateway replaced with a 502.", one(m.GatewayBlocks)},
	}
}

// Prometheus is the run's metrics in Prometheus' text exposition format
// (version 0.0.4), as an operator's scrape would read them.
func (s *Session) Prometheus() string {
	c := &s.memo.counters
	cur := c.at(s.eng)
	if c.prom == nil {
		text := prometheusText(cur)
		c.prom = &text
	}
	return *c.prom
}

// prometheusText is the exposition of the counters m.
func prometheusText(counters engine.Metrics) string {
	var b strings.Builder
	for _, m := range promMetrics(counters) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n", m.name, m.help, m.name, m.kind)
		for _, x := range m.samples {
			if x.labels != "" {
				fmt.Fprintf(&b, "%s{%s} %d\n", m.name, x.labels, x.value)
			} else {
				fmt.Fprintf(&b, "%s %d\n", m.name, x.value)
			}
		}
	}
	return b.String()
}
