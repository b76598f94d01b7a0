package e2e

import (
	"fmt"
	"github.com/chromedp/cdproto/cdp"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

func TestZZLoadProfile(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	site := startSiteAt(t, os.Getenv("ZZSITE")).URL
	b := newBrowser(t)
	b.Open(site)
	self := map[string]float64{}
	inclusive := map[string]float64{}
	total := 0.0
	for i := 0; i < 6; i++ {
		b.Do(chromedp.Navigate("about:blank"))
		_, err := chromedp.Call(b.ctx, profiler.Enable, cdp.Empty{})
		must(t, err)
		_, err = chromedp.Call(b.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200})
		must(t, err)
		_, err = chromedp.Call(b.ctx, profiler.Start, cdp.Empty{})
		must(t, err)
		b.Open(site)
		r, err := chromedp.Call(b.ctx, profiler.Stop, cdp.Empty{})
		must(t, err)
		p := r.Profile
		incl(p, inclusive)
		byID := map[int64]*profiler.ProfileNode{}
		for _, n := range p.Nodes {
			byID[int64(n.ID)] = n
		}
		for i, s := range p.Samples {
			dt := 0.0
			if i < len(p.TimeDeltas) {
				dt = float64(p.TimeDeltas[i]) / 1000
			}
			n := byID[s]
			key := n.CallFrame.FunctionName + " " + n.CallFrame.URL
			self[key] += dt
			total += dt
		}
	}
	type kv struct {
		k string
		v float64
	}
	var l []kv
	for k, v := range self {
		l = append(l, kv{k, v})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].v > l[j].v })
	fmt.Printf("total %.0f ms over 6 loads\n", total)
	for _, e := range l[:25] {
		fmt.Printf("%8.1f %s\n", e.v/6, e.k)
	}
	l = l[:0]
	for k, v := range inclusive {
		l = append(l, kv{k, v})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].v > l[j].v })
	fmt.Println("inclusive")
	for _, e := range l[:80] {
		fmt.Printf("%8.1f %s\n", e.v/6, e.k)
	}
}

func TestZZLoAF(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	site := serveSite(t)
	b := newBrowser(t)
	b.Open(site)
	for i := 0; i < 4; i++ {
		b.Do(chromedp.Navigate("about:blank"))
		b.Open(site + os.Getenv("ZZQ"))
		time.Sleep(time.Second)
		out := run(b, chromedp.Evaluate[bool](`!!new Promise(res => { const o = new PerformanceObserver(()=>{}); const es=[]; new PerformanceObserver(l => { for (const e of l.getEntries()) es.push(e); }).observe({type:'long-animation-frame', buffered:true}); setTimeout(()=>{ const nav=performance.getEntriesByType('navigation')[0]; let s='dcl '+nav.domContentLoadedEventEnd.toFixed(0)+' load '+nav.loadEventEnd.toFixed(0)+'\n'; for (const e of es) { s += 'frame@'+e.startTime.toFixed(0)+' dur '+e.duration.toFixed(0)+' block '+e.blockingDuration.toFixed(0)+' render '+(e.renderStart? (e.startTime+e.duration-e.renderStart).toFixed(0):'-')+' style+layout '+(e.styleAndLayoutStart?(e.startTime+e.duration-e.styleAndLayoutStart).toFixed(0):'-')+'\n'; for (const sc of e.scripts) s+='   script '+sc.invokerType+' '+sc.invoker.slice(0,60)+' '+sc.duration.toFixed(0)+' forcedSL '+sc.forcedStyleAndLayoutDuration.toFixed(0)+'\n'; } res(s); window.__s=s; }, 300); })`))
		_ = out
		time.Sleep(600 * time.Millisecond)
		fmt.Println(run(b, chromedp.Evaluate[string](`window.__s`)))
	}
}

func must(t *testing.T, err error) {
	if err != nil {
		t.Fatal(err)
	}
}

func incl(p *profiler.Profile, out map[string]float64) {
	selfT := map[int64]float64{}
	for i, s := range p.Samples {
		if i < len(p.TimeDeltas) {
			selfT[s] += float64(p.TimeDeltas[i]) / 1000
		}
	}
	byID := map[int64]*profiler.ProfileNode{}
	for _, n := range p.Nodes {
		byID[int64(n.ID)] = n
	}
	var walk func(id int64, seen map[string]bool) float64
	walk = func(id int64, seen map[string]bool) float64 {
		n := byID[id]
		t := selfT[id]
		k := n.CallFrame.FunctionName
		first := !seen[k]
		seen[k] = true
		for _, c := range n.Children {
			t += walk(c, seen)
		}
		if first {
			out[k] += t
			delete(seen, k)
		}
		return t
	}
	walk(int64(p.Nodes[0].ID), map[string]bool{})
}
