package dialect

import (
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/require"
)

// Each tool's result of a command, as in testdata/payloads, reaches a
// Claude Code hook as Claude's Bash tool_response and a Gemini CLI hook as
// Gemini's {llmContent, returnDisplay}.
func TestResponseShell(t *testing.T) {
	shell := &event.Tool{Name: event.ToolShell, Native: "shell"}
	for _, tc := range []struct {
		caller *provider.Provider
		out    string
		claude string
		gemini string
	}{
		{provider.Codex, `"# pass 42\n# fail 0\n"`,
			`{"stdout":"# pass 42\n# fail 0\n","stderr":"","interrupted":false,"isImage":false}`,
			`{"llmContent":"Output: # pass 42\n# fail 0","returnDisplay":"# pass 42\n# fail 0\n"}`},
		{provider.Gemini, `{"llmContent":"<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 3210\n</untrusted_context>","returnDisplay":""}`,
			`{"stdout":"","stderr":"","interrupted":false,"isImage":false}`, ``},
		{provider.Qwen, `{"llmContent":"Command: make\nDirectory: (root)\nOutput: built\nError: (none)\nExit Code: 0\nSignal: (none)","returnDisplay":""}`,
			`{"stdout":"built\n","stderr":"","interrupted":false,"isImage":false}`, ``},
		{provider.Copilot, `{"resultType":"success","textResultForLlm":"?? .github/\n<shellId: 0 completed with exit code 0>"}`,
			`{"stdout":"?? .github/","stderr":"","interrupted":false,"isImage":false}`,
			`{"llmContent":"Output: ?? .github/\nExit Code: 0","returnDisplay":"?? .github/"}`},
		{provider.Cursor, `{"output":"Test Files  12 passed (12)\n","exitCode":1}`,
			`{"stdout":"Test Files  12 passed (12)\n","stderr":"","interrupted":false,"isImage":false,"exitCode":1}`,
			`{"llmContent":"Output: Test Files  12 passed (12)\nExit Code: 1","returnDisplay":"Test Files  12 passed (12)\n"}`},
		{provider.Kiro, `"Output:\nok  \tproj/api\t0.412s\n\nExit Code: 0"`,
			`{"stdout":"ok  \tproj/api\t0.412s\n","stderr":"","interrupted":false,"isImage":false}`,
			`{"llmContent":"Output: ok  \tproj/api\t0.412s\nExit Code: 0","returnDisplay":"ok  \tproj/api\t0.412s\n"}`},
		{provider.Kiro, `{"result":[{"exit_status":"0","stderr":"warn","stdout":"ok\n"}],"success":true}`,
			`{"stdout":"ok\n","stderr":"warn","interrupted":false,"isImage":false}`,
			`{"llmContent":"Output: ok\nError: warn\nExit Code: 0","returnDisplay":"ok\n"}`},
		{provider.Claude, `{"stdout":"ok\n","stderr":"","interrupted":false,"isImage":false}`,
			``, `{"llmContent":"Output: ok","returnDisplay":"ok\n"}`},
	} {
		t.Run(tc.caller.ID, func(t *testing.T) {
			for _, want := range []struct {
				d    *provider.Provider
				want string
			}{{provider.Claude, tc.claude}, {provider.Gemini, tc.gemini}} {
				if want.want == "" {
					continue
				}
				got, note := response(want.d, tc.caller, shell, []byte(tc.out), "/p")
				require.JSONEq(t, want.want, string(got), want.d.ID)
				require.Contains(t, note, "written again in "+want.d.Name+"'s shape")
			}
		})
	}
}

// A write's result reaches a Claude hook as {filePath, success} and a
// Gemini hook with the file named in returnDisplay; a result in the
// dialect's own shape (Qwen Code's is Gemini CLI's) is given as it came.
func TestResponseFile(t *testing.T) {
	write := &event.Tool{Name: event.ToolFileWrite, Native: "apply_patch", FilePath: "/p/docs/a.md"}
	got, _ := response(provider.Claude, provider.Codex, write, []byte(`"Success. Updated the following files:\nA docs/a.md\n"`), "/p")
	require.JSONEq(t, `{"filePath":"/p/docs/a.md","success":true}`, string(got))
	got, _ = response(provider.Gemini, provider.Codex, write, []byte(`"Success."`), "/p")
	require.JSONEq(t, `{"llmContent":"Success.","returnDisplay":{"fileName":"a.md","filePath":"/p/docs/a.md"}}`, string(got))
	same := `{"llmContent":"x","returnDisplay":""}`
	got, note := response(provider.Gemini, provider.Qwen, write, []byte(same), "/p")
	require.Equal(t, same, string(got))
	require.Empty(t, note)
	search := &event.Tool{Name: event.ToolSearch, Native: "grep"}
	got, note = response(provider.Claude, provider.Gemini, search, []byte(same), "/p")
	require.Equal(t, same, string(got))
	require.Contains(t, note, "given as it sent it")
	rel := &event.Tool{Name: event.ToolFileRead, Native: "read", FilePath: "README.md"}
	got, _ = response(provider.Claude, provider.Cline, rel, []byte(`[{"query":"README.md","result":"# Demo","error":"","success":true}]`), "/p")
	require.JSONEq(t, `{"type":"text","file":{"filePath":"/p/README.md","content":"# Demo"}}`, string(got))
}
