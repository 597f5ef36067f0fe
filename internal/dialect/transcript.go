package dialect

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/private"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// A hook that reads transcript_path reads it in its own tool's format: a
// Claude Code Stop hook looks for the last line of type "assistant". A
// caller's transcript is in the caller's format (Gemini CLI's one JSON
// document, Codex's rollout lines, Copilot's events, Qwen Code's parts),
// so it is read into messages and tool calls and written again, for the
// call only, in the format the dialect's hooks read.

// maxTranscript bounds what is read of a transcript: the end of a longer
// one (whole lines), which holds the turn a hook asks about.
const maxTranscript = 8 << 20

// turn is one message of a transcript.
type turn struct {
	assistant bool
	text      string
	uses      []toolUse
	results   []toolResult
	timestamp string
}

type toolUse struct {
	id, name string
	input    []byte // a JSON object
}

type toolResult struct {
	id, content string
	isError     bool
}

// Transcript formats, as sniffed from the file.
const (
	formatClaude  = "Claude Code"
	formatGemini  = "Gemini CLI"
	formatCodex   = "Codex"
	formatCopilot = "Copilot"
	formatQwen    = "Qwen Code"
	formatCursor  = "Cursor"
)

// headSize bounds the read that names a transcript's format when nothing
// but its format is needed (a hook of the tool whose format it is reads
// it as it is): the first lines of a JSONL transcript, or the keys of a
// session document before its messages.
const headSize = 64 << 10

// openTranscript opens a transcript for reading and says its size.
func openTranscript(path string) (*os.File, int64, error) {
	f, err := private.Open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s is not a regular file", path)
	}
	return f, st.Size(), nil
}

// readTranscript reads a transcript of any of the known formats into
// turns, and names its format.
func readTranscript(path string) ([]turn, string, error) {
	f, size, err := openTranscript(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	tail := size > maxTranscript
	if tail {
		if _, err := f.Seek(size-maxTranscript, io.SeekStart); err != nil {
			return nil, "", err
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTranscript))
	if err != nil {
		return nil, "", err
	}
	if tail {
		// Whole lines only.
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	return parseTranscript(data, !tail)
}

// parseTranscript reads data, a transcript or (whole is false) the whole
// lines of its end, into turns and names its format.
func parseTranscript(data []byte, whole bool) ([]turn, string, error) {
	trim := bytes.TrimSpace(data)
	if len(trim) > 0 && trim[0] == '{' && whole && gjson.ValidBytes(trim) {
		if doc := gjson.ParseBytes(trim); doc.Get("messages").IsArray() {
			return geminiTurns(doc), formatGemini, nil
		}
	}
	var turns []turn
	format := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), maxTranscript)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || !gjson.ValidBytes(line) {
			continue
		}
		l := gjson.ParseBytes(line)
		t, fm, ok := lineTurn(l)
		if !ok {
			continue
		}
		if format == "" {
			format = fm
		}
		turns = append(turns, t)
	}
	if err := sc.Err(); err != nil {
		return nil, "", err
	}
	if format == "" {
		return nil, "", errors.New("no message in a format hookshim reads")
	}
	return turns, format, nil
}

// sniffTranscript names a transcript's format from its head alone, as
// readTranscript would from the whole: "" when the head does not tell
// (its first message lies beyond it), and the whole must be read.
func sniffTranscript(path string) (string, error) {
	f, size, err := openTranscript(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, headSize))
	if err != nil {
		return "", err
	}
	if size <= int64(len(head)) {
		// All of it: read as a whole.
		_, format, err := parseTranscript(head, true)
		return format, err
	}
	first, _, complete := bytes.Cut(bytes.TrimLeft(head, " \t\r\n"), []byte("\n"))
	if !complete {
		// One line longer than the head: a JSONL message or a session
		// document on one line; only the whole says which.
		return "", nil
	}
	if first = bytes.TrimSpace(first); len(first) > 0 && first[0] == '{' && !gjson.ValidBytes(first) {
		// A document over several lines (Gemini CLI writes its session
		// file indented): a session file when its messages come before
		// the head ends.
		if sessionDocument(head) {
			return formatGemini, nil
		}
		return "", nil
	}
	// JSON lines: the format of the first message, the head's last line
	// left out unless it is whole.
	lines := head[:bytes.LastIndexByte(head, '\n')+1]
	for line := range bytes.Lines(lines) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || !gjson.ValidBytes(line) {
			continue
		}
		if _, fm, ok := lineTurn(gjson.ParseBytes(line)); ok {
			return fm, nil
		}
	}
	return "", nil
}

