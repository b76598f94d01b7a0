//go:build !testhooks

package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// The shipped build has no test hooks: these do nothing (hooks_testhooks.go
// has the ones the browser tests build with -tags testhooks).

func (p *playground) installTestHooks(ctx app.Context) {}
