// Package headless holds the one set of Chromium flags that the browser
// tests and the benchmark launch with (the suite in the headless shell where
// installed, the benchmark in full Chromium, as readers get it).
package headless

import "github.com/chromedp/chromedp"

// Options launches exe headless with a fresh profile dir at w×h. Beyond
// chromedp's defaults: no sandbox (CI runs as root), no GPU, and none of the
// background traffic that a machine without internet would refuse.
func Options(exe, profile string, w, h int, extra ...chromedp.ExecAllocatorOption) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(w, h),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("headless", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-quic", true),
		// A reader's Chrome puts a cross-site frame in a process of its
		// own; the headless shell does only when told.
		chromedp.Flag("site-per-process", true),
	)
	return append(opts, extra...)
}
