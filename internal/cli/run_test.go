package cli

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A stream that delivers a complete payload and then never closes (Kiro
// IDE 0.x) is read as soon as it goes quiet.
func TestReadPayloadStdinNeverCloses(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(`{"hook_event_name":"PreToolUse"}`))
	start := time.Now()
	got, err := readPayload(r, time.Time{})
	require.NoError(t, err)
	require.Equal(t, `{"hook_event_name":"PreToolUse"}`, string(got))
	require.Less(t, time.Since(start), StdinTimeout/2)
}

// An incomplete payload on a stream that never closes gives up at the
// timeout with a clear error.
func TestReadPayloadIncompleteTimesOut(t *testing.T) {
	old := StdinTimeout
	StdinTimeout = 300 * time.Millisecond
	defer func() { StdinTimeout = old }()
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(`{"hook_event_name":`))
	_, err := readPayload(r, time.Time{})
	require.ErrorContains(t, err, "no complete payload on stdin after 300ms")
}

// More than MaxPayload bytes is refused without keeping them all.
func TestReadPayloadTooLarge(t *testing.T) {
	big := io.MultiReader(strings.NewReader(`{"x":"`), io.LimitReader(zeroes{}, MaxPayload+10))
	_, err := readPayload(big, time.Time{})
	require.ErrorContains(t, err, "payload is larger than 64 MiB")
}

type zeroes struct{}

func (zeroes) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}
