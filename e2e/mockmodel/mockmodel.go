// Package mockmodel is a model API that plays one fixed conversation with
// any AI coding tool: while the conversation holds no tool result yet and the
// request offers a shell tool, it asks for one shell call; otherwise it
// answers the text "done". It records every request body, so a test can see
// what a tool sent to its model (a hook's context, a block reason).
//
// It speaks the five wire protocols the tools use, streaming or not:
//   - Anthropic Messages (POST …/v1/messages): Claude Code;
//   - OpenAI Chat Completions (POST …/chat/completions): Qwen Code, Copilot
//     CLI with its own provider, Kimi Code, OpenCode;
//   - OpenAI Responses (POST …/responses): Codex;
//   - Gemini generateContent / streamGenerateContent: Gemini CLI;
//   - Augment's backend (POST /get-models, /chat-stream and the calls
//     Auggie makes around them): Auggie, which has no model setting of its
//     own and talks only to the tenant its session names (augment.go).
//
// It listens on 127.0.0.1 only and closes itself after its lifetime.
package mockmodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
)

// ShellTools are the names under which the tools offer their shell to the
// model, per the request bodies they send.
var ShellTools = []string{
	"Bash",              // Claude Code, Kimi Code
	"bash",              // Copilot CLI, OpenCode
	"run_shell_command", // Gemini CLI, Qwen Code
	"exec_command",      // Codex (unified exec)
	"shell_command",     // Codex (string form)
	"shell",             // Codex (argv form)
	"Execute",           // Factory Droid
	"run_commands",      // Cline CLI (a list of commands)
	"launch-process",    // Auggie
}

// Request is one recorded request.
type Request struct {
	Seq      int             `json:"seq"`
	Time     time.Time       `json:"time"`
	Method   string          `json:"method"`
	Path     string          `json:"path"`
	Protocol string          `json:"protocol"`
	Answer   string          `json:"answer"` // tool_call, text, other
	Body     json.RawMessage `json:"body,omitempty"`
	Raw      string          `json:"raw,omitempty"` // a body that is not JSON
}

// Server is a running mock model.
type Server struct {
	// URL is http://127.0.0.1:PORT.
	URL string

	command   string
	text      string
	textDelay time.Duration
	ln        net.Listener
	srv       *http.Server
	logFile   *os.File

	mu       sync.Mutex
	requests []Request
	closed   chan struct{}
	once     sync.Once
}

// Options configure a server.
type Options struct {
	// Command is the shell command the model asks for.
	Command string
	// Log, when set, receives one JSON line per request.
	Log string
	// Lifetime bounds how long the server runs; it closes itself after.
	Lifetime time.Duration
	// Text is what the model says instead of "done": a judge's verdict,
	// for a prompt handler.
	Text string
	// TextDelay holds back every text answer (a tool that kills its
	// after-tool hooks as soon as the model's next step ends needs it).
	TextDelay time.Duration
}

// Start listens on a free port of 127.0.0.1.
func Start(o Options) (*Server, error) {
	if o.Command == "" {
		o.Command = "touch marker.txt"
	}
	if o.Text == "" {
		o.Text = "done"
	}
	if o.Lifetime <= 0 {
		o.Lifetime = 10 * time.Minute
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), command: o.Command, text: o.Text, textDelay: o.TextDelay, ln: ln, closed: make(chan struct{})}
	if o.Log != "" {
		s.logFile, err = os.OpenFile(o.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			ln.Close()
			return nil, err
		}
	}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	go func() {
		select {
		case <-time.After(o.Lifetime):
			s.Close()
		case <-s.closed:
		}
	}()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closed)
		_ = s.srv.Close()
		if s.logFile != nil {
			_ = s.logFile.Close()
		}
	})
}

// Done is closed when the server has stopped.
func (s *Server) Done() <-chan struct{} { return s.closed }