// sessionDocument reports whether head begins a JSON object whose key
// messages, met before head ends, holds an array.
func sessionDocument(head []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		if key == "messages" {
			tok, err := dec.Token()
			return err == nil && tok == json.Delim('[')
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
}

// lineTurn reads one line of a JSONL transcript, whichever tool wrote it.
func lineTurn(l gjson.Result) (turn, string, bool) {
	ts := l.Get("timestamp").String()
	typ := l.Get("type").Str
	switch {
	case typ == "response_item": // Codex rollout
		return codexTurn(l.Get("payload"), ts)
	case typ == "user.message" || typ == "assistant.message" || typ == "tool.execution_complete": // Copilot events
		return copilotTurn(typ, l.Get("data"), ts)
	case l.Get("message.parts").IsArray(): // Qwen Code
		return qwenTurn(l, ts)
	case (typ == "user" || typ == "assistant") && l.Get("message.content").Exists(): // Claude Code
		return claudeTurn(typ == "assistant", l.Get("message.content"), ts), formatClaude, true
	case l.Get("role").Type == gjson.String && l.Get("message.content").Exists(): // Cursor
		role := l.Get("role").Str
		if role != "user" && role != "assistant" {
			return turn{}, "", false
		}
		return claudeTurn(role == "assistant", l.Get("message.content"), ts), formatCursor, true
	}
	return turn{}, "", false
}

// claudeTurn reads content in Claude's (and Cursor's) shape: a string or
// blocks of text, tool_use and tool_result.
func claudeTurn(assistant bool, content gjson.Result, ts string) turn {
	t := turn{assistant: assistant, timestamp: ts}
	if content.Type == gjson.String {
		t.text = content.Str
		return t
	}
	var texts []string
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			texts = append(texts, b.Get("text").Str)
		case "tool_use":
			t.uses = append(t.uses, toolUse{b.Get("id").Str, b.Get("name").Str, objectOr(b.Get("input"))})
		case "tool_result":
			t.results = append(t.results, toolResult{b.Get("tool_use_id").Str, textOf(b.Get("content")), b.Get("is_error").Bool()})
		}
		return true
	})
	t.text = strings.Join(texts, "\n")
	return t
}

func codexTurn(p gjson.Result, ts string) (turn, string, bool) {
	t := turn{timestamp: ts}
	switch p.Get("type").Str {
	case "message":
		role := p.Get("role").Str
		if role != "user" && role != "assistant" {
			return t, "", false
		}
		t.assistant = role == "assistant"
		var texts []string
		p.Get("content").ForEach(func(_, c gjson.Result) bool {
			if s := c.Get("text").Str; s != "" {
				texts = append(texts, s)
			}
			return true
		})
		t.text = strings.Join(texts, "\n")
		if !t.assistant && strings.HasPrefix(strings.TrimSpace(t.text), "<") &&
			(strings.Contains(t.text, "<environment_context>") || strings.Contains(t.text, "<user_instructions>")) {
			// What Codex tells the model about the session, not the user.
			return t, "", false
		}
	case "function_call", "custom_tool_call", "local_shell_call":
		t.assistant = true
		in := p.Get("arguments")
		if !in.Exists() {
			in = p.Get("input")
		}
		input := []byte(nil)
		switch {
		case in.Type == gjson.String && gjson.Valid(in.Str) && gjson.Parse(in.Str).IsObject():
			input = []byte(in.Str)
		case in.Type == gjson.String:
			input = (&wire.Object{}).Str("input", in.Str).Bytes()
		default:
			input = objectOr(in)
		}
		t.uses = []toolUse{{p.Get("call_id").Str, p.Get("name").Str, input}}
	case "function_call_output", "custom_tool_call_output":
		out := p.Get("output")
		if out.IsObject() {
			out = out.Get("output")
		}
		t.results = []toolResult{{id: p.Get("call_id").Str, content: textOf(out)}}
	default:
		return t, "", false
	}
	return t, formatCodex, true
}

func copilotTurn(typ string, d gjson.Result, ts string) (turn, string, bool) {
	t := turn{timestamp: ts}
	switch typ {
	case "user.message":
		t.text = d.Get("content").String()
	case "assistant.message":
		t.assistant = true
		t.text = d.Get("content").String()
		d.Get("toolRequests").ForEach(func(_, r gjson.Result) bool {
			t.uses = append(t.uses, toolUse{r.Get("toolCallId").Str, r.Get("name").Str, objectOr(r.Get("arguments"))})
			return true
		})
	default:
		res := d.Get("result.content")
		if !res.Exists() {
			res = d.Get("result")
		}
		t.results = []toolResult{{d.Get("toolCallId").Str, textOf(res), d.Get("success").Type == gjson.False}}
	}
	return t, formatCopilot, true
}

