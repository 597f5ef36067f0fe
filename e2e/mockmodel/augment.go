package mockmodel

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/tidwall/gjson"
)

// Augment's backend, as Auggie calls it (read in the bundle of
// @augmentcode/auggie 0.36.0 and measured against this stand-in): every
// call is a POST of JSON to <tenantURL><endpoint>, the tenant named by the
// session in AUGMENT_SESSION_AUTH.
//   - get-models: the models and the feature flags. Hooks run only when
//     feature_flags.enable_hooks is true.
//   - chat-stream: one turn. The request offers the tools in
//     tool_definitions[] (name, input_schema_json: a schema in a string) and
//     carries the conversation in chat_history[] (request_nodes,
//     response_nodes) and nodes[]; a tool's result is a request node of type
//     1 with tool_result_node. The answer is NDJSON, one BackChatResult a
//     line: text, nodes[] (type 5 is a tool call: tool_use.tool_use_id,
//     tool_name, input_json) and stop_reason (1 end of turn, 3 tool use).
//   - around them, calls whose answer may be empty: the MCP server configs
//     of the tenant and the user, the remote tools, the blobs the backend
//     lacks (find-missing), error reports.

// augmentSide are the calls around a turn, with their answers: nothing to
// configure, nothing to add.
var augmentSide = map[string]string{
	"/settings/get-mcp-tenant-configs": `{}`,
	"/settings/get-mcp-user-configs":   `{}`,
	"/agents/list-remote-tools":        `{"tools":[]}`,
	"/report-error":                    `{}`,
	"/find-missing":                    `{"unknown_memory_names":[],"nonindexed_blob_names":[]}`,
}

// augmentModels is get-models' answer: one model, hooks on.
const augmentModels = `{"default_model":"mock-model","models":[{"name":"mock-model","suggested_prefix_char_count":0,"suggested_suffix_char_count":0}],` +
	`"feature_flags":{"enable_hooks":true}}`

// augmentProtocol names an Augment backend call, or "".
func augmentProtocol(r *http.Request) string {
	if r.Method != http.MethodPost {
		return ""
	}
	switch p := r.URL.Path; {
	case p == "/chat-stream":
		return "augment"
	case p == "/get-models":
		return "augment-models"
	case augmentSide[p] != "":
		return "augment-side"
	}
	return ""
}

// augmentHasToolResult reports whether the turn's nodes or its history hold
// a tool's result.
func augmentHasToolResult(req gjson.Result) bool {
	found := false
	isResult := func(_, n gjson.Result) bool {
		found = found || n.Get("tool_result_node").Exists()
		return !found
	}
	req.Get("nodes").ForEach(isResult)
	req.Get("chat_history").ForEach(func(_, ex gjson.Result) bool {
		ex.Get("request_nodes").ForEach(isResult)
		return !found
	})
	return found
}

// augmentShellArgs completes launch-process' arguments: wait for the
// command (else it runs in the background and the turn ends before it
// does) in the workspace's folder, which the request names.
func augmentShellArgs(args json.RawMessage, req gjson.Result) json.RawMessage {
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return args
	}
	if _, ok := m["wait"]; ok {
		m["wait"] = true
	}
	if _, ok := m["cwd"]; ok {
		cwd := ""
		req.Get("nodes").ForEach(func(_, n gjson.Result) bool {
			cwd = n.Get("ide_state_node.current_terminal.current_working_directory").Str
			return cwd == ""
		})
		if cwd == "" {
			delete(m, "cwd")
		} else {
			m["cwd"] = cwd
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return args
	}
	return b
}

// writeAugment answers chat-stream: the answer as one NDJSON line, then the
// line that ends the turn.
func writeAugment(w http.ResponseWriter, a answer, seq int) {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	line := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		_, _ = w.Write(append(b, '\n'))
		if f != nil {
			f.Flush()
		}
	}
	if a.tool != "" {
		line(obj{"text": "", "nodes": []obj{{"id": 1, "type": 5, "content": "", "tool_use": obj{
			"tool_use_id": fmt.Sprintf("toolu_mock%04d", seq), "tool_name": a.tool, "input_json": string(a.args)}}}})
		line(obj{"text": "", "stop_reason": 3})
		return
	}
	line(obj{"text": a.text})
	line(obj{"text": "", "stop_reason": 1})
}
