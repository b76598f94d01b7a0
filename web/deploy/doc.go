// Package deploy is the deployment check: the reader pastes what a real
// SGLang prefill/decode pair reports and gets the verdict and a link that
// replays it (deploycheck.CheckReport).
package deploy
