package rule

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocExamples runs every example of docs/rules.md: each ```rule block
// is compiled as it is written (its // lines are comments of the
// language) and evaluated on every call its comments name.
func TestDocExamples(t *testing.T) {
	blocks := docExamples(t)
	cases := 0
	for _, src := range blocks {
		r, err := Compile(src)
		require.NoError(t, err, src)
		for _, line := range strings.Split(src, "\n") {
			want, call, ok := strings.Cut(strings.TrimPrefix(line, "// "), ":")
			if !strings.HasPrefix(line, "// ") || !ok {
				continue
			}
			ev := docEvent(t, strings.TrimSpace(call))
			got, err := r.Match(NewEnv(ev))
			require.NoError(t, err, line)
			assert.Equal(t, want == "true", got, "%s\n%s", strings.SplitN(src, "\n", 2)[0], line)
			cases++
		}
	}
	assert.Greater(t, cases, 2*len(blocks), "every example has calls it is true and false for")
}

// docExamples are the expressions of the ```rule blocks of docs/rules.md.
func docExamples(t *testing.T) []string {
	doc, err := os.ReadFile("../../docs/rules.md")
	require.NoError(t, err)
	var out []string
	for _, b := range regexp.MustCompile("(?s)```rule\n(.*?)```").FindAllStringSubmatch(string(doc), -1) {
		out = append(out, b[1])
	}
	require.NotEmpty(t, out)
	return out
}

// docEvent builds the event an example names: "shell: CMD", "read: PATH",
// "write: PATH", "edit: PATH" or "prompt: TEXT", in a Claude Code session
// in /home/dev/proj.
func docEvent(t *testing.T, call string) *event.Event {
	kind, arg, _ := strings.Cut(call, ":")
	arg = strings.TrimSpace(arg)
	ev := &event.Event{Name: event.BeforeToolExecute, Native: "PreToolUse", Provider: "claude-code",
		Cwd: "/home/dev/proj", ProjectDir: "/home/dev/proj"}
	switch kind {
	case "shell":
		ev.Tool = &event.Tool{Name: event.ToolShell, Native: "Bash", Command: arg, Input: []byte(`{"command":` + quote(arg) + `}`)}
	case "read", "write", "edit":
		name := map[string]string{"read": event.ToolFileRead, "write": event.ToolFileWrite, "edit": event.ToolFileEdit}[kind]
		ev.Tool = &event.Tool{Name: name, Native: kind, FilePath: arg, Input: []byte(`{"file_path":` + quote(arg) + `}`)}
	case "prompt":
		ev.Name, ev.Native, ev.Prompt = event.BeforePrompt, "UserPromptSubmit", &arg
	default:
		t.Fatalf("unknown call %q", call)
	}
	return ev
}
