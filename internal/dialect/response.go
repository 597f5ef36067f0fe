package dialect

import (
	"cmp"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// A hook that runs after a tool reads the tool's result in its own tool's
// shape: a Claude Code PostToolUse hook reads tool_response.stdout of a
// Bash call and tool_response.filePath of a write, a Gemini CLI AfterTool
// hook tool_response.llmContent. Each tool sends its result in a shape of
// its own (Codex and Kiro IDE a string, Copilot {resultType,
// textResultForLlm}, Cursor {output, exitCode}, Kiro CLI {result:
// [{stdout, stderr, exit_status}]}), so for a dialect with a shape of its
// own (provider.Dialect.Response) the result is read, whatever its shape,
// into what the tool printed, and written again in that shape.

// result is a tool's result as read from any tool's shape.
type result struct {
	text        string // what the tool returned, as text (a command's stdout)
	stderr      string
	exit        int
	hasExit     bool
	interrupted bool
	display     []byte // Gemini's returnDisplay, when the caller sent one
}

// readResult reads a tool's result in any of the known shapes. shell: the
// tool is a command, whose text may hold its output in sections (Gemini
// CLI's and Qwen Code's "Output: …", Kiro IDE's "Exit Code: …", Copilot's
// "<shellId: …>" trailer).
func readResult(out gjson.Result, shell bool) result {
	var r result
	sectioned := func(s string) {
		if shell {
			r.text, r.stderr, r.exit, r.hasExit = shellText(s)
		} else {
			r.text = s
		}
	}
	switch {
	case out.Type == gjson.String:
		sectioned(out.Str)
	case out.IsArray() && len(out.Array()) == 1 && out.Get("0").IsObject() && !out.Get("0.text").Exists():
		// One result in a list (Cline's reads).
		return readResult(out.Get("0"), shell)
	case !out.IsObject():
		r.text = textOf(out)
	case out.Get("llmContent").Exists(): // Gemini CLI, Qwen Code
		sectioned(textOf(out.Get("llmContent")))
		if d := out.Get("returnDisplay"); d.Exists() {
			r.display = []byte(d.Raw)
		}
	case out.Get("stdout").Exists() || out.Get("stderr").Exists(): // Claude Code's Bash
		r.text, r.stderr = out.Get("stdout").String(), out.Get("stderr").String()
		r.interrupted = out.Get("interrupted").Bool()
	case out.Get("textResultForLlm").Exists() || out.Get("text_result_for_llm").Exists(): // Copilot
		s := out.Get("textResultForLlm")
		if !s.Exists() {
			s = out.Get("text_result_for_llm")
		}
		sectioned(s.String())
	case out.Get("result.0.stdout").Exists(): // Kiro CLI
		first := out.Get("result.0")
		r.text, r.stderr = first.Get("stdout").String(), first.Get("stderr").String()
		if e := first.Get("exit_status"); e.Exists() {
			if n, err := strconv.Atoi(e.String()); err == nil {
				r.exit, r.hasExit = n, true
			}
		}
	case out.Get("output").Type == gjson.String: // Cursor's Shell
		r.text = out.Get("output").Str
		if e := out.Get("exitCode"); e.Type == gjson.Number {
			r.exit, r.hasExit = int(e.Int()), true
		}
	case out.Get("result").Type == gjson.String: // Cline
		sectioned(out.Get("result").Str)
		if e := out.Get("error").Str; e != "" && r.stderr == "" {
			r.stderr = e
		}
	case out.Get("content").IsArray(): // an MCP result's content blocks
		r.text = textOf(out.Get("content"))
	case out.Get("content").Type == gjson.String: // Claude Code's Write
		r.text = out.Get("content").Str
	default:
		r.text = out.Raw
	}
	return r
}

// shellSections are the labels of the sections of a command's result as
// Gemini CLI, Qwen Code and Kiro IDE write it for the model.
var shellSections = []string{"Command", "Directory", "Output", "Error", "Exit Code", "Signal",
	"Background PIDs", "Process Group PGID"}

// shellText reads a command's output, error and exit code out of the text
// a tool gives the model; text in no such sections is the output.
func shellText(orig string) (stdout, stderr string, exit int, hasExit bool) {
	s := strings.TrimSpace(orig)
	rest, wrapped := strings.CutPrefix(s, "<untrusted_context>")
	if wrapped {
		s = strings.TrimSpace(strings.TrimSuffix(rest, "</untrusted_context>"))
	}
	// Copilot CLI ends a command's text with its shell's exit line.
	if i := strings.LastIndex(s, "<shellId:"); i >= 0 && strings.HasSuffix(s, ">") {
		tail := s[i:]
		if j := strings.LastIndex(tail, "exit code "); j >= 0 {
			if n, err := strconv.Atoi(strings.TrimSuffix(tail[j+len("exit code "):], ">")); err == nil {
				exit, hasExit = n, true
			}
		}
		s = strings.TrimRight(s[:i], "\n")
		return s, "", exit, hasExit
	}
	sections := map[string]string{}
	label := ""
	var cur []string
	flush := func() {
		if label != "" {
			sections[label] = strings.TrimSpace(strings.Join(cur, "\n"))
		}
	}
	found := false
	for line := range strings.SplitSeq(s, "\n") {
		l := ""
		for _, name := range shellSections {
			if rest, ok := strings.CutPrefix(line, name+":"); ok {
				l = name
				flush()
				label, cur = l, []string{strings.TrimSpace(rest)}
				found = true
				break
			}
		}
		if l == "" && label != "" {
			cur = append(cur, line)
		}
	}
	flush()
	if !found || (sections["Output"] == "" && sections["Exit Code"] == "" && !strings.HasPrefix(s, "Output:")) {
		if wrapped {
			return s, "", 0, false
		}
		return orig, "", 0, false
	}
	none := func(v string) string {
		if v == "(empty)" || v == "(none)" {
			return ""
		}
		return v
	}
	stdout, stderr = none(sections["Output"]), none(sections["Error"])
	if n, err := strconv.Atoi(sections["Exit Code"]); err == nil {
		exit, hasExit = n, true
	}
	if stdout != "" && !strings.HasSuffix(stdout, "\n") {
		stdout += "\n"
	}
	return stdout, stderr, exit, hasExit
}

// response is a tool's result in the shape the dialect's hooks read:
// written again from the caller's for a dialect with a shape of its own,
// else as the caller sent it. note says what was done, "" for nothing.
// cwd makes a relative path absolute, as Claude Code's results name files.
func response(d, caller *provider.Provider, t *event.Tool, out []byte, cwd string) ([]byte, string) {
	shape := d.Dialect.Response
	if shape == "" || out == nil {
		return out, ""
	}
	if caller.Dialect != nil && caller.Dialect.Response == shape {
		return out, ""
	}
	shell := t.Name == event.ToolShell
	file := t.Name == event.ToolFileWrite || t.Name == event.ToolFileEdit || t.Name == event.ToolFileRead
	doc := gjson.ParseBytes(out)
	if inShape(shape, t, doc) {
		// A look-alike of the dialect's tool sent it so already.
		return out, ""
	}
	r := readResult(doc, shell)
	path := t.FilePath
	if path != "" && !filepath.IsAbs(path) && cwd != "" && !strings.HasPrefix(path, "~") {
		path = filepath.Join(cwd, path)
	}
	note := caller.Name + "'s result, written again in " + d.Name + "'s shape"
	switch shape {
	case provider.ResponseClaude:
		o := &wire.Object{}
		switch {
		case shell:
			o.Str("stdout", r.text).Str("stderr", r.stderr).Bool("interrupted", r.interrupted).Bool("isImage", false)
			if r.hasExit && r.exit != 0 {
				// Claude Code reports a failed command as a failure; a hook
				// that checks the code finds it here.
				o.Raw("exitCode", strconv.AppendInt(nil, int64(r.exit), 10))
			}
		case t.Name == event.ToolFileRead && path != "":
			file := (&wire.Object{}).Str("filePath", path).Str("content", r.text)
			o.Str("type", "text").Obj("file", file)
		case file && path != "":
			// Claude Code's hooks reference: a write's filePath and success.
			o.Str("filePath", path).Bool("success", true)
		default:
			return out, caller.Name + "'s result of a tool other than a command or a file tool, given as it sent it"
		}
		return o.Bytes(), note
	case provider.ResponseGemini:
		o := &wire.Object{}
		if shell {
			var b strings.Builder
			b.WriteString("Output: ")
			b.WriteString(cmp.Or(strings.TrimRight(r.text, "\n"), "(empty)"))
			if r.stderr != "" {
				b.WriteString("\nError: " + strings.TrimRight(r.stderr, "\n"))
			}
			if r.hasExit {
				b.WriteString("\nExit Code: " + strconv.Itoa(r.exit))
			}
			o.Str("llmContent", b.String()).Str("returnDisplay", r.text)
			return o.Bytes(), note
		}
		o.Str("llmContent", r.text)
		switch {
		case r.display != nil:
			o.Raw("returnDisplay", r.display)
		case file && path != "" && t.Name != event.ToolFileRead:
			o.Obj("returnDisplay", (&wire.Object{}).Str("fileName", filepath.Base(path)).Str("filePath", path))
		default:
			o.Str("returnDisplay", r.text)
		}
		return o.Bytes(), note
	}
	return out, ""
}

// inShape reports whether a result is in the shape already: the keys a
// hook of the dialect reads are there.
func inShape(shape string, t *event.Tool, doc gjson.Result) bool {
	if !doc.IsObject() {
		return false
	}
	switch shape {
	case provider.ResponseGemini:
		return doc.Get("llmContent").Exists()
	case provider.ResponseClaude:
		switch t.Name {
		case event.ToolShell:
			return doc.Get("stdout").Exists()
		case event.ToolFileRead:
			return doc.Get("file").IsObject()
		case event.ToolFileWrite, event.ToolFileEdit:
			return doc.Get("filePath").Exists()
		}
	}
	return false
}
