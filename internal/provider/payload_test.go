package provider_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/provider"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

var payloadDocs = []string{
	`{}`,
	` { "a" : 1 , "b":"two", "c" : [1, {"d": "e"}, [true]], "n": null, "t": true, "f": false } `,
	`{"a":1,"a":{"b":2}}`,
	`{"a":{"b":2},"a":1}`,
	`{"tool\u005fname":"Bash","k\"q":"v","e":"\"\\\"","b\\":"x"}`,
	`{"a.b":1,"a":{"b":2}}`,
	`{"0":"zero","1":{"0":["x"]}}`,
	`{"s":"brace { [ in \" string ] }","o":{"s":"]}\\","z":-1.5e3},"last":"\u00e9\ud83d\ude00"}`,
	"{\n\t\"nl\" :\r\n\"x\"\n}",
	`{"deep":{"a":{"b":{"c":{"d":[0,1,2,{"e":"f"}]}}}}}`,
	`{"tool_output":"` + strings.Repeat(`line \"x\" \\ ✓\n`, 5000) + `","tool_use_id":"toolu_1"}`,
	`[1, 2]`,
	`"a string"`,
}

// paths lists the paths to try on doc: every member down to depth 4, array
// elements, and names that are absent or not plain.
func paths(doc string) []string {
	var out []string
	var walk func(prefix string, v gjson.Result, depth int)
	walk = func(prefix string, v gjson.Result, depth int) {
		if depth > 4 {
			return
		}
		v.ForEach(func(k, val gjson.Result) bool {
			name := k.String()
			if !v.IsArray() {
				name = k.Str
			}
			p := name
			if prefix != "" {
				p = prefix + "." + name
			}
			out = append(out, p, p+".missing")
			walk(p, val, depth+1)
			return true
		})
	}
	walk("", gjson.Parse(doc), 0)
	return append(out, "missing", "missing.too", "a.b", "0", "1.0.0", "c.#", "c.1.d", "a|b", "@this", "k\\\"q",
		"*", "a*", "c.#.d", ".a", "a.", "a..b", "tool_name", "e", "tool\\_name", "")
}

// TestPayloadIsGJSON: a payload made by NewPayload answers every path as
// gjson does on the whole document (once a name given twice keeps only its
// last member), and GetRaw with the same raw JSON.
func TestPayloadIsGJSON(t *testing.T) {
	docs := append([]string{}, payloadDocs...)
	for _, s := range hookshim.Samples() {
		docs = append(docs, string(s.Raw))
	}
	for _, doc := range docs {
		require.True(t, gjson.Valid(doc), doc)
		p := provider.NewPayload([]byte(doc), nil)
		doc := string(p.Raw)
		for _, path := range paths(doc) {
			want := gjson.Get(doc, path)
			got := p.Get(path)
			msg := fmt.Sprintf("path %q in %.200s", path, doc)
			require.Equal(t, want.Type, got.Type, msg)
			require.Equal(t, want.Raw, got.Raw, msg)
			require.Equal(t, want.Str, got.Str, msg)
			require.Equal(t, want.Num, got.Num, msg)
			if want.Exists() {
				require.Equal(t, want.Raw, string(p.GetRaw(path)), msg)
			} else {
				require.Nil(t, p.GetRaw(path), msg)
			}
		}
	}
}

func TestPayloadGetRawSharesMemory(t *testing.T) {
	p := provider.NewPayload([]byte(`{"a": {"b": [1, 2]}, "s": "x\"y"}`), nil)
	for _, path := range []string{"a", "a.b", "s"} {
		raw := p.GetRaw(path)
		want := gjson.GetBytes(p.Raw, path).Raw
		at := bytes.Index(p.Raw, []byte(want))
		require.NotEmpty(t, raw, path)
		assert.Same(t, &p.Raw[at], &raw[0], "%s: a slice of the payload, not a copy", path)
		assert.Equal(t, len(raw), cap(raw), "%s: appending to it must not write into the payload", path)
	}
}

func FuzzPayload(f *testing.F) {
	for _, d := range payloadDocs {
		f.Add(d, "a")
	}
	f.Add(`{"x":{"y":[1,2]}}`, "x.y.1")
	f.Fuzz(func(t *testing.T, doc, path string) {
		if !gjson.Valid(doc) || path == "" { // "" is no field at all, not the member named ""
			return
		}
		p := provider.NewPayload([]byte(doc), nil)
		got, want := p.Get(path), gjson.GetBytes(p.Raw, path)
		if got.Raw != want.Raw || got.Type != want.Type || got.Str != want.Str {
			t.Fatalf("path %q in %q: payload %#v, gjson %#v", path, doc, got, want)
		}
	})
}

