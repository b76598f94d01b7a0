package model

import (
	"kvleak/deploycheck"
	"kvleak/engine"
)

// DescribeServers says, for the Replay panel, which settings a log is
// replayed at from the Deploy check.
func DescribeServers(s *deploycheck.ServerSettings) string {
	c := s.Config
	return "The Deploy check holds two servers: context " + engine.Thousands(int64(c.ContextTokens)) + ", prefill pool " + engine.Thousands(int64(c.PoolTokens)) +
		", decode pool " + engine.Thousands(int64(c.DecodePoolTokens)) + " tokens, pages of " + engine.Thousands(int64(c.PageTokens)) +
		", decode's reserve " + engine.Thousands(int64(c.ReservedDecodeTokens)) + " tokens."
}

// ServersReplayNotes are the notes a replay at the Deploy check's servers'
// settings begins with.
func ServersReplayNotes(s *deploycheck.ServerSettings) []string {
	return append([]string{"The settings are the two servers' pasted in the Deploy check: " + s.Verdict + "."}, s.Notes...)
}
