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
