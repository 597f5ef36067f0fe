package provider_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

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
// gjson does on the whole document, and GetRaw with the same raw JSON.
func TestPayloadIsGJSON(t *testing.T) {
	docs := append([]string{}, payloadDocs...)
	for _, s := range hookshim.Samples() {
		docs = append(docs, string(s.Raw))
	}
	for _, doc := range docs {
		require.True(t, gjson.Valid(doc), doc)
		p := provider.NewPayload([]byte(doc), nil)
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
		got, want := provider.NewPayload([]byte(doc), nil).Get(path), gjson.Get(doc, path)
		if got.Raw != want.Raw || got.Type != want.Type || got.Str != want.Str {
			t.Fatalf("path %q in %q: payload %#v, gjson %#v", path, doc, got, want)
		}
	})
}
