package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/private"
)

// Generations are the log's files, newest first: the live file, then
// .1, .2.
func Generations(path string) []string {
	out := []string{path}
	for g := 1; g <= Keep; g++ {
		out = append(out, path+"."+strconv.Itoa(g))
	}
	return out
}

// Check refuses to read a default log that another user could have
// written (see package private): what it says could be theirs.
func Check(path string) error {
	for _, p := range Generations(path) {
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := private.File(p, st); err != nil {
			return err
		}
	}
	return nil
}

// Record is one record read back: the entry, and its line as written.
type Record struct {
	Entry
	Line []byte
}

// Scan calls fn with the log's records, newest first, through every
// generation, until fn returns false. Lines that are not records (a
// partial line, a line of another format) are skipped. A log that does
// not exist has no records.
func Scan(path string, fn func(r *Record) bool) error {
	for _, p := range Generations(path) {
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		data = bytes.TrimRight(data, "\n")
		for len(data) > 0 {
			i := bytes.LastIndexByte(data, '\n')
			line := data[i+1:]
			data = data[:max(i, 0)]
			r, ok := parse(line)
			if !ok {
				continue
			}
			if !fn(r) {
				return nil
			}
		}
	}
	return nil
}

func parse(line []byte) (*Record, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return nil, false
	}
	r := &Record{Line: line}
	if json.Unmarshal(line, &r.Entry) != nil || r.ID == "" {
		return nil, false
	}
	return r, true
}

// NotFoundError is an id no record of the log has.
type NotFoundError struct{ ID string }

func (e *NotFoundError) Error() string { return "no call " + e.ID + " in the log" }

// AmbiguousError is an id prefix that more than one call's id starts with.
type AmbiguousError struct {
	ID  string
	IDs []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%s names %d calls (%s): give more of the id", e.ID, len(e.IDs), strings.Join(e.IDs, ", "))
}

// Find is the call whose id is id, or starts with it.
func Find(path, id string) (*Record, error) {
	var found *Record
	var ids []string
	err := Scan(path, func(r *Record) bool {
		if r.ID == id {
			found, ids = r, nil
			return false
		}
		if strings.HasPrefix(r.ID, id) {
			if found == nil {
				found = r
			}
			if len(ids) < 5 && !slices.Contains(ids, r.ID) {
				ids = append(ids, r.ID)
			}
		}
		return true
	})
	switch {
	case err != nil:
		return nil, err
	case found == nil:
		return nil, &NotFoundError{ID: id}
	case len(ids) > 1:
		return nil, &AmbiguousError{ID: id, IDs: ids}
	}
	return found, nil
}

// Follow calls fn with every record appended to the log from now on,
// until ctx is done or fn returns an error, checking every poll. A
// rotation is followed: the rest of the renamed file is read, then the
// new one from its start.
func Follow(ctx context.Context, path string, poll time.Duration, fn func(r *Record) error) error {
	var f *os.File
	var pending []byte
	open := func(fromEnd bool) {
		g, err := os.Open(path)
		if err != nil {
			return
		}
		if fromEnd {
			g.Seek(0, io.SeekEnd)
		}
		f, pending = g, nil
	}
	open(true)
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	buf := make([]byte, 64<<10)
	drain := func() error {
		for f != nil {
			n, err := f.Read(buf)
			pending = append(pending, buf[:n]...)
			for {
				i := bytes.IndexByte(pending, '\n')
				if i < 0 {
					break
				}
				if r, ok := parse(pending[:i]); ok {
					r.Line = append([]byte(nil), r.Line...)
					if err := fn(r); err != nil {
						return err
					}
				}
				pending = pending[i+1:]
			}
			if n == 0 || err != nil {
				return nil
			}
		}
		return nil
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		if err := drain(); err != nil {
			return err
		}
		// Rotated (or created since): what is at path now is read from
		// its start, once the old file is read to its end.
		if cur, err := os.Stat(path); err == nil {
			if f == nil {
				open(false)
				continue
			}
			if st, err := f.Stat(); err == nil && !os.SameFile(st, cur) {
				f.Close()
				f = nil
				open(false)
				continue
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
