package journal

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRecord is what the decision log adds to one hook call: encode
// a typical record (bounded, redacted) and append it to the log.
func BenchmarkRecord(b *testing.B) {
	for _, tc := range []struct {
		name  string
		input string
	}{
		{"small", `{"command":"go test ./... && git status"}`},
		{"large-input", `{"file_path":"/p/main.go","content":"` + strings.Repeat("x", 1<<20) + `"}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), FileName)
			input := json.RawMessage(tc.input) // a slice of the payload, as in a call
			b.ReportAllocs()
			for b.Loop() {
				e := entry("0f4c5a8e-8f4e-4a7c-9a43-7d1c0e2b9d11")
				e.ToolInput = input
				e.Keys = []string{"cwd", "hook_event_name", "session_id", "tool_input", "tool_name", "transcript_path"}
				e.Hooks = []Hook{{Name: "guard", Pos: "/p/.openhook.json:3", Events: []string{"before_tool_execute"}, Matcher: "shell", Matched: true}}
				e.Runs = []Run{{Name: "guard", Pos: "/p/.openhook.json:3", MS: 4.2, Decision: "allow"}}
				if err := Append(path, Encode(e, nil), DefaultMax, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
