package sitegen

import (
	"errors"
	"fmt"
	"html"
	"regexp"
	"strconv"

	"kvleak/internal/preview"
)

// socialImage is the picture link previews show when the site knows its
// domain (og:image must be an absolute URL): static/preview.png, the demo
// run as cmd/previewgen drew it (go generate).
const socialImage = "/web/preview.png"

// addPreview names the picture, when the site knows its domain, in the
// tags go-app has no field for, with the demo run's words.
func addPreview(dir, domain string) error {
	if domain == "" {
		return nil
	}
	s, err := preview.Preset("demo")
	if err != nil {
		return err
	}
	return editPages(dir, func(page []byte) ([]byte, error) { return previewTags(page, s.Alt()) })
}

// ogImageMeta matches the og:image tag go-app writes, in either attribute
// order; the URL is group 1 or 2.
var ogImageMeta = regexp.MustCompile(`<meta (?:property="og:image" content="([^"]+)"|content="([^"]+)" property="og:image")>`)

// previewTags follows og:image with its size and words, and asks for the
// large card: without twitter:card, X shows a small square thumbnail.
func previewTags(page []byte, alt string) ([]byte, error) {
	m := ogImageMeta.FindSubmatchIndex(page)
	if m == nil {
		return nil, errors.New("no og:image tag to follow with the preview's size and card")
	}
	url := m[2:4]
	if url[0] < 0 {
		url = m[4:6]
	}
	alt = html.EscapeString(alt)
	tags := fmt.Sprintf(`<meta property="og:image:type" content="image/png">`+
		`<meta property="og:image:width" content="%s"><meta property="og:image:height" content="%s">`+
		`<meta property="og:image:alt" content="%s">`+
		`<meta name="twitter:card" content="summary_large_image"><meta name="twitter:image" content="%s">`+
		`<meta name="twitter:image:alt" content="%s">`,
		strconv.Itoa(preview.Width), strconv.Itoa(preview.Height), alt, page[url[0]:url[1]], alt)
	out := append([]byte{}, page[:m[1]]...)
	out = append(out, tags...)
	return append(out, page[m[1]:]...), nil
}
