package web

import (
	"errors"
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// OnNav opens the state a permalink carries. A link that cannot be opened
// leaves the default scenario on screen and says why in a banner.
func (p *playground) OnNav(ctx app.Context) {
	st, err := decodeLink(ctx.Page().URL().RawQuery)
	p.embed, p.readOnly, p.compare = st.Embed, st.Embed && st.ReadOnly, st.Compare
	if p.embed && p.stopSize == nil { // OnNav runs after OnMount
		p.stopSize = reportHeight()
	}
	switch {
	case errors.Is(err, errNoState):
	case err != nil:
		p.banner = err.Error()
	default:
		if err := p.s.applyLink(st); err != nil {
			p.banner = err.Error()
		}
	}
}

// sync writes the session's state into the address bar, without navigating,
// so that the URL is always a permalink to what is on screen.
func (p *playground) sync(ctx app.Context) {
	u := ctx.Page().URL()
	u.RawQuery, p.share.tooLong = p.query(p.embed, p.readOnly), !p.linkable()
	if p.share.tooLong {
		u.RawQuery = "" // a link that would not open is worse than none
	}
	ctx.Page().ReplaceURL(u)
}

// linkable reports whether the run fits in a permalink that decodeLink
// accepts; a longer run is shared with Export JSON instead.
func (p *playground) linkable() bool {
	return len(p.s.ops) <= maxLinkOps && len(p.query(true, true)) <= maxQueryBytes
}

// query is the permalink query for the current state.
func (p *playground) query(embed, readOnly bool) string {
	st := p.s.link()
	st.Embed, st.ReadOnly, st.Compare = embed, embed && readOnly, p.compare
	return encodeLink(st)
}

// linkTo is an absolute URL to the current state, for sharing.
func (p *playground) linkTo(ctx app.Context, embed, readOnly bool) string {
	u := *ctx.Page().URL()
	u.RawQuery, u.Fragment = p.query(embed, readOnly), ""
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawQuery: u.RawQuery}).String()
}
