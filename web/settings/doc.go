// Package settings is the engine's settings form: the scenario picker, one
// input per row of the model's field table, and the fieldset of what the
// admission door retires (doorfieldset.go). A setting changes the session
// only through the page's callbacks.
package settings
