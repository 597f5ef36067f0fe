package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hookshim/hookshim/internal/pipeline"
	"github.com/tidwall/gjson"
)

// MaxPayload is the largest payload hookshim reads. Past it the call is
// answered "no opinion" (or denied, with on_error: deny) without running
// handlers: a tool that sends more than this is not sending a hook payload
// hookshim could judge.
const MaxPayload = 64 << 20

// StdinTimeout bounds the wait for a payload. Some tools never close stdin
// (Kiro IDE 0.x); hookshim stops reading when what it has is one complete
// JSON document and the stream has gone quiet for StdinQuiet.
var (
	StdinTimeout = 10 * time.Second
	StdinQuiet   = 100 * time.Millisecond
)

// readPayload reads stdin, bounded in size and time: StdinTimeout, or
// less when the call must be answered sooner (deadline; zero: none). A
// stdin that never completes must not hold the answer past the tool's own
// timeout.
//
// It reads on the calling goroutine wherever it can: a file cannot stall,
// and a pipe is read through the runtime's poller with deadlines. A
// goroutine with timers around a blocking read works for any reader, but in
// a process that lives a few milliseconds the goroutine, the timers and the
// thread woken to run them cost more than the rest of a call that matches
// no handler.
func readPayload(r io.Reader, deadline time.Time) ([]byte, error) {
	limit := stdinLimit(deadline)
	f, ok := r.(*os.File)
	if !ok {
		return notEmpty(readWatched(r, limit))
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		return notEmpty(readWatched(r, limit))
	case st.Mode()&os.ModeCharDevice != 0:
		// /dev/null is a character device too: only a terminal is one
		// no tool ever hands over.
		if isTerminal(f) {
			return nil, errTerminal
		}
		return notEmpty(readFile(f, 0))
	case st.Mode().IsRegular():
		buf, err := readFile(f, st.Size())
		if err == nil && len(buf) == 0 {
			return nil, errEmptyFile
		}
		return buf, err
	}
	if pf, restore := pollable(f); pf != nil {
		defer restore()
		return notEmpty(readPolled(pf, limit))
	}
	return notEmpty(readWatched(r, limit))
}

// stdinLimit is how long a payload may take to arrive.
func stdinLimit(deadline time.Time) time.Duration {
	limit := StdinTimeout
	if !deadline.IsZero() {
		if left := time.Until(deadline); left < limit {
			limit = max(left, 0)
		}
	}
	return limit
}

// The ways stdin can hold no payload at all, each told as what it is: the
// first thing someone trying hookshim by hand runs into.
var (
	errTerminal  = errors.New("stdin is a terminal: hookshim run reads a tool's hook payload on stdin")
	errEmpty     = errors.New("stdin is empty (/dev/null or a closed pipe): hookshim run reads a tool's hook payload on stdin")
	errEmptyFile = errors.New("stdin is an empty file: hookshim run reads a tool's hook payload on stdin")
)

// notEmpty turns a stream that ended before its first byte into errEmpty.
func notEmpty(buf []byte, err error) ([]byte, error) {
	if err == nil && len(buf) == 0 {
		return nil, errEmpty
	}
	return buf, err
}

// payload is the buffer a payload is read into.
type payload struct{ buf []byte }

// newPayload makes the buffer for a payload of size bytes, or of a size
// not known yet when size is 0: then 64 KiB, which most payloads fit.
// A known size (stdin is a file) gets exactly that. Anything over 32 KiB
// is a large object to Go's allocator, with a span and page-allocator
// bookkeeping of its own; for a payload of a few hundred bytes read from a
// file, the 64 KiB buffer cost about 0.4 ms of a 6 ms call.
func newPayload(size int) payload {
	if size <= 0 {
		size = 64 << 10
	}
	return payload{buf: make([]byte, 0, min(size, MaxPayload+1))}
}

