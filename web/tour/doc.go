// Package tour is the story around the run: the intro, the guided tour's
// card, the incident's timeline and the sources the playground reproduces.
package tour