// Requests returns what was recorded so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	proto := protocol(r)
	rec := Request{Time: time.Now().UTC(), Method: r.Method, Path: r.URL.RequestURI(), Protocol: proto}
	if gjson.ValidBytes(body) && len(bytes.TrimSpace(body)) > 0 {
		rec.Body = json.RawMessage(compact(body))
	} else if len(body) > 0 {
		rec.Raw = string(body)
	}
	req := gjson.ParseBytes(body)
	var ans answer
	switch proto {
	case "anthropic", "chat", "responses", "gemini", "augment":
		ans = s.decide(proto, req)
		rec.Answer = ans.kind()
	default:
		rec.Answer = "other"
	}
	s.record(&rec)
	if rec.Answer == "text" && s.textDelay > 0 {
		select {
		case <-time.After(s.textDelay):
		case <-s.closed:
		case <-r.Context().Done():
		}
	}

	switch proto {
	case "anthropic":
		writeAnthropic(w, req, ans, rec.Seq)
	case "chat":
		writeChat(w, req, ans, rec.Seq)
	case "responses":
		writeResponses(w, req, ans, rec.Seq)
	case "gemini":
		writeGemini(w, r, req, ans)
	case "augment":
		writeAugment(w, ans, rec.Seq)
	case "augment-models":
		writeJSON(w, augmentModels)
	case "augment-side":
		writeJSON(w, augmentSide[r.URL.Path])
	case "anthropic-count":
		writeJSON(w, `{"input_tokens": 12}`)
	case "gemini-count":
		writeJSON(w, `{"totalTokens": 12}`)
	case "models":
		writeJSON(w, `{"object":"list","data":[{"id":"mock-model","object":"model","created":1700000000,"owned_by":"mock"}],"models":[]}`)
	default:
		http.Error(w, `{"error":{"message":"mock model: unknown endpoint"}}`, http.StatusNotFound)
	}
}

func (s *Server) record(rec *Request) {
	s.mu.Lock()
	rec.Seq = len(s.requests) + 1
	s.requests = append(s.requests, *rec)
	f := s.logFile
	s.mu.Unlock()
	if f != nil {
		line, _ := json.Marshal(rec)
		_, _ = f.Write(append(line, '\n'))
	}
}

func protocol(r *http.Request) string {
	p := r.URL.Path
	if proto := augmentProtocol(r); proto != "" {
		return proto
	}
	switch {
	case strings.HasSuffix(p, "/messages/count_tokens"):
		return "anthropic-count"
	case strings.HasSuffix(p, "/messages"):
		return "anthropic"
	case strings.HasSuffix(p, "/chat/completions"):
		return "chat"
	case strings.HasSuffix(p, "/responses"):
		return "responses"
	case strings.Contains(p, ":countTokens"):
		return "gemini-count"
	case strings.Contains(p, ":generateContent"), strings.Contains(p, ":streamGenerateContent"):
		return "gemini"
	case r.Method == http.MethodGet && strings.HasSuffix(p, "/models"):
		return "models"
	}
	return "unknown"
}

// answer is what the model says: a shell call (tool set) or text.
type answer struct {
	tool string          // the shell tool's name; "" for text
	args json.RawMessage // its arguments
	text string
}

func (a answer) kind() string {
	if a.tool != "" {
		return "tool_call"
	}
	return "text"
}

// decide plays the conversation: a shell call first, "done" (or the
// Text option) once the conversation holds a tool result (or offers no
// shell).
func (s *Server) decide(proto string, req gjson.Result) answer {
	if hasToolResult(proto, req) {
		return answer{text: s.text}
	}
	name, schema, ok := shellTool(proto, req)
	if !ok {
		return answer{text: s.text}
	}
	args := Args(schema, s.command)
	if proto == "augment" {
		args = augmentShellArgs(args, req)
	}
	return answer{tool: name, args: args}
}