// read reads once into the buffer. Most payloads fit the first 64 KiB. Past
// that, the buffer becomes one of the largest size allowed: a fresh
// allocation that large is memory the kernel has not handed out yet, so
// only the pages written are touched, and nothing is copied again. A buffer
// doubled as it fills touches every byte twice or more, and a page touched
// for the first time is a page fault; that was most of a 10 MiB call.
func (p *payload) read(r io.Reader) error {
	if len(p.buf) == cap(p.buf) {
		grown := make([]byte, len(p.buf), MaxPayload+1)
		copy(grown, p.buf)
		p.buf = grown
	}
	n, err := r.Read(p.buf[len(p.buf):cap(p.buf)])
	p.buf = p.buf[:len(p.buf)+n]
	if len(p.buf) > MaxPayload {
		return errTooLarge
	}
	return err
}

// errTooLarge is a constant, not fmt.Errorf: a package-level call is work
// at the start of every process.
var errTooLarge = errors.New("payload is larger than 64 MiB; not read")

// complete reports whether data is one whole JSON document: what a stream
// that has gone quiet without closing may be taken for. A payload nested
// past pipeline.MaxDepth is refused whatever follows, so it is taken as it
// is (and never handed to the validator, which recurses once per level).
func complete(data []byte) bool {
	if len(bytes.TrimSpace(data)) == 0 {
		return false
	}
	return pipeline.TooDeep(data) || gjson.ValidBytes(trimBOM(data))
}

func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }

func noPayload(limit time.Duration) error {
	return fmt.Errorf("no complete payload on stdin after %s", limit.Round(time.Millisecond))
}

// ended is what a read that returned err leaves: the payload at the end of
// the stream, else the error.
func ended(buf []byte, err error) ([]byte, error) {
	switch err {
	case io.EOF:
		return buf, nil
	case errTooLarge:
		return nil, err
	}
	return buf, fmt.Errorf("reading stdin: %v", err)
}

// readFile reads a regular file to its end, into a buffer of its size.
func readFile(f *os.File, size int64) ([]byte, error) {
	p := newPayload(int(min(size, MaxPayload)) + 1)
	for {
		if err := p.read(f); err != nil {
			return ended(p.buf, err)
		}
	}
}

// readPolled reads a pollable stream until it closes, or until it goes
// quiet with one complete document read, or until limit.
func readPolled(f *os.File, limit time.Duration) ([]byte, error) {
	hard := time.Now().Add(limit)
	p := newPayload(0)
	for {
		quiet := time.Now().Add(StdinQuiet)
		if quiet.After(hard) {
			quiet = hard
		}
		if err := f.SetReadDeadline(quiet); err != nil {
			return p.buf, fmt.Errorf("reading stdin: %v", err)
		}
		switch err := p.read(f); {
		case err == nil:
		case errors.Is(err, os.ErrDeadlineExceeded):
			if complete(p.buf) {
				return p.buf, nil
			}
			if !time.Now().Before(hard) {
				return nil, noPayload(limit)
			}
		default:
			return ended(p.buf, err)
		}
	}
}

// readWatched reads any reader on a goroutine of its own, watched by
// timers: for readers without deadlines.
func readWatched(r io.Reader, limit time.Duration) ([]byte, error) {
	type chunk struct {
		all []byte // everything read so far
		err error
	}
	ch := make(chan chunk, 1)
	go func() {
		// Each chunk hands over what was read so far; later reads only
		// append beyond it, so it never changes under the reader. A
		// reader that knows its length (in-process callers) gets a buffer
		// of that size.
		size := 0
		if l, ok := r.(interface{ Len() int }); ok {
			size = l.Len() + 1
		}
		p := newPayload(size)
		for {
			err := p.read(r)
			ch <- chunk{p.buf, err}
			if err != nil {
				return
			}
		}
	}()
	var data []byte
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	quiet := time.NewTimer(StdinQuiet)
	defer quiet.Stop()
	for {
		select {
		case c := <-ch:
			data = c.all
			if c.err != nil {
				return ended(data, c.err)
			}
			quiet.Reset(StdinQuiet)
		case <-quiet.C:
			// The stream went quiet without closing: a complete document is
			// enough (checked only now, so large payloads are scanned once).
			if complete(data) {
				return data, nil
			}
			quiet.Reset(StdinQuiet)
		case <-deadline.C:
			if complete(data) {
				return data, nil
			}
			return nil, noPayload(limit)
		}
	}
}
