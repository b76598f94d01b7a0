package engine

import (
	"fmt"

	"kvleak/internal/jsonlite"
)

// RunFileSchema names the export format; RunFileVersion is its version.
const (
	RunFileSchema = "kvleak-run"
	// Version 2 added Config.Allocator and SGLang's prompt limit; version 3
	// the decode server's own pool (Config.DecodePoolTokens). A version 1
	// file is read with the LIFO allocator it was made with; files of
	// versions 1 and 2, made with one pool, get decode's pool from
	// DecodePoolForSinglePool. Version 4 added decode's prealloc budget
	// (Config.ReservedDecodeTokens), the max_new_tokens clamp and page ids
	// from 1: a file of an earlier version runs as MigrateV3 says.
	RunFileVersion = 4
	// MaxRunFileBytes bounds an imported file.
	MaxRunFileBytes = 4 << 20
)

// RunFile is a run exported as JSON: what was configured and done, and what
// came of it. Import reads Config and Ops back; the rest is for readers.
type RunFile struct {
	Schema    string     `json:"schema"`
	Version   int        `json:"version"`
	Config    Config     `json:"config"`
	Ops       []Op       `json:"ops"`
	Events    []Event    `json:"events"`
	Responses []Response `json:"responses"`
	Metrics   Metrics    `json:"metrics"`
	Capacity  Capacity   `json:"capacity"`
	// Migrated says what changed in an imported file of an earlier
	// version (MigrateV3); it is not written.
	Migrated string `json:"-"`
}

// Export describes the engine's run, given the ops that produced it.
func (e *Engine) Export(ops []Op) RunFile {
	return RunFile{
		Schema: RunFileSchema, Version: RunFileVersion, Config: e.cfg, Ops: ops,
		Events: e.log.Copy(), Responses: e.Responses(), Metrics: e.Metrics(), Capacity: e.cfg.Capacity(),
	}
}

// runFileInput is what ImportRun reads of a RunFile; the rest of the file
// is only checked to be JSON.
type runFileInput struct {
	Schema  string `json:"schema"`
	Version int    `json:"version"`
	Config  Config `json:"config"`
	Ops     []Op   `json:"ops"`

	migrated string
}

// ImportRun reads an exported run and replays it. Any error leaves the
// caller's state alone: it says what is wrong with the file. The RunFile
// it returns holds what was read: the schema, version, config and ops.
func ImportRun(data []byte) (*Engine, RunFile, error) {
	e, in, err := importRun(data)
	return e, RunFile{Schema: in.Schema, Version: in.Version, Config: in.Config, Ops: in.Ops, Migrated: in.migrated}, err
}

func importRun(data []byte) (*Engine, runFileInput, error) {
	var f runFileInput
	if len(data) > MaxRunFileBytes {
		return nil, f, fmt.Errorf("the file is %s bytes; at most %s are read", Thousands(int64(len(data))), Thousands(MaxRunFileBytes))
	}
	if err := checkJSONShape(data); err != nil {
		return nil, f, err
	}
	if err := jsonlite.Unmarshal(data, &f); err != nil {
		return nil, f, fmt.Errorf("not a run file: %v", err)
	}
	if f.Schema == RunFileSchema && f.Version == 1 && f.Config.Allocator == "" {
		f.Config.Allocator = LIFO // what version 1 ran; f.Version stays 1
	}
	if f.Schema != RunFileSchema || f.Version < 1 || f.Version > RunFileVersion {
		return nil, f, fmt.Errorf("not a run file of this playground (schema %q version %d; want %q version 1 to %d)", f.Schema, f.Version, RunFileSchema, RunFileVersion)
	}
	if f.Version < 3 && f.Config.DecodePoolTokens == 0 {
		c := &f.Config
		c.DecodePoolTokens = DecodePoolForSinglePool(c.ContextTokens, c.PoolTokens, c.PageTokens)
	}
	if len(f.Ops) > MaxRequests {
		return nil, f, fmt.Errorf("the file has %s operations; at most %s", Thousands(int64(len(f.Ops))), Thousands(MaxRequests))
	}
	if f.Version < 4 {
		f.Config, f.migrated = MigrateV3(f.Config, f.Ops)
	}
	if w := ReplayWork(f.Config, f.Ops); w > MaxReplayWork {
		return nil, f, fmt.Errorf("the file's requests would touch %s pages; a file may ask for at most %s", Thousands(w), Thousands(MaxReplayWork))
	}
	e, err := Replay(f.Config, f.Ops)
	if err != nil {
		return nil, f, fmt.Errorf("the file's run cannot be replayed: %v", err)
	}
	return e, f, nil
}
