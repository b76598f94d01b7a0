// Package run is the run the reader watches and drives: the request form,
// the response and the line under Send, the stepper and the scrubber, the
// pipeline diagram, the comparison of both doors, the transcript and the
// event log.
//
// Each component is made by its exported constructor (NewStepper, …), gets
// its inputs through chainable setters and reports what the reader did
// through callbacks, which the page (package web) binds to its session.
package run
