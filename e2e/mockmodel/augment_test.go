package mockmodel

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// ndjson splits an NDJSON answer into its lines.
func ndjson(t *testing.T, body string) []gjson.Result {
	t.Helper()
	var out []gjson.Result
	for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
		require.True(t, gjson.Valid(l), l)
		out = append(out, gjson.Parse(l))
	}
	return out
}

// augmentTools is launch-process as Auggie 0.36.0 declares it: the schema
// in a string, every parameter required.
const augmentTools = `"tool_definitions":[{"name":"view","input_schema_json":"{}"},{"name":"launch-process","input_schema_json":` +
	`"{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"},\"wait\":{\"type\":\"boolean\"},\"max_wait_seconds\":{\"type\":\"number\"},\"cwd\":{\"type\":\"string\"},\"keep_stdin_open\":{\"type\":\"boolean\"}},\"required\":[\"command\",\"wait\",\"max_wait_seconds\",\"cwd\"]}"}]`

func TestAugment(t *testing.T) {
	s := start(t)
	models := post(t, s.URL+"/get-models", `{}`)
	require.True(t, gjson.Get(models, "feature_flags.enable_hooks").Bool(), models)
	require.Equal(t, "mock-model", gjson.Get(models, "default_model").Str)

	require.JSONEq(t, `{"tools":[]}`, post(t, s.URL+"/agents/list-remote-tools", `{"tool_id_list":{"tool_ids":[0]}}`))

	first := ndjson(t, post(t, s.URL+"/chat-stream", `{`+augmentTools+`,"chat_history":[],
		"nodes":[{"id":1,"type":0,"text_node":{"content":"hi"}},{"id":2,"type":4,"ide_state_node":{"current_terminal":{"terminal_id":0,"current_working_directory":"/w/proj"}}}]}`))
	use := first[0].Get("nodes.0")
	require.Equal(t, int64(5), use.Get("type").Int())
	require.Equal(t, "launch-process", use.Get("tool_use.tool_name").Str)
	require.JSONEq(t, `{"command":"touch marker.txt","wait":true,"max_wait_seconds":30000,"cwd":"/w/proj"}`, use.Get("tool_use.input_json").Str)
	require.Equal(t, int64(3), first[len(first)-1].Get("stop_reason").Int())

	// The result of the call, in the turn's nodes and then in the history.
	for _, body := range []string{
		`{` + augmentTools + `,"nodes":[{"id":1,"type":1,"tool_result_node":{"tool_use_id":"t","content":"blocked","is_error":true}}]}`,
		`{` + augmentTools + `,"chat_history":[{"request_nodes":[{"id":1,"type":1,"tool_result_node":{"tool_use_id":"t","content":"ok"}}]}],"nodes":[]}`,
	} {
		second := ndjson(t, post(t, s.URL+"/chat-stream", body))
		require.Equal(t, "done", second[0].Get("text").Str)
		require.Equal(t, int64(1), second[len(second)-1].Get("stop_reason").Int())
	}
	var answers []string
	for _, q := range s.Requests() {
		answers = append(answers, q.Protocol+":"+q.Answer)
	}
	require.Equal(t, []string{"augment-models:other", "augment-side:other", "augment:tool_call", "augment:text", "augment:text"}, answers)
}