// hasToolResult reports whether the conversation already holds the result
// of a tool call (a blocked call's error counts).
func hasToolResult(proto string, req gjson.Result) bool {
	found := false
	switch proto {
	case "anthropic":
		req.Get("messages").ForEach(func(_, m gjson.Result) bool {
			m.Get("content").ForEach(func(_, c gjson.Result) bool {
				if c.Get("type").Str == "tool_result" {
					found = true
				}
				return !found
			})
			return !found
		})
	case "chat":
		req.Get("messages").ForEach(func(_, m gjson.Result) bool {
			found = m.Get("role").Str == "tool"
			return !found
		})
	case "responses":
		req.Get("input").ForEach(func(_, it gjson.Result) bool {
			t := it.Get("type").Str
			found = t == "function_call_output" || t == "custom_tool_call_output" || t == "local_shell_call_output"
			return !found
		})
	case "gemini":
		req.Get("contents").ForEach(func(_, c gjson.Result) bool {
			c.Get("parts").ForEach(func(_, p gjson.Result) bool {
				found = p.Get("functionResponse").Exists()
				return !found
			})
			return !found
		})
	case "augment":
		found = augmentHasToolResult(req)
	}
	return found
}

// shellTool finds the shell among the tools the request offers, with its
// parameter schema.
func shellTool(proto string, req gjson.Result) (string, gjson.Result, bool) {
	type tool struct {
		name   string
		schema gjson.Result
	}
	var tools []tool
	switch proto {
	case "anthropic":
		req.Get("tools").ForEach(func(_, t gjson.Result) bool {
			tools = append(tools, tool{t.Get("name").Str, t.Get("input_schema")})
			return true
		})
	case "chat":
		req.Get("tools").ForEach(func(_, t gjson.Result) bool {
			tools = append(tools, tool{t.Get("function.name").Str, t.Get("function.parameters")})
			return true
		})
	case "responses":
		req.Get("tools").ForEach(func(_, t gjson.Result) bool {
			if t.Get("type").Str == "function" {
				tools = append(tools, tool{t.Get("name").Str, t.Get("parameters")})
			}
			return true
		})
	case "gemini":
		req.Get("tools").ForEach(func(_, t gjson.Result) bool {
			t.Get("functionDeclarations").ForEach(func(_, f gjson.Result) bool {
				schema := f.Get("parametersJsonSchema")
				if !schema.Exists() {
					schema = f.Get("parameters")
				}
				tools = append(tools, tool{f.Get("name").Str, schema})
				return true
			})
			return true
		})
	case "augment":
		// The schema is a JSON document in a string.
		req.Get("tool_definitions").ForEach(func(_, t gjson.Result) bool {
			tools = append(tools, tool{t.Get("name").Str, gjson.Parse(t.Get("input_schema_json").Str)})
			return true
		})
	}
	for _, want := range ShellTools {
		for _, t := range tools {
			if t.name == want {
				return t.name, t.schema, true
			}
		}
	}
	return "", gjson.Result{}, false
}

// Args fills a shell tool's parameters from its JSON schema: the command
// (a string, an argv array, or a one-line list of command lines) under
// whichever key holds it, a
// description, and a neutral value for every other required parameter.
func Args(schema gjson.Result, command string) json.RawMessage {
	out := map[string]any{}
	required := map[string]bool{}
	schema.Get("required").ForEach(func(_, r gjson.Result) bool {
		required[r.Str] = true
		return true
	})
	props := schema.Get("properties")
	if !props.Exists() {
		out["command"] = command
	}
	props.ForEach(func(k, p gjson.Result) bool {
		typ := strings.ToLower(p.Get("type").String())
		switch k.Str {
		case "command", "cmd":
			if typ == "array" {
				out[k.Str] = []string{"bash", "-lc", command}
			} else {
				out[k.Str] = command
			}
			return true
		case "commands":
			// A list of whole command lines (Cline's run_commands), not argv.
			out[k.Str] = []string{command}
			return true
		case "description":
			out[k.Str] = "Create the marker file"
			return true
		}
		if !required[k.Str] {
			return true
		}
		if e := p.Get("enum"); e.IsArray() && len(e.Array()) > 0 {
			out[k.Str] = e.Array()[0].Value()
			return true
		}
		switch typ {
		case "boolean":
			out[k.Str] = false
		case "integer", "number":
			out[k.Str] = 30000
		case "array":
			out[k.Str] = []any{}
		case "object":
			out[k.Str] = map[string]any{}
		default:
			out[k.Str] = "marker"
		}
		return true
	})
	b, _ := json.Marshal(out)
	return b
}

