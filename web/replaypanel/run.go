package replaypanel

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/replay"
	"kvleak/web/dom"
	"kvleak/web/model"
)

// slice bounds the replay's work between two yields to the browser, so
// that a frame is never held much longer (the budget is 100 ms).
const slice = 30 * time.Millisecond

// chunk is how many units of work (a request read, freed or started) one
// Step does: small enough that a slice overruns its time by little.
const chunk = 16

// onRun starts a replay of the log given last, replacing one under way:
// at the page's settings, or at the Deploy check's servers' from
// #replay-from-deploy. A form or a log it cannot use changes nothing and
// says why.
func (c *Panel) onRun(ctx app.Context, e app.Event) {
	cfg, notes := c.IConfig, []string(nil)
	if s := c.IServers; s != nil && dom.SourceID(ctx) == "replay-from-deploy" {
		cfg, notes = s.Config, model.ServersReplayNotes(s)
	}
	opts, errs := c.form.Options(cfg)
	opts.Notes = notes
	c.errs = errs
	if errs != nil {
		c.msg = "Nothing was replayed: correct the settings marked above."
		c.announce = c.msg
		return
	}
	open, err := c.opener(ctx)
	if err != nil {
		c.msg = "Nothing was replayed: " + err.Error()
		c.announce = c.msg
		return
	}
	gen := c.gen.Add(1)
	c.running, c.msg, c.announce, c.progress = true, "", "Replaying…", model.ReplayProgress{}
	embed := c.IEmbed
	ctx.Async(func() {
		view, files, took, err := replayIn(ctx, open, opts, func(p model.ReplayProgress) bool {
			if c.gen.Load() != gen {
				return false
			}
			ctx.Dispatch(func(app.Context) {
				if c.gen.Load() == gen {
					c.progress = p
				}
			})
			return true
		}, embed)
		ctx.Dispatch(func(app.Context) {
			if c.gen.Load() != gen {
				return
			}
			c.running = false
			if err != nil {
				c.msg = "Nothing was replayed: " + err.Error()
				c.announce = c.msg
				return
			}
			c.result, c.files, c.took, c.announce = &view, files, took, view.Announce
			c.resultHTML = resultMarkup(&view, ctx.ResolveStaticResource("/"+view.FirstLeakLink), took.elapsed.Seconds())
			c.finished++
		})
	})
}

// onCancel stops the replay under way; the last result stays.
func (c *Panel) onCancel(ctx app.Context, e app.Event) {
	c.gen.Add(1)
	c.running, c.announce = false, "Replay cancelled."
	if run := app.Window().GetElementByID("replay-run"); run.Truthy() {
		run.Call("focus")
	}
}

// opener is how the replay gets the log given last: it is read when the
// replay starts, on its own goroutine.
func (c *Panel) opener(ctx app.Context) (func() (io.Reader, int64, error), error) {
	switch c.source {
	case fromFile:
		if c.file == nil {
			return nil, errors.New("pick a file first")
		}
		r := dom.NewBlobReader(c.file)
		return func() (io.Reader, int64, error) { return r, r.Size(), nil }, nil
	case fromSample:
		url := ctx.ResolveStaticResource("/web/traces/" + c.sample + ".csv")
		name := c.sample
		return func() (io.Reader, int64, error) {
			blob, err := dom.FetchBlob(url)
			if err != nil {
				return nil, 0, fmt.Errorf("the sample %s: %v", name, err)
			}
			r := dom.NewBlobReader(blob)
			return r, r.Size(), nil
		}, nil
	}
	text := dom.ValueOf("replay-text")
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("the log is empty: paste one, or pick a file or a sample")
	}
	return func() (io.Reader, int64, error) { return strings.NewReader(text), int64(len(text)), nil }, nil
}

// replayIn replays the log, yielding to the browser after each slice of
// work and reporting its progress then; report returns false to stop.
// A panic (a bug) is an error: the page goes on.
func replayIn(ctx app.Context, open func() (io.Reader, int64, error), opts replay.Options, report func(model.ReplayProgress) bool, embed bool) (view model.ReplayView, files model.ReplayFiles, t timing, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the replay stopped on a bug (%v); the page goes on", r)
			app.Log("kvleak: replay: recovered:", r)
		}
	}()
	start := time.Now()
	r, size, err := open()
	if err != nil {
		return view, files, t, err
	}
	begin := time.Now()
	job, err := model.StartReplay(r, size, opts)
	if err != nil {
		return view, files, t, err
	}
	for {
		end := begin.Add(slice)
		done := false
		for !done && time.Now().Before(end) {
			if done, err = job.Step(chunk); err != nil {
				return view, files, t, err
			}
		}
		if done {
			break
		}
		t.longest = max(t.longest, time.Since(begin))
		if !report(job.Progress()) {
			return view, files, t, errCancelled
		}
		dom.Yield()
		begin = time.Now()
	}
	view = model.NewReplayView(job.Result(), embed)
	t.longest = max(t.longest, time.Since(begin))
	t.elapsed = time.Since(start)
	return view, job.Files(), t, nil
}

// timing is how long a replay took in the page, and the longest it held
// the page's thread between two yields.
type timing struct {
	elapsed, longest time.Duration
}

var errCancelled = errors.New("cancelled")