// TestLastNameWins: a member name given twice reads as its last member, as
// the tools' JSON parsers read it, at any depth and however escaped.
func TestLastNameWins(t *testing.T) {
	for _, tt := range []struct{ doc, path, want string }{
		{`{"tool_input":{"command":"ls","command":"rm -rf /"}}`, "tool_input.command", "rm -rf /"},
		{`{"tool_input":{"command":"ls"},"tool_input":{"command":"rm -rf /"}}`, "tool_input.command", "rm -rf /"},
		{`{"tool_name":"Read","tool_name":"Bash"}`, "tool_name", "Bash"},
		{`{"prompt":"hi","x":[{"a":1}],"prompt":"sk-live"}`, "prompt", "sk-live"},
		{`{"a":{"b":{"c":"1","c":"2"}}}`, "a.b.c", "2"},
		{`{"l":[{"p":"a","p":"b"}]}`, "l.0.p", "b"},
		{`{"command":"ls","comm\u0061nd":"rm -rf /"}`, "command", "rm -rf /"},
		{`{"s":"{\"a\":1,\"a\":2}","a":1}`, "s", `{"a":1,"a":2}`}, // inside a string: text, kept
		{`{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}`, "a", "1"},
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k3":"last"}`, "k3", "last"}, // past the first few names
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k9":"last"}`, "k9", "last"}, // the same name in other objects: no duplicate
	} {
		p := provider.NewPayload([]byte(tt.doc), nil)
		require.True(t, p.IsObject(), tt.doc)
		assert.Equal(t, tt.want, p.Get(tt.path).String(), tt.doc)
	}
	same := []byte(`{"a":1,"b":{"a":2}}`)
	assert.Same(t, &same[0], &provider.LastWins(same)[0], "without a duplicate the document is kept as it is")
	assert.Equal(t, `{"a":2,"n":1.50}`, string(provider.LastWins([]byte(`{"n":1.50,"a":1,"a":2}`))))
	assert.Nil(t, provider.LastWins([]byte(`{"a":1,"a":`)))
}

// TestDuplicateScanLinear: the scan for repeated names costs time in
// proportion to the payload, however deep or wide.
func TestDuplicateScanLinear(t *testing.T) {
	wide := `{` + strings.Repeat(`"k":1,`, 200000) + `"z":1}`
	var keys strings.Builder
	for i := range 200000 {
		fmt.Fprintf(&keys, `"k%d":1,`, i)
	}
	distinct := `{` + keys.String() + `"z":1}`
	deep := strings.Repeat(`{"a":[`, 100000) + strings.Repeat(`]}`, 100000)
	for _, doc := range []string{wide, distinct, deep} {
		start := time.Now()
		provider.NewPayload([]byte(doc), nil)
		assert.Less(t, time.Since(start), time.Minute) // catches a quadratic scan, not a slow machine
	}
}

// Every call reads its payload: a tool's usual payload, a dozen members
// and nested objects with no name twice, costs the map of its members
// (its names read in place) and nothing for the duplicate scan: 23
// allocations before the scan's lists started on the stack.
func TestPayloadAllocs(t *testing.T) {
	raw := []byte(`{"session_id":"5c1e4a0e","transcript_path":"/home/dev/t.jsonl","cwd":"/home/dev/proj",` +
		`"prompt_id":"8e2d4c1a","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":"rm -rf /","description":"Clean everything"},"tool_use_id":"toolu_01",` +
		`"effort":{"level":"medium"},"model":"m","agent_id":"a","agent_type":"t"}`)
	n := testing.AllocsPerRun(20, func() {
		p := provider.NewPayload(raw, nil)
		if !p.IsObject() || p.Get("tool_input.command").String() != "rm -rf /" {
			t.Fatal("payload misread")
		}
	})
	assert.LessOrEqual(t, n, 5.0)
	assert.Equal(t, []string{"b", "c"}, provider.NewPayload([]byte(`{"c":1,"b":2,"c":3}`), nil).Keys())
}

// FuzzLastWins: a document without a repeated name comes back as it is;
// one with repeated names comes back without them, or as nil when it
// cannot be decoded; and a payload reads every path of the result as
// gjson does.
func FuzzLastWins(f *testing.F) {
	for _, d := range payloadDocs {
		f.Add(d)
	}
	f.Add(`{"a":{"b":1,"b":[{"c":1,"c":2}]},"a":1}`)
	f.Fuzz(func(t *testing.T, doc string) {
		if !gjson.Valid(doc) {
			return
		}
		in := []byte(doc)
		out := provider.LastWins(in)
		if dup, ok := repeatedName(doc); ok && dup != (out == nil || len(out) == 0 || &out[0] != &in[0]) {
			t.Fatalf("%q: a repeated name is %v, but LastWins returned %q", doc, dup, out)
		}
		if out == nil {
			return
		}
		if again := provider.LastWins(out); string(again) != string(out) {
			t.Fatalf("%q: not settled: %q then %q", doc, out, again)
		}
		if !gjson.ValidBytes(out) {
			t.Fatalf("%q: %q is not JSON", doc, out)
		}
	})
}

// repeatedName is the reference for FuzzLastWins: whether an object of doc
// names a member twice, read token by token with encoding/json; ok is
// false when encoding/json cannot read doc.
func repeatedName(doc string) (dup, ok bool) {
	dec := json.NewDecoder(strings.NewReader(doc))
	type level struct {
		object, wantName bool
		names            map[string]bool
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return false, true
		}
		if err != nil {
			return false, false
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if top != nil && top.object {
					top.wantName = true
				}
				stack = append(stack, &level{object: v == '{', wantName: v == '{', names: map[string]bool{}})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if top != nil && top.object && top.wantName {
				if top.names[v] {
					return true, true
				}
				top.names[v] = true
				top.wantName = false
				continue
			}
		}
		if top != nil && top.object {
			top.wantName = true
		}
	}
}
