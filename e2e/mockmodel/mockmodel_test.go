package mockmodel

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// post sends a body and returns the answer's body.
func post(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(b))
	return string(b)
}

// sseData joins the data lines of a server-sent event stream.
func sseData(stream string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(stream))
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

func start(t *testing.T) *Server {
	t.Helper()
	s, err := Start(Options{Log: filepath.Join(t.TempDir(), "log.jsonl"), Lifetime: time.Minute})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	require.True(t, strings.HasPrefix(s.URL, "http://127.0.0.1:"), s.URL)
	return s
}

func TestAnthropicToolCallThenText(t *testing.T) {
	s := start(t)
	first := post(t, s.URL+"/v1/messages?beta=true", `{"model":"m","stream":true,
		"tools":[{"name":"Read","input_schema":{}},{"name":"Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"},"timeout":{"type":"number"}},"required":["command"]}}],
		"messages":[{"role":"user","content":"hi"}]}`)
	data := sseData(first)
	require.Contains(t, first, "event: message_start")
	var args string
	for _, d := range data {
		if gjson.Get(d, "content_block.type").Str == "tool_use" {
			require.Equal(t, "Bash", gjson.Get(d, "content_block.name").Str)
		}
		if p := gjson.Get(d, "delta.partial_json"); p.Exists() {
			args = p.Str
		}
	}
	require.JSONEq(t, `{"command":"touch marker.txt","description":"Create the marker file"}`, args)

	second := post(t, s.URL+"/v1/messages", `{"model":"m","tools":[{"name":"Bash"}],
		"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}]}`)
	require.Equal(t, "done", gjson.Get(second, "content.0.text").Str)
	reqs := s.Requests()
	require.Len(t, reqs, 2)
	require.Equal(t, []string{"tool_call", "text"}, []string{reqs[0].Answer, reqs[1].Answer})
}

func TestChatCompletions(t *testing.T) {
	s := start(t)
	first := post(t, s.URL+"/v1/chat/completions", `{"model":"mock-model","stream":true,
		"tools":[{"type":"function","function":{"name":"run_shell_command","parameters":{"type":"object","properties":{"command":{"type":"string"},"is_background":{"type":"boolean"}},"required":["command","is_background"]}}}],
		"messages":[{"role":"user","content":"hi"}]}`)
	data := sseData(first)
	require.Equal(t, "[DONE]", data[len(data)-1])
	call := gjson.Get(data[0], "choices.0.delta.tool_calls.0")
	require.Equal(t, "run_shell_command", call.Get("function.name").Str)
	require.JSONEq(t, `{"command":"touch marker.txt","is_background":false}`, call.Get("function.arguments").Str)
	require.Equal(t, "tool_calls", gjson.Get(data[1], "choices.0.finish_reason").Str)

	second := post(t, s.URL+"/v1/chat/completions", `{"model":"mock-model","tools":[{"type":"function","function":{"name":"bash"}}],
		"messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c","content":"blocked"}]}`)
	require.Equal(t, "done", gjson.Get(second, "choices.0.message.content").Str)
}

func TestResponses(t *testing.T) {
	s := start(t)
	first := post(t, s.URL+"/v1/responses", `{"model":"m","stream":true,
		"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object","properties":{"cmd":{"type":"string"}},"required":["cmd"]}}],
		"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}]}`)
	require.Contains(t, first, "event: response.completed")
	var item gjson.Result
	for _, d := range sseData(first) {
		if gjson.Get(d, "type").Str == "response.output_item.done" {
			item = gjson.Get(d, "item")
		}
	}
	require.Equal(t, "function_call", item.Get("type").Str)
	require.JSONEq(t, `{"cmd":"touch marker.txt"}`, item.Get("arguments").Str)

	second := post(t, s.URL+"/v1/responses", `{"model":"m","stream":true,"tools":[{"type":"function","name":"exec_command"}],
		"input":[{"type":"function_call_output","call_id":"c","output":"ok"}]}`)
	require.Contains(t, second, `"text":"done"`)
}

func TestGemini(t *testing.T) {
	s := start(t)
	first := post(t, s.URL+"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", `{
		"tools":[{"functionDeclarations":[{"name":"run_shell_command","parametersJsonSchema":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}}]}],
		"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)
	data := sseData(first)
	require.Len(t, data, 1)
	require.JSONEq(t, `{"command":"touch marker.txt"}`, gjson.Get(data[0], "candidates.0.content.parts.0.functionCall.args").Raw)

	second := post(t, s.URL+"/v1beta/models/gemini-2.5-flash:generateContent", `{
		"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}],
		"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{}}}]}]}`)
	require.Equal(t, "done", gjson.Get(second, "candidates.0.content.parts.0.text").Str)
}

// A request without a shell tool (title generation, a quota probe) gets
// text, and the log holds one line per request.
func TestNoShellIsText(t *testing.T) {
	dir := t.TempDir()
	s, err := Start(Options{Log: filepath.Join(dir, "log.jsonl"), Lifetime: time.Minute})
	require.NoError(t, err)
	out := post(t, s.URL+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"title?"}]}`)
	require.Equal(t, "done", gjson.Get(out, "choices.0.message.content").Str)
	s.Close()
	b, err := os.ReadFile(filepath.Join(dir, "log.jsonl"))
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(b), "\n"))
	require.Equal(t, "text", gjson.Get(string(b), "answer").Str)
}

func TestArgsArgv(t *testing.T) {
	schema := gjson.Parse(`{"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}},"workdir":{"type":"string"},"mode":{"type":"string","enum":["sync","async"]}},"required":["command","mode"]}`)
	require.JSONEq(t, `{"command":["bash","-lc","ls"],"mode":"sync"}`, string(Args(schema, "ls")))
}

func TestClosesItself(t *testing.T) {
	s, err := Start(Options{Lifetime: 50 * time.Millisecond})
	require.NoError(t, err)
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not close after its lifetime")
	}
}

func TestArgsCommandList(t *testing.T) {
	// Cline CLI 3.0.65's run_commands, as its requests declare it.
	schema := gjson.Parse(`{"type":"object","properties":{"commands":{"type":"array","items":{"type":"string"}}},"required":["commands"],"additionalProperties":false}`)
	require.JSONEq(t, `{"commands":["touch marker.txt"]}`, string(Args(schema, "touch marker.txt")))
}
