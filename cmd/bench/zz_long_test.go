package main

import (
	"context"
	"fmt"
	"testing"
)

func TestZZLongProfile(t *testing.T) {
	s, err := openSite("../../build/site-prof")
	if err != nil {
		t.Fatal(err)
	}
	url, _, stop, err := serveSite(s)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx := context.Background()
	b, err := newBrowser(ctx, "/usr/bin/chromium")
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	if _, err := b.load(ctx, url, false); err != nil {
		t.Fatal(err)
	}
	if _, err := b.act(ctx, "preset:glm-launch", 1, 3); err != nil {
		t.Fatal(err)
	}
	prof := func(name string) {
		p, err := startProfiler(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := b.act(ctx, "send", 40, 0)
		if err != nil {
			t.Fatal(err)
		}
		top, err := p.stop(ctx, "/tmp/long-"+name+".cpuprofile")
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, x := range ts {
			sum += x.Painted
		}
		out := fmt.Sprintf("%s: mean painted %.1f ms\n", name, sum/float64(len(ts)))
		for i, f := range top {
			if i > 25 {
				break
			}
			out += fmt.Sprintf("  %v\n", f)
		}
		t.Log(out)
	}
	if _, err := b.act(ctx, "send", 20, 0); err != nil {
		t.Fatal(err)
	}
	prof("early")
	if _, err := b.act(ctx, "send", 1000, 0); err != nil {
		t.Fatal(err)
	}
	prof("late")
}
