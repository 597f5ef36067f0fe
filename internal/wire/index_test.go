package wire_test

import (
	"fmt"
	"strings"
	"testing"

	hookshim "github.com/hookshim/hookshim"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

var indexDocs = []string{
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

// TestIndexIsGJSON: every lookup the index answers is what gjson answers.
func TestIndexIsGJSON(t *testing.T) {
	docs := append([]string{}, indexDocs...)
	for _, s := range hookshim.Samples() {
		docs = append(docs, string(s.Raw))
	}
	// Past the members an Index holds inline it switches to a map: names
	// repeated on both sides of that point must still be seen twice.
	var many strings.Builder
	many.WriteString(`{`)
	for i := 0; i < 60; i++ {
		name := fmt.Sprintf("k%d", i)
		switch i {
		case 40:
			name = "k3" // first seen before the switch
		case 50:
			name = "k30" // first seen after it
		}
		fmt.Fprintf(&many, `%q:{"v":%d},`, name, i)
	}
	many.WriteString(`"last":true}`)
	docs = append(docs, many.String())
	big := `{"tool_output":"` + strings.Repeat(`line \"x\" \\ ✓\n`, 5000) + `","tool_use_id":"toolu_1"}`
	docs = append(docs, big)
	answered := 0
	for _, doc := range docs {
		require.True(t, gjson.Valid(doc), doc)
		x := wire.NewIndex([]byte(doc))
		require.NotNil(t, x, doc)
		for _, p := range paths(doc) {
			want := gjson.GetBytes([]byte(doc), p)
			got, ok := x.Get(p)
			if !ok {
				continue
			}
			answered++
			msg := fmt.Sprintf("path %q in %.200s", p, doc)
			require.Equal(t, want.Type, got.Type, msg)
			require.Equal(t, want.Raw, got.Raw, msg)
			require.Equal(t, want.Str, got.Str, msg)
			require.Equal(t, want.Num, got.Num, msg)
			require.Equal(t, want.Index, got.Index, msg)
			raw, ok := x.RawGet(p)
			require.True(t, ok, msg)
			require.Equal(t, want.Raw, string(raw), msg)
		}
	}
	require.Greater(t, answered, 200)
}

func TestIndexDeclines(t *testing.T) {
	for _, doc := range []string{``, `[]`, `"s"`, `1`, `{"a":1`, `{"a" 1}`, `{"a":"x}`, `{"a":1 "b":2}`} {
		require.Nil(t, wire.NewIndex([]byte(doc)), doc)
	}
	var none *wire.Index
	_, ok := none.Get("a")
	require.False(t, ok)
	x := wire.NewIndex([]byte(`{"a":1,"a":2,"b":{"c":3}}`))
	for _, p := range []string{"a", "a.b", "b.*", "b|c", "", "b..c", "@this", "#"} {
		_, ok := x.Get(p)
		require.False(t, ok, p)
	}
	raw, ok := x.RawGet("b")
	require.True(t, ok)
	require.Equal(t, `{"c":3}`, string(raw))
	require.Equal(t, len(raw), cap(raw), "appending to a member must not write into the document")
}

func FuzzIndex(f *testing.F) {
	for _, d := range indexDocs {
		f.Add(d, "a")
	}
	f.Add(`{"x":{"y":[1,2]}}`, "x.y.1")
	f.Fuzz(func(t *testing.T, doc, path string) {
		if !gjson.Valid(doc) {
			return
		}
		x := wire.NewIndex([]byte(doc))
		if x == nil {
			if gjson.Parse(doc).IsObject() {
				t.Fatalf("no index for an object: %q", doc)
			}
			return
		}
		got, ok := x.Get(path)
		if !ok {
			return
		}
		want := gjson.GetBytes([]byte(doc), path)
		if got.Raw != want.Raw || got.Type != want.Type || got.Str != want.Str || got.Index != want.Index {
			t.Fatalf("path %q in %q: index %#v, gjson %#v", path, doc, got, want)
		}
	})
}

// TestIndexManyMembers: an object with more members than the index holds
// inline still finds every name, and still declines names given twice,
// whichever side of the switch to a map they fall on.
func TestIndexManyMembers(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{`)
	for i := 0; i < 100; i++ {
		name := fmt.Sprintf("k%d", i)
		switch i {
		case 2:
			name = "k1" // twice, both inline
		case 70:
			name = "k5" // twice: inline, then in the map
		case 90:
			name = "k80" // twice, both in the map
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `%q:%d`, name, i)
	}
	b.WriteString(`}`)
	x := wire.NewIndex([]byte(b.String()))
	require.NotNil(t, x)
	for _, twice := range []string{"k1", "k5", "k80"} {
		_, ok := x.Get(twice)
		require.False(t, ok, twice)
	}
	for _, i := range []int{0, 3, 23, 24, 25, 69, 71, 99} {
		name := fmt.Sprintf("k%d", i)
		r, ok := x.Get(name)
		require.True(t, ok, name)
		require.Equal(t, int64(i), r.Int(), name)
	}
	r, ok := x.Get("k100")
	require.True(t, ok)
	require.False(t, r.Exists())
}