func qwenTurn(l gjson.Result, ts string) (turn, string, bool) {
	role := l.Get("message.role").Str
	t := turn{assistant: role == "model" || role == "assistant" || l.Get("type").Str == "assistant", timestamp: ts}
	var texts []string
	l.Get("message.parts").ForEach(func(_, part gjson.Result) bool {
		switch {
		case part.Get("thought").Bool():
		case part.Get("text").Type == gjson.String:
			texts = append(texts, part.Get("text").Str)
		case part.Get("functionCall").Exists():
			c := part.Get("functionCall")
			t.uses = append(t.uses, toolUse{c.Get("id").Str, c.Get("name").Str, objectOr(c.Get("args"))})
		case part.Get("functionResponse").Exists():
			r := part.Get("functionResponse")
			t.results = append(t.results, toolResult{id: r.Get("id").Str, content: textOf(r.Get("response"))})
		}
		return true
	})
	t.text = strings.Join(texts, "\n")
	if len(t.results) > 0 {
		t.assistant = false
	}
	return t, formatQwen, true
}

// geminiTurns reads Gemini CLI's session document: messages of type user
// and gemini, a gemini message's toolCalls with their results.
func geminiTurns(doc gjson.Result) []turn {
	var out []turn
	doc.Get("messages").ForEach(func(_, m gjson.Result) bool {
		ts := m.Get("timestamp").Str
		switch m.Get("type").Str {
		case "user":
			out = append(out, turn{text: textOf(m.Get("content")), timestamp: ts})
		case "gemini", "model", "assistant":
			t := turn{assistant: true, text: textOf(m.Get("content")), timestamp: ts}
			var results []toolResult
			m.Get("toolCalls").ForEach(func(_, c gjson.Result) bool {
				t.uses = append(t.uses, toolUse{c.Get("id").Str, c.Get("name").Str, objectOr(c.Get("args"))})
				res := c.Get("resultDisplay")
				if !res.Exists() {
					res = c.Get("result")
				}
				if res.Exists() {
					results = append(results, toolResult{c.Get("id").Str, textOf(res), c.Get("status").Str == "error"})
				}
				return true
			})
			out = append(out, t)
			if len(results) > 0 {
				out = append(out, turn{results: results, timestamp: ts})
			}
		}
		return true
	})
	return out
}

// textOf is a value as text: a string, the text of parts, or its JSON.
func textOf(r gjson.Result) string {
	switch {
	case !r.Exists():
		return ""
	case r.Type == gjson.String:
		return r.Str
	case r.IsArray():
		var texts []string
		r.ForEach(func(_, p gjson.Result) bool {
			if p.Type == gjson.String {
				texts = append(texts, p.Str)
			} else if s := p.Get("text"); s.Type == gjson.String {
				texts = append(texts, s.Str)
			} else {
				texts = append(texts, textOf(p))
			}
			return true
		})
		return strings.Join(texts, "\n")
	}
	return r.Raw
}

// objectOr is a JSON object's text, a JSON string holding one decoded, or
// {} for anything else.
func objectOr(r gjson.Result) []byte {
	if r.Type == gjson.String && gjson.Valid(r.Str) && gjson.Parse(r.Str).IsObject() {
		return []byte(r.Str)
	}
	if r.IsObject() {
		return []byte(r.Raw)
	}
	return []byte("{}")
}

// lastAssistant is the text of the last assistant message with text.
func lastAssistant(turns []turn) (string, bool) {
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].assistant && strings.TrimSpace(turns[i].text) != "" {
			return turns[i].text, true
		}
	}
	return "", false
}

