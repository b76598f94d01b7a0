// Package challenge is the capture-the-flag room: the open challenge's
// panel (#challenge) beside the request form, and the ladder's list
// (#challenges), folded under the bench's settings. What counts as solved is the challenge
// package's predicate over the engine, read through web/model; the room
// shows it and reports the reader's choices through callbacks.
package challenge