func compact(b []byte) []byte {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return b
	}
	return out.Bytes()
}

func writeJSON(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, body)
}

// sse writes server-sent events and flushes after each.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

func (s *sse) event(name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	if s.f != nil {
		s.f.Flush()
	}
}

func (s *sse) raw(line string) {
	fmt.Fprintf(s.w, "data: %s\n\n", line)
	if s.f != nil {
		s.f.Flush()
	}
}

type obj = map[string]any

func model(req gjson.Result, def string) string {
	if m := req.Get("model").Str; m != "" {
		return m
	}
	return def
}

// writeAnthropic answers a Messages request.
func writeAnthropic(w http.ResponseWriter, req gjson.Result, a answer, seq int) {
	id := fmt.Sprintf("msg_mock%04d", seq)
	var block obj
	stop := "end_turn"
	if a.tool != "" {
		block = obj{"type": "tool_use", "id": fmt.Sprintf("toolu_mock%04d", seq), "name": a.tool, "input": json.RawMessage(a.args)}
		stop = "tool_use"
	} else {
		block = obj{"type": "text", "text": a.text}
	}
	usage := obj{"input_tokens": 12, "output_tokens": 3, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !req.Get("stream").Bool() {
		writeJSONValue(w, obj{"id": id, "type": "message", "role": "assistant", "model": model(req, "claude-mock"),
			"content": []obj{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	s := newSSE(w)
	s.event("message_start", obj{"type": "message_start", "message": obj{"id": id, "type": "message", "role": "assistant",
		"model": model(req, "claude-mock"), "content": []obj{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	if a.tool != "" {
		start := obj{"type": "tool_use", "id": block["id"], "name": a.tool, "input": obj{}}
		s.event("content_block_start", obj{"type": "content_block_start", "index": 0, "content_block": start})
		s.event("content_block_delta", obj{"type": "content_block_delta", "index": 0,
			"delta": obj{"type": "input_json_delta", "partial_json": string(a.args)}})
	} else {
		s.event("content_block_start", obj{"type": "content_block_start", "index": 0, "content_block": obj{"type": "text", "text": ""}})
		s.event("content_block_delta", obj{"type": "content_block_delta", "index": 0, "delta": obj{"type": "text_delta", "text": a.text}})
	}
	s.event("content_block_stop", obj{"type": "content_block_stop", "index": 0})
	s.event("message_delta", obj{"type": "message_delta", "delta": obj{"stop_reason": stop, "stop_sequence": nil}, "usage": obj{"output_tokens": 3}})
	s.event("message_stop", obj{"type": "message_stop"})
}

// writeChat answers a Chat Completions request.
func writeChat(w http.ResponseWriter, req gjson.Result, a answer, seq int) {
	id := fmt.Sprintf("chatcmpl-mock%04d", seq)
	m := model(req, "mock-model")
	created := time.Now().Unix()
	usage := obj{"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15}
	var call obj
	finish := "stop"
	if a.tool != "" {
		call = obj{"id": fmt.Sprintf("call_mock%04d", seq), "type": "function", "function": obj{"name": a.tool, "arguments": string(a.args)}}
		finish = "tool_calls"
	}
	if !req.Get("stream").Bool() {
		msg := obj{"role": "assistant", "content": nil}
		if call != nil {
			msg["tool_calls"] = []obj{call}
		} else {
			msg["content"] = a.text
		}
		writeJSONValue(w, obj{"id": id, "object": "chat.completion", "created": created, "model": m,
			"choices": []obj{{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	s := newSSE(w)
	chunk := func(delta obj, finish any, usage any) obj {
		c := obj{"id": id, "object": "chat.completion.chunk", "created": created, "model": m,
			"choices": []obj{{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		return c
	}
	if call != nil {
		call["index"] = 0
		s.event("", chunk(obj{"role": "assistant", "content": nil, "tool_calls": []obj{call}}, nil, nil))
	} else {
		s.event("", chunk(obj{"role": "assistant", "content": a.text}, nil, nil))
	}
	s.event("", chunk(obj{}, finish, usage))
	s.raw("[DONE]")
}

// writeResponses answers a Responses request (always streamed by Codex).
func writeResponses(w http.ResponseWriter, req gjson.Result, a answer, seq int) {
	id := fmt.Sprintf("resp_mock%04d", seq)
	var item obj
	if a.tool != "" {
		item = obj{"type": "function_call", "id": fmt.Sprintf("fc_mock%04d", seq), "call_id": fmt.Sprintf("call_mock%04d", seq),
			"name": a.tool, "arguments": string(a.args), "status": "completed"}
	} else {
		item = obj{"type": "message", "id": fmt.Sprintf("msg_mock%04d", seq), "role": "assistant", "status": "completed",
			"content": []obj{{"type": "output_text", "text": a.text, "annotations": []any{}}}}
	}
	usage := obj{"input_tokens": 12, "input_tokens_details": obj{"cached_tokens": 0}, "output_tokens": 3,
		"output_tokens_details": obj{"reasoning_tokens": 0}, "total_tokens": 15}
	resp := obj{"id": id, "object": "response", "created_at": time.Now().Unix(), "model": model(req, "mock-model"), "status": "completed",
		"output": []obj{item}, "usage": usage}
	if !req.Get("stream").Bool() {
		writeJSONValue(w, resp)
		return
	}
	s := newSSE(w)
	s.event("response.created", obj{"type": "response.created", "response": obj{"id": id, "object": "response", "status": "in_progress", "output": []obj{}}})
	s.event("response.output_item.added", obj{"type": "response.output_item.added", "output_index": 0, "item": item})
	if a.tool == "" {
		s.event("response.output_text.delta", obj{"type": "response.output_text.delta", "item_id": item["id"], "output_index": 0, "content_index": 0, "delta": a.text})
	}
	s.event("response.output_item.done", obj{"type": "response.output_item.done", "output_index": 0, "item": item})
	s.event("response.completed", obj{"type": "response.completed", "response": resp})
}

// writeGemini answers generateContent or streamGenerateContent.
func writeGemini(w http.ResponseWriter, r *http.Request, req gjson.Result, a answer) {
	var part obj
	if a.tool != "" {
		part = obj{"functionCall": obj{"name": a.tool, "args": json.RawMessage(a.args)}}
	} else {
		text := a.text
		// A structured request (next-speaker check, routing) wants JSON.
		if req.Get("generationConfig.responseMimeType").Str == "application/json" || req.Get("generationConfig.responseJsonSchema").Exists() || req.Get("generationConfig.responseSchema").Exists() {
			text = `{"reasoning": "done", "next_speaker": "user", "model_choice": "flash"}`
		}
		part = obj{"text": text}
	}
	resp := obj{
		"candidates":    []obj{{"content": obj{"role": "model", "parts": []obj{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": obj{"promptTokenCount": 12, "candidatesTokenCount": 3, "totalTokenCount": 15},
		"modelVersion":  "gemini-2.5-flash",
	}
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
		writeJSONValue(w, resp)
		return
	}
	if r.URL.Query().Get("alt") == "sse" {
		newSSE(w).event("", resp)
		return
	}
	// Without alt=sse the stream is one JSON array.
	w.Header().Set("Content-Type", "application/json")
	b, _ := json.Marshal([]obj{resp})
	_, _ = w.Write(b)
}

func writeJSONValue(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, string(b))
}