// claudeJSONL writes turns as Claude Code's transcript: one line per
// message, type user or assistant, the message's content as text,
// tool_use and tool_result blocks. rename gives a tool its name in the
// dialect.
func claudeJSONL(turns []turn, session, cwd string, rename func(string) string) []byte {
	var b bytes.Buffer
	parent := ""
	for i, t := range turns {
		o := &wire.Object{}
		role := "user"
		if t.assistant {
			role = "assistant"
		}
		uuid := fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1)
		o.Str("type", role)
		if parent == "" {
			o.Raw("parentUuid", []byte("null"))
		} else {
			o.Str("parentUuid", parent)
		}
		o.Str("uuid", uuid)
		if session != "" {
			o.Str("sessionId", session)
		}
		if cwd != "" {
			o.Str("cwd", cwd)
		}
		if t.timestamp != "" {
			o.Str("timestamp", t.timestamp)
		}
		msg := &wire.Object{}
		msg.Str("role", role)
		if !t.assistant && len(t.results) == 0 {
			msg.Str("content", t.text)
		} else {
			var blocks [][]byte
			if t.text != "" {
				blocks = append(blocks, (&wire.Object{}).Str("type", "text").Str("text", t.text).Bytes())
			}
			for _, u := range t.uses {
				blocks = append(blocks, (&wire.Object{}).Str("type", "tool_use").Str("id", u.id).Str("name", rename(u.name)).Raw("input", u.input).Bytes())
			}
			for _, r := range t.results {
				rb := (&wire.Object{}).Str("type", "tool_result").Str("tool_use_id", r.id).Str("content", r.content)
				if r.isError {
					rb.Bool("is_error", true)
				}
				blocks = append(blocks, rb.Bytes())
			}
			msg.Raw("content", jsonArray(blocks))
		}
		o.Obj("message", msg)
		b.Write(o.Bytes())
		b.WriteByte('\n')
		parent = uuid
	}
	return b.Bytes()
}

// geminiJSON writes turns as Gemini CLI's session file (its
// ChatRecordingService's conversation record): one JSON document whose
// messages are of type user and gemini, a gemini message's toolCalls
// holding each call's args and, found by the call's id, its result.
// rename gives a tool its name in the dialect.
func geminiJSON(turns []turn, session, cwd string, rename func(string) string) []byte {
	results := map[string]toolResult{}
	for _, t := range turns {
		for _, r := range t.results {
			if r.id != "" {
				results[r.id] = r
			}
		}
	}
	var msgs [][]byte
	first, last := "", ""
	for i, t := range turns {
		if !t.assistant && t.text == "" {
			continue // only results: written with their calls
		}
		if first == "" {
			first = t.timestamp
		}
		if t.timestamp != "" {
			last = t.timestamp
		}
		m := (&wire.Object{}).Str("id", fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1))
		if t.timestamp != "" {
			m.Str("timestamp", t.timestamp)
		}
		typ := "user"
		if t.assistant {
			typ = "gemini"
		}
		m.Str("type", typ).Str("content", t.text)
		if len(t.uses) > 0 {
			calls := make([][]byte, 0, len(t.uses))
			for _, u := range t.uses {
				name := rename(u.name)
				c := (&wire.Object{}).Str("id", u.id).Str("name", name).Raw("args", u.input)
				if r, ok := results[u.id]; ok && u.id != "" {
					status := "success"
					if r.isError {
						status = "error"
					}
					// The function response the model was given, and
					// the text shown to the user.
					fr := (&wire.Object{}).Str("id", u.id).Str("name", name).
						Obj("response", (&wire.Object{}).Str("output", r.content))
					part := (&wire.Object{}).Obj("functionResponse", fr)
					c.Raw("result", jsonArray([][]byte{part.Bytes()})).Str("status", status).Str("resultDisplay", r.content)
				}
				calls = append(calls, c.Bytes())
			}
			m.Raw("toolCalls", jsonArray(calls))
		}
		msgs = append(msgs, m.Bytes())
	}
	doc := &wire.Object{}
	if session != "" {
		doc.Str("sessionId", session)
	}
	if cwd != "" {
		sum := sha256.Sum256([]byte(cwd))
		doc.Str("projectHash", hex.EncodeToString(sum[:]))
	}
	if first != "" {
		doc.Str("startTime", first).Str("lastUpdated", last)
	}
	doc.Raw("messages", jsonArray(msgs))
	return append(doc.Bytes(), '\n')
}

// TempDir is where the files written for one dialect call go: a folder
// of hookshim's private state; "" when there is none.
func TempDir(getenv func(string) string) string {
	dir := private.StateDir(getenv)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "dialect")
}

// SweepAfter is how long a file written for one call may outlive it: one
// an async handler was given is not removed with the call (the handler
// may read it later), nor one of a call that was killed, so each new file
// removes those older than this.
const SweepAfter = time.Hour

// writeTemp writes data to a new file of this user's alone in dir, and
// removes the files there older than SweepAfter.
func writeTemp(dir, pattern string, data []byte) (string, error) {
	if err := private.EnsureDir(dir); err != nil {
		return "", err
	}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if info, err := e.Info(); err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > SweepAfter {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}
