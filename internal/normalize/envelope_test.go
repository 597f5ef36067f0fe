package normalize_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/hookshim/hookshim/bench/benchdata"
	"github.com/hookshim/hookshim/internal/normalize"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

func TestFileURI(t *testing.T) {
	for dir, want := range map[string]string{
		"/home/user/my project": "file:///home/user/my%20project",
		"/tmp/ü/a?b#c%d":        "file:///tmp/%C3%BC/a%3Fb%23c%25d",
		"/x;y=z,w@v+u&t$s":      "file:///x;y=z,w@v+u&t$s",
	} {
		require.Equal(t, want, normalize.FileURI(dir), "%q", dir)
	}
}

// The envelope holds the canonical data and the payload untouched (but for
// a name given twice, which keeps its last member as the tool reads it),
// in one valid document, whatever the payload's size.
func TestEnvelopeHoldsDataAndPayload(t *testing.T) {
	now := time.Date(2026, 11, 22, 7, 33, 49, 0, time.UTC)
	for _, c := range append(benchdata.Small(), benchdata.Large(1<<20)...) {
		p := c.Payload()
		ev := normalize.Event(c.Provider, c.Spec, p)
		env := normalize.Envelope(ev, "id-1", now, "test")
		require.True(t, json.Valid(env), c.Name)
		data := normalize.Data(ev)
		require.True(t, json.Valid(data), c.Name)
		doc := gjson.ParseBytes(env)
		require.Equal(t, string(data), doc.Get("data").Raw, c.Name)
		require.Equal(t, string(bytes.TrimSpace(p.Raw)), doc.Get("extensions.hookshim.payload").Raw, c.Name)
		var keys []string
		doc.ForEach(func(k, _ gjson.Result) bool { keys = append(keys, k.Str); return true })
		want := []string{"openhook", "id", "source", "type", "time", "session_id", "data", "extensions"}
		if ev.ProjectDir != "" {
			want = []string{"openhook", "id", "source", "type", "time", "session_id", "context", "data", "extensions"}
		}
		require.Equal(t, want, keys, c.Name)
		require.Equal(t, "id-1", doc.Get("id").Str)
		require.Equal(t, "2026-11-22T07:33:49Z", doc.Get("time").Str)
		require.Equal(t, string(ev.Name), doc.Get("extensions.hookshim.event").Str)
	}
}
