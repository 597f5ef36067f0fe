// Package benchdata builds the payloads and configs the benchmarks use: the
// embedded sample payloads of every provider, and from them post-tool
// payloads carrying a large tool output.
package benchdata

import (
	"bytes"
	"fmt"
	"strings"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/detect"
	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// MiB is a mebibyte.
const MiB = 1 << 20

// Case is one payload to measure, with what it was built from.
type Case struct {
	Name     string // provider-id/Sample, the benchmark's sub-name
	Provider *provider.Provider
	Spec     *provider.Spec
	Raw      []byte
}

// Payload is the case as the pipeline sees it, with an empty environment.
func (c Case) Payload() provider.Payload {
	return provider.NewPayload(c.Raw, func(string) string { return "" })
}

// Small is every embedded sample payload whose event has a canonical name.
func Small() []Case {
	var out []Case
	for _, s := range hookshim.Samples() {
		native := s.Provider.EventName(provider.Payload{Raw: s.Raw})
		if native == "" {
			native = s.Event
		}
		spec := s.Provider.Spec(native)
		if spec == nil {
			continue
		}
		out = append(out, Case{
			Name:     s.Provider.ID + "/" + strings.TrimSuffix(s.Name, ".json"),
			Provider: s.Provider,
			Spec:     spec,
			Raw:      s.Raw,
		})
	}
	return out
}

// Large is, for every provider that has a post-tool event, one post-tool
// payload whose tool output is a JSON string of about size bytes. It is
// built from the provider's own post-tool sample when there is one, else
// from a pre-tool sample renamed to the post-tool event. The output is put
// first in the object: every other field then sits behind it, the worst
// place for lookups. A provider whose payload would then no longer be
// detected as its own is left out.
func Large(size int) []Case {
	out := []Case{}
	big := Output(size)
	for _, pr := range provider.All {
		c, ok := large(pr, big)
		if ok {
			c.Name = fmt.Sprintf("%s/%s-%dMiB", pr.ID, c.Spec.Native, size/MiB)
			out = append(out, c)
		}
	}
	return out
}

func large(pr *provider.Provider, big []byte) (Case, bool) {
	if pr.Fields.ToolOutput == "" {
		return Case{}, false
	}
	var post *provider.Spec
	for i := range pr.Events {
		if pr.Events[i].Canonical == event.AfterToolExecute {
			post = &pr.Events[i]
			break
		}
	}
	if post == nil {
		return Case{}, false
	}
	var base []byte
	for _, c := range Small() {
		if c.Provider != pr {
			continue
		}
		if c.Spec == post {
			base = c.Raw
			break
		}
		if base == nil && c.Spec.Canonical == event.BeforeToolExecute {
			base = renameEvent(c.Raw, c.Spec.Native, post.Native)
		}
	}
	if base == nil {
		return Case{}, false
	}
	raw, err := withFirst(base, pr.Fields.ToolOutput, big)
	if err != nil {
		return Case{}, false
	}
	p := provider.NewPayload(raw, func(string) string { return "" })
	if pr.EventName != nil {
		if n := pr.EventName(p); n != "" && n != post.Native {
			return Case{}, false
		}
	}
	if det := detect.Detect(p, ""); det.Provider != pr {
		return Case{}, false
	}
	return Case{Provider: pr, Spec: post, Raw: raw}, true
}

// renameEvent replaces the top-level string field holding the native event
// name.
func renameEvent(raw []byte, from, to string) []byte {
	var key string
	gjson.ParseBytes(raw).ForEach(func(k, v gjson.Result) bool {
		if v.Type == gjson.String && v.Str == from {
			key = k.Str
			return false
		}
		return true
	})
	if key == "" {
		return nil
	}
	out, err := sjson.SetBytes(raw, gjson.Escape(key), to)
	if err != nil {
		return nil
	}
	return out
}

// withFirst sets path to value, putting a top-level key first in the
// object; a nested path is set in place.
func withFirst(raw []byte, path string, value []byte) ([]byte, error) {
	if strings.ContainsAny(path, ".*?|#@\\") {
		return sjson.SetRawBytes(raw, path, value)
	}
	rest, err := sjson.DeleteBytes(raw, path)
	if err != nil {
		return nil, err
	}
	rest = bytes.TrimSpace(rest)
	var b bytes.Buffer
	b.Grow(len(rest) + len(value) + len(path) + 8)
	b.WriteByte('{')
	b.Write(wire.Quote(path))
	b.WriteByte(':')
	b.Write(value)
	if inner := bytes.TrimSpace(rest[1 : len(rest)-1]); len(inner) > 0 {
		b.WriteByte(',')
		b.Write(inner)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Output is a tool output of about size bytes as a JSON string: build-log
// lines with the quotes, tabs, backslashes and non-ASCII text real output
// has, so that every scan meets escapes.
func Output(size int) []byte {
	var text strings.Builder
	text.Grow(size + 128)
	for i := 0; text.Len() < size; i++ {
		fmt.Fprintf(&text, "%06d\tok  \tgithub.com/example/pkg%d\t0.%03ds\tcoverage: \"%d%%\" of statements — C:\\build\\out ✓\n", i, i%97, i%1000, i%100)
	}
	return wire.Quote(text.String())
}

// Config is an .openhook.json with n handlers, each running command for
// before_tool_execute on shell tools.
func Config(n int, command string) []byte {
	var b strings.Builder
	b.WriteString(`{"spec": "hooks/0.1", "hooks": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  {\"name\": \"guard-%d\", \"event\": \"before_tool_execute\", \"matcher\": \"shell\", \"blocking\": true,\n   \"handler\": {\"type\": \"command\", \"command\": %s, \"timeout\": 10}}", i+1, wire.Quote(command))
	}
	b.WriteString("\n]}\n")
	return []byte(b.String())
}

// Rule is the bench's deny policy as one rule handler: the policy of the
// command handlers of Config and of bench/peers, without a process.
const Rule = `{"spec": "hooks/0.1", "hooks": [
  {"name": "no-rm-rf-root", "event": "before_tool_execute", "matcher": "shell", "blocking": true,
   "handler": {"type": "rule", "if": "command contains 'rm -rf /'", "decision": "deny", "reason": "rm -rf / is not allowed"}}
]}
`

// RuleSet is a typical set of rules, as a project would keep them: eight
// rules over shell commands (as simple commands and as text), paths and
// prompts, all checked on every call, of which a shell call evaluates
// seven.
const RuleSet = `{"spec": "hooks/0.1", "hooks": [
  {"name": "no-rm-rf-root", "event": "before_tool_execute", "matcher": "shell",
   "handler": {"type": "rule", "if": "any(commands, .name == 'rm' && 'r' in .flags && '/' in .operands)", "decision": "deny", "reason": "rm -rf / is not allowed"}},
  {"name": "no-force-push", "event": "before_tool_execute", "matcher": "shell",
   "handler": {"type": "rule", "if": "command matches ` + "`" + `git\\s+push\\b.*(--force|\\s-f\\b)` + "`" + `", "decision": "deny", "reason": "no force-push"}},
  {"name": "no-pipe-to-shell", "event": "before_tool_execute",
   "handler": {"type": "rule", "if": "tool == 'shell' && command matches ` + "`" + `(curl|wget)[^|]*\\|\\s*(sudo\\s+)?(ba|z)?sh\\b` + "`" + `", "decision": "deny", "reason": "download, read, then run"}},
  {"name": "ask-sudo", "event": "before_tool_execute", "matcher": "shell",
   "handler": {"type": "rule", "if": "command matches ` + "`" + `(^|[;&|]\\s*)sudo\\s` + "`" + `", "decision": "ask", "reason": "sudo"}},
  {"name": "no-env-files", "event": "before_tool_execute",
   "handler": {"type": "rule", "if": "tool in ['file_read', 'file_write', 'file_edit'] && base(path) startsWith '.env'", "decision": "deny", "reason": "secrets stay out of the context"}},
  {"name": "migrations", "event": "before_tool_execute",
   "handler": {"type": "rule", "if": "tool in ['file_write', 'file_edit'] && glob(path, 'migrations/**')", "context": "migrations are append-only: add a new one"}},
  {"name": "no-lockfile-edits", "event": "before_tool_execute",
   "handler": {"type": "rule", "if": "any(paths, glob(#, '**/package-lock.json'))", "decision": "deny", "reason": "run npm install instead"}},
  {"name": "no-keys-in-prompts", "event": "before_prompt",
   "handler": {"type": "rule", "if": "prompt matches ` + "`" + `AKIA[0-9A-Z]{16}` + "`" + `", "decision": "deny", "reason": "an AWS key in the prompt"}}
]}
`
