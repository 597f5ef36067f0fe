package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/wire"
	"github.com/stretchr/testify/require"
)

// A stream that delivers a complete payload and then never closes (Kiro
// IDE 0.x) is read as soon as it goes quiet.
func TestReadPayloadStdinNeverCloses(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(`{"hook_event_name":"PreToolUse"}`))
	start := time.Now()
	got, err := readPayload(r)
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
	_, err := readPayload(r)
	require.ErrorContains(t, err, "no complete payload on stdin after 300ms")
}

// More than MaxPayload bytes is refused without keeping them all.
func TestReadPayloadTooLarge(t *testing.T) {
	big := io.MultiReader(strings.NewReader(`{"x":"`), io.LimitReader(zeroes{}, MaxPayload+10))
	_, err := readPayload(big)
	require.ErrorContains(t, err, "payload is larger than 64 MiB")
}

type zeroes struct{}

func (zeroes) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// Invalid UTF-8 reaches handlers as well-formed JSON.
func TestInvalidUTF8IsRepaired(t *testing.T) {
	raw := []byte("{\"session_id\":\"s\",\"transcript_path\":\"/h/.claude/projects/p/s.jsonl\",\"cwd\":\"/\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"bad \xff byte\"}")
	c := &hookCall{flags: hookFlags{provider: "claude-code"}, getenv: func(k string) string {
		if k == "HOME" {
			return t.TempDir()
		}
		return ""
	}, started: time.Now()}
	ans := c.answer(raw, nil)
	require.Equal(t, 0, ans.Exit)
	require.NotNil(t, c.ev)
	require.Equal(t, "bad \uFFFD byte", *c.ev.Prompt)
	require.Contains(t, strings.Join(c.trace.notes, "\n"), "invalid UTF-8")
}

func TestExamplePolicyDestructive(t *testing.T) {
	for cmd, want := range map[string]bool{
		"rm -rf /":                          true,
		"rm -rf ~":                          true,
		"sudo rm -rf /":                     true,
		"rm -fr /":                          true,
		"rm -r -f /":                        true,
		"cd /tmp && rm -rf /":               true,
		"mkfs.ext4 /dev/sda1":               true,
		"dd if=/dev/zero of=/dev/sda bs=1M": true,
		":(){ :|:& };:":                     true,
		"rm -rf ./build":                    false,
		"rm -rf /tmp/x":                     false,
		"ls -la /":                          false,
		"npm test":                          false,
		"echo 'rm -rf' is bad":              false,
	} {
		env := `{"data":{"tool_name":"shell","command":` + string(wire.Quote(cmd)) + `}}`
		var out bytes.Buffer
		require.Equal(t, 0, cmdExamplePolicy([]string{"deny-destructive"}, strings.NewReader(env), &out, io.Discard))
		require.Equalf(t, want, strings.Contains(out.String(), `"deny"`), "command %q", cmd)
	}
}

// Two spellings of one tool input are one duplicate key.
func TestCanonicalJSON(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{`{"b":1,"a":{"y":[1,"x"],"x":null}}`, `{ "a": {"x": null, "y": [1, "x"]}, "b": 1 }`},
		{`{"s":"\u00e9\/"}`, `{"s":"é/"}`},
		{`{"k":1,"k":2}`, `{"k":2}`},
	} {
		require.Equal(t, canonicalJSON([]byte(c.a)), canonicalJSON([]byte(c.b)), c.a)
	}
	require.Equal(t, `{"a":[true,false,null,1.5],"b":"x"}`, canonicalJSON([]byte(`{"b":"x","a":[true,false,null,1.5]}`)))
	require.NotEqual(t, canonicalJSON([]byte(`{"a":1}`)), canonicalJSON([]byte(`{"a":2}`)))
	require.Equal(t, "not json", canonicalJSON([]byte("not json")))
}
