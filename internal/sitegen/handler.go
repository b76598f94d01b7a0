package sitegen

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/internal/server"
)

// meta is the page metadata. It is part of the version hash, so editing a
// title also counts as an update for installed copies.
var meta = struct{ name, short, title, desc, bg, theme, loading string }{
	name:  "KV-cache leak playground",
	short: "KV leak",
	title: "KV-cache leak playground",
	desc: "Reproduce the multi-tenant KV-cache leak from the GLM-5.3 postmortem " +
		"in your browser: watch a reused KV page carry one tenant's context into another's request.",
	bg:    "#111827",
	theme: "#1f2937",
	// No {progress}: app.js hands the wasm straight to the compiler
	// (the script edit wasm-compile, scripts.go), so nothing counts the bytes.
	loading: "Loading the playground…",
}

// handler describes the site to go-app. All icons are local: an empty Icon
// field makes go-app link one from the internet, which breaks offline use.
func handler(prefix, domain, version string, wasmSize int) *app.Handler {
	image := ""
	if domain != "" {
		image = socialImage
	}
	return &app.Handler{
		Domain:      domain,
		Image:       image,
		Name:        meta.name,
		ShortName:   meta.short,
		Title:       meta.title,
		Description: meta.desc,
		Lang:        "en",
		Icon: app.Icon{
			Default:  "/web/icon-192.png",
			Large:    "/web/icon-512.png",
			SVG:      "/web/icon.svg",
			Maskable: "/web/icon-maskable-512.png",
		},
		Styles:     []string{"/web/app.css"},
		RawHeaders: headTags(prefix, wasmSize),
		// go-app caches the PNG icons for offline use but not the SVG one,
		// which is the page's favicon.
		CacheableResources: []string{"/web/icon.svg"},
		BackgroundColor:    meta.bg,
		ThemeColor:         meta.theme,
		LoadingLabel:       meta.loading,
		Version:            version,
		// The server may send app.wasm compressed, so Content-Length would be
		// the compressed size. go-app's progress count needed it; the edited
		// app.js no longer counts (scripts.go), but the length stays right.
		WasmContentLength: strconv.Itoa(wasmSize),
		Resources:         resources(prefix),
	}
}

// resources resolves URLs for a site hosted at prefix ("" = root).
func resources(prefix string) app.ResourceResolver {
	if prefix == "" {
		return app.LocalDir("")
	}
	return slashRoot{app.PrefixedLocation(prefix), prefix}
}

// slashRoot makes the app root resolve to "/kvleak/" where PrefixedLocation
// gives "/kvleak". Static hosts (GitHub Pages, our server) redirect to the
// slash form, and the service worker registered at /kvleak/app-worker.js
// only controls /kvleak/...: with the bare form the worker would cache a URL
// the page is never loaded from, so the site would not work offline.
type slashRoot struct {
	app.ResourceResolver
	prefix string
}

func (r slashRoot) Resolve(location string) string {
	if u := r.ResourceResolver.Resolve(location); u != r.prefix {
		return u
	}
	return r.prefix + "/"
}

// NormalizePrefix accepts "kvleak", "/kvleak/" or "/kvleak" as "/kvleak",
// and "" or "/" as the root; the server's rules reject anything a URL would
// need to escape or that climbs out of the site.
func NormalizePrefix(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p != "" && !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return server.NormalizePrefix(p)
}
