package engine

import (
	"fmt"
	"hash/fnv"
)

// GatewayMode is what the AI gateway in front of the engine does with a
// response that carries another tenant's content. The gateway is the
// simulation's illustration of the article's advice, not part of SGLang.
type GatewayMode string

const (
	GatewayOff   GatewayMode = "off"
	GatewayAlert GatewayMode = "alert" // count an alert, deliver the response
	GatewayBlock GatewayMode = "block" // replace the response with a 502
)

// GatewayModes lists the modes in the order a chooser shows them.
var GatewayModes = []GatewayMode{GatewayOff, GatewayAlert, GatewayBlock}

func validGateway(g GatewayMode) bool {
	return g == "" || g == GatewayOff || g == GatewayAlert || g == GatewayBlock
}

func (g GatewayMode) on() bool { return g == GatewayAlert || g == GatewayBlock }

// GatewayPrints is how many prompt fingerprints the gateway keeps per
// tenant; older ones are forgotten, so its memory is bounded whatever the
// traffic.
const GatewayPrints = 64

// prints is one tenant's fingerprints: a fixed ring of 64-bit hashes.
type prints struct {
	h    [GatewayPrints]uint64
	n    int // how many are set
	next int // where the next one goes
}

func (p *prints) has(h uint64) bool {
	for _, x := range p.h[:p.n] {
		if x == h {
			return true
		}
	}
	return false
}

func (p *prints) add(h uint64) {
	if p.has(h) {
		return
	}
	p.h[p.next] = h
	p.next = (p.next + 1) % GatewayPrints
	p.n = min(p.n+1, GatewayPrints)
}

// fingerprint hashes a text; the gateway keeps hashes, never prompts.
func fingerprint(text string) uint64 {
	f := fnv.New64a()
	f.Write([]byte(text))
	return f.Sum64()
}

// gatewaySees fingerprints a tenant's prompt on its way in.
func (e *Engine) gatewaySees(tenant int, content string) {
	if !e.cfg.Gateway.on() {
		return
	}
	for len(e.prints) <= tenant {
		e.prints = append(e.prints, prints{})
	}
	e.prints[tenant].add(fingerprint(pageContent(content)))
}

// gatewayInspect looks at a 200 on its way out: a piece of its text whose
// fingerprint is another tenant's and not the requester's own came from
// that tenant. It sees text only: what it compares is the content each
// page echoes, one lookup per segment and tenant.
func (f *flight) gatewayInspect() {
	e := f.e
	if !e.cfg.Gateway.on() || f.resp.Status != 200 {
		return
	}
	own := f.r.tenant
	from := -1
	for _, s := range f.resp.Body {
		if s.Writer == noRequest {
			continue
		}
		h := fingerprint(e.reqs[s.Writer-1].content)
		if own < len(e.prints) && e.prints[own].has(h) {
			continue // its own, or text it also sent: the gateway cannot tell
		}
		for t := range e.prints {
			if t != own && e.prints[t].has(h) {
				from = t
				break
			}
		}
		if from >= 0 {
			break
		}
	}
	if from < 0 {
		e.emit(f.r, StageGateway, HalfAPI, nil, fmt.Sprintf(
			"The AI gateway compares the response with the %s prompt fingerprints it keeps: nothing in it matches another tenant's.", th(e.gatewayPrintCount())))
		return
	}
	f.resp.Gateway = string(e.cfg.Gateway)
	if e.cfg.Gateway == GatewayAlert {
		e.m.gatewayAlerts++
		e.emit(f.r, StageGateway, HalfAPI, nil, fmt.Sprintf(
			"The AI gateway raises an alert: the response to tenant %s echoes text fingerprinted from tenant %s's prompts. It delivers the response all the same.",
			f.resp.Tenant, e.tenants[from]))
		return
	}
	e.m.gatewayBlocks++
	f.resp.Status, f.resp.Body = 502, nil
	f.resp.Reason = fmt.Sprintf("Bad Gateway: the AI gateway withheld a response that carried another tenant's content (fingerprinted from tenant %s's prompts).", e.tenants[from])
	e.emit(f.r, StageGateway, HalfAPI, nil, fmt.Sprintf(
		"The AI gateway blocks the response to tenant %s: it echoes text fingerprinted from tenant %s's prompts. The client gets 502 instead.",
		f.resp.Tenant, e.tenants[from]))
}

func (e *Engine) gatewayPrintCount() int {
	n := 0
	for i := range e.prints {
		n += e.prints[i].n
	}
	return n
}
