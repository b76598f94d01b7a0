package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"kvleak/replay"
)

// outFiles are -pairs' and -tenants' files, written through buffers as
// the replay streams.
type outFiles struct {
	files replay.Files
	open  []*os.File
	bufs  []*bufio.Writer
}

// createFiles creates the files named ("" for none).
func createFiles(pairs, tenants string) (*outFiles, error) {
	out := &outFiles{}
	if pairs != "" && tenants != "" {
		a, errA := filepath.Abs(pairs)
		b, errB := filepath.Abs(tenants)
		if errA == nil && errB == nil && a == b {
			return nil, fmt.Errorf("-pairs and -tenants name one file, %s: give each its own", pairs)
		}
	}
	for _, f := range []struct {
		flag, name string
		into       *io.Writer
	}{{"pairs", pairs, &out.files.Pairs}, {"tenants", tenants, &out.files.Tenants}} {
		if f.name == "" {
			continue
		}
		file, err := os.Create(f.name)
		if err != nil {
			out.close(err)
			return nil, fmt.Errorf("-%s: %v", f.flag, err)
		}
		buf := bufio.NewWriterSize(file, 64<<10)
		out.open, out.bufs = append(out.open, file), append(out.bufs, buf)
		*f.into = buf
	}
	return out, nil
}

// close flushes and closes the files after a replay that ended with err;
// when it failed, or writing did, they are removed: a half-written list of
// whom to tell is not one.
func (o *outFiles) close(err error) error {
	for i, f := range o.open {
		if err == nil {
			err = o.bufs[i].Flush()
		}
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		for _, f := range o.open {
			os.Remove(f.Name())
		}
	}
	return err
}
