package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"kvleak/deploycheck"
	"kvleak/engine"
	"kvleak/permalink"
)

// deployment are replay's flags for the settings it runs at, from one
// source: a preset, a link, the two servers' files check reads, or the
// numbers one by one (glm-launch's where not given).
type deployment struct {
	preset, link *string
	servers      serverFlags
	numbers      []number
}

// number is a flag that sets one number of the deployment; zeroOK, one
// that may be 0.
type number struct {
	flag, what string
	text       *string
	set        func(*engine.Config, int)
	zeroOK     bool
}

// defaultPreset is the preset replay runs at when no source is given.
const defaultPreset = "glm-launch"

func addDeployment(fs *flag.FlagSet) *deployment {
	d := &deployment{
		preset:  fs.String("preset", "", "run at a preset's settings, by its `slug` such as demo (default "+defaultPreset+")"),
		link:    fs.String("link", "", "run at a permalink's settings: the `URL`, or its query (?v=3&ctx=…&pool=…)"),
		servers: addServerFlags(fs),
	}
	sizes := " such as 1048576, 1,048,576 or 1Mi (default " + defaultPreset + "'s)"
	for _, n := range []struct {
		flag, what, usage string
		set               func(*engine.Config, int)
	}{
		{"context", "the context length", "the context length (context_length), in `tokens`" + sizes, func(c *engine.Config, v int) { c.ContextTokens = v }},
		{"prefill-pool", "prefill's pool", "prefill's KV pool (its max_total_num_tokens), in `tokens`" + sizes, func(c *engine.Config, v int) { c.PoolTokens = v }},
		{"decode-pool", "decode's pool", "decode's KV pool (its max_total_num_tokens), in `tokens`" + sizes, func(c *engine.Config, v int) { c.DecodePoolTokens = v }},
		{"page", "the page size", "the page size (page_size), in `tokens`" + sizes, func(c *engine.Config, v int) { c.PageTokens = v }},
		{"reserve", "decode's reserve", "decode's --num-reserved-decode-tokens: the `tokens` its prealloc budget keeps in hand for each request's decoding, 0 or more (default " +
			engine.Thousands(engine.DefaultReservedDecodeTokens) + ", SGLang's and " + defaultPreset + "'s)", func(c *engine.Config, v int) { c.ReservedDecodeTokens = v }},
	} {
		d.numbers = append(d.numbers, number{flag: n.flag, what: n.what, text: fs.String(n.flag, "", n.usage), set: n.set, zeroOK: n.flag == "reserve"})
	}
	return d
}

// settings are the deployment the flags give, with notes on where it came
// from; two sources for one setting are an error that names both.
func (d *deployment) settings(fs *flag.FlagSet) (engine.Config, []string, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var sources []string
	for _, s := range []string{"preset", "link", "prefill"} {
		if set[s] || s == "prefill" && set["decode"] {
			sources = append(sources, "-"+s)
		}
	}
	if set["prefill"] != set["decode"] {
		return engine.Config{}, nil, errors.New("-prefill and -decode go together: give both servers' files")
	}
	if len(sources) > 1 {
		return engine.Config{}, nil, fmt.Errorf("%s and %s both give the settings: give one", sources[0], sources[1])
	}
	for _, n := range d.numbers {
		if set[n.flag] && len(sources) == 1 {
			return engine.Config{}, nil, fmt.Errorf("-%s and %s both give %s: give one", n.flag, sources[0], n.what)
		}
	}
	switch {
	case set["prefill"]:
		return d.fromServers()
	case set["link"]:
		st, err := permalink.DecodeLink(linkQuery(*d.link), nil)
		switch {
		case errors.Is(err, permalink.ErrNoState):
			return engine.Config{}, nil, errors.New("the link carries no settings (it needs v= and preset= or setting keys)")
		case err != nil:
			return engine.Config{}, nil, fmt.Errorf("the link: %v", err)
		}
		return st.Config, nil, nil
	}
	name := *d.preset
	if name == "" {
		name = defaultPreset
	}
	p, ok := engine.PresetBySlug(name)
	if !ok {
		slugs, _ := engine.PresetNames()
		return engine.Config{}, nil, fmt.Errorf("no preset %q: one of %s", name, strings.Join(slugs, ", "))
	}
	cfg := p.Config
	for _, n := range d.numbers {
		if !set[n.flag] {
			continue
		}
		parse := permalink.ParseCount
		if n.zeroOK {
			parse = permalink.ParseCountOrZero
		}
		v, err := parse(*n.text)
		if err != nil {
			return engine.Config{}, nil, fmt.Errorf("-%s %q: %v", n.flag, *n.text, err)
		}
		n.set(&cfg, v)
		if err := cfg.Validate(); err != nil {
			return engine.Config{}, nil, fmt.Errorf("-%s: %v", n.flag, err)
		}
	}
	return cfg, nil, nil
}

// fromServers reads the settings as check reads the two servers: one
// engine holds both (deploycheck.ServerSettings), as on the page.
func (d *deployment) fromServers() (engine.Config, []string, error) {
	sv := d.servers
	prefill, decode, err := sv.read()
	if err != nil {
		return engine.Config{}, nil, err
	}
	view := deploycheck.CheckReport(prefill, decode)
	switch {
	case view.Status == "":
		return engine.Config{}, nil, errors.New(sv.box(view.Box, view.Problem))
	case view.Settings == nil:
		return engine.Config{}, nil, errors.New(view.LinkNote)
	}
	st := view.Settings
	note := fmt.Sprintf("The settings are the two servers' (-prefill %s, -decode %s), as kvleak check reads them: %s.", *sv.prefill, *sv.decode, st.Verdict)
	return st.Config, append([]string{note}, st.Notes...), nil
}
