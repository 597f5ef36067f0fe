package toml

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	gotoml "github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/require"
)

type obj = map[string]any
type arr = []any

func odt(y, mo, d, h, mi, s, ns, off int) DateTime {
	return DateTime{Kind: OffsetDateTime, Year: y, Month: mo, Day: d, Hour: h, Minute: mi, Second: s, Nanosecond: ns, Offset: off}
}

func ldt(y, mo, d, h, mi, s, ns int) DateTime {
	return DateTime{Kind: LocalDateTime, Year: y, Month: mo, Day: d, Hour: h, Minute: mi, Second: s, Nanosecond: ns}
}

func ld(y, mo, d int) DateTime { return DateTime{Kind: LocalDate, Year: y, Month: mo, Day: d} }

func lt(h, mi, s, ns int) DateTime {
	return DateTime{Kind: LocalTime, Hour: h, Minute: mi, Second: s, Nanosecond: ns}
}

// validCases are documents with the value they decode to; NaN is checked
// apart, as it equals nothing.
var validCases = []struct {
	name, doc string
	want      obj
}{
	{"empty", "", obj{}},
	{"only comments and blank lines", "# a\n\n   \t# b\r\n", obj{}},
	{"byte order mark", "\uFEFFa = 1", obj{"a": int64(1)}},
	{"crlf line endings", "a = 1\r\nb = 2\r\n", obj{"a": int64(1), "b": int64(2)}},
	{"comment after value", "a = 1 # one\nb = 'x'#two", obj{"a": int64(1), "b": "x"}},
	{"comment with unicode and tab", "# é\tü\na = 1", obj{"a": int64(1)}},
	{"bare keys", "key = 1\nbare_key = 2\nbare-key = 3\n1234 = 4\n-_ = 5",
		obj{"key": int64(1), "bare_key": int64(2), "bare-key": int64(3), "1234": int64(4), "-_": int64(5)}},
	{"quoted keys", "\"127.0.0.1\" = 1\n\"ʎǝʞ\" = 2\n'quoted \"value\"' = 3\n\"\" = 4\n\"a\\tb\" = 5",
		obj{"127.0.0.1": int64(1), "ʎǝʞ": int64(2), `quoted "value"`: int64(3), "": int64(4), "a\tb": int64(5)}},
	{"dotted keys with whitespace", "a . b.\"c\" . 'd' = 1\na.x = 2",
		obj{"a": obj{"b": obj{"c": obj{"d": int64(1)}}, "x": int64(2)}}},
	{"float-like dotted key", "3.14159 = 'pi'", obj{"3": obj{"14159": "pi"}}},
	{"indentation and tabs", "\t[a]\n  \tb\t=\t1", obj{"a": obj{"b": int64(1)}}},
	{"basic string escapes", `s = "\b\t\n\f\r\"\\ \u00e9 \U0001F600 é"`,
		obj{"s": "\b\t\n\f\r\"\\ é 😀 é"}},
	{"basic string with tab", "s = \"a\tb\"", obj{"s": "a\tb"}},
	{"literal string", `s = 'C:\Users\nodejs\templates'`, obj{"s": `C:\Users\nodejs\templates`}},
	{"multi-line basic string", "s = \"\"\"\nRoses\nViolets\"\"\"", obj{"s": "Roses\nViolets"}},
	{"multi-line basic string crlf", "s = \"\"\"\r\na\r\nb\"\"\"", obj{"s": "a\r\nb"}},
	{"line ending backslash", "s = \"\"\"\\\n  The quick \\\r\n\n   brown \\   \n fox.\\\n\"\"\"", obj{"s": "The quick brown fox."}},
	{"quotes in multi-line basic string", `s = """Here are two quotation marks: "". Simple enough."""` + "\nt = \"\"\"\"This,\" she said, \"is just a pointless statement.\"\"\"\"\nu = \"\"\"a\"\"\"\"\"",
		obj{"s": `Here are two quotation marks: "". Simple enough.`, "t": `"This," she said, "is just a pointless statement."`, "u": `a""`}},
	{"escaped quotes in multi-line basic string", `s = """a\"""b"""`, obj{"s": `a"""b`}},
	{"multi-line literal string", "s = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''\nt = '''I [dw]on't need \\d{2} apples'''\nu = ''''That,' she said, 'is still pointless.''''",
		obj{"s": "The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n", "t": `I [dw]on't need \d{2} apples`, "u": `'That,' she said, 'is still pointless.'`}},
	{"integers", "a = +99\nb = 42\nc = 0\nd = -17\ne = 1_000\nf = 5_349_221\ng = 1_2_3_4_5\nh = -0\ni = +0",
		obj{"a": int64(99), "b": int64(42), "c": int64(0), "d": int64(-17), "e": int64(1000), "f": int64(5349221), "g": int64(12345), "h": int64(0), "i": int64(0)}},
	{"integer limits", "a = 9223372036854775807\nb = -9223372036854775808\nc = 0x7fffffffffffffff",
		obj{"a": int64(math.MaxInt64), "b": int64(math.MinInt64), "c": int64(math.MaxInt64)}},
	{"hex octal binary", "a = 0xDEADBEEF\nb = 0xdead_beef\nc = 0x00ff\nd = 0o01234567\ne = 0o755\nf = 0b11010110\ng = 0b0_1",
		obj{"a": int64(0xDEADBEEF), "b": int64(0xDEADBEEF), "c": int64(255), "d": int64(0o1234567), "e": int64(0o755), "f": int64(0b11010110), "g": int64(1)}},
	{"floats", "a = +1.0\nb = 3.1415\nc = -0.01\nd = 5e+22\ne = 1e06\nf = -2E-2\ng = 6.626e-34\nh = 224_617.445_991_228\ni = 0.0\nj = 1e0_1\nk = 0e0",
		obj{"a": 1.0, "b": 3.1415, "c": -0.01, "d": 5e22, "e": 1e6, "f": -2e-2, "g": 6.626e-34, "h": 224617.445991228, "i": 0.0, "j": 1e1, "k": 0.0}},
	{"infinities", "a = inf\nb = +inf\nc = -inf", obj{"a": math.Inf(1), "b": math.Inf(1), "c": math.Inf(-1)}},
	{"booleans", "a = true\nb = false", obj{"a": true, "b": false}},
	{"offset date-times", "a = 1979-05-27T07:32:00Z\nb = 1979-05-27T00:32:00-07:00\nc = 1979-05-27T00:32:00.999999+05:30\nd = 1979-05-27 07:32:00z\ne = 1979-05-27t07:32:00-00:00",
		obj{"a": odt(1979, 5, 27, 7, 32, 0, 0, 0), "b": odt(1979, 5, 27, 0, 32, 0, 0, -420), "c": odt(1979, 5, 27, 0, 32, 0, 999999000, 330),
			"d": odt(1979, 5, 27, 7, 32, 0, 0, 0), "e": odt(1979, 5, 27, 7, 32, 0, 0, 0)}},
	{"local date-times", "a = 1979-05-27T07:32:00\nb = 1979-05-27T00:32:00.999999\nc = 1979-05-27 00:32:00.1234567891",
		obj{"a": ldt(1979, 5, 27, 7, 32, 0, 0), "b": ldt(1979, 5, 27, 0, 32, 0, 999999000), "c": ldt(1979, 5, 27, 0, 32, 0, 123456789)}},
	{"local dates", "a = 1979-05-27\nb = 2000-02-29\nc = 0000-01-01 # no time after the space", obj{"a": ld(1979, 5, 27), "b": ld(2000, 2, 29), "c": ld(0, 1, 1)}},
	{"local times", "a = 07:32:00\nb = 00:32:00.999999\nc = 23:59:60", obj{"a": lt(7, 32, 0, 0), "b": lt(0, 32, 0, 999999000), "c": lt(23, 59, 60, 0)}},
	{"arrays", "a = [ 1, 2, 3 ]\nb = [ \"red\", 'yellow' ]\nc = [ [ 1, 2 ], [3, 4, 5] ]\nd = [ [ 1, 2 ], [\"a\", 'b'] ]\ne = [ 0.1, 0.2, 1, \"s\", { x = 1 }, [] ]\nf = []",
		obj{"a": arr{int64(1), int64(2), int64(3)}, "b": arr{"red", "yellow"}, "c": arr{arr{int64(1), int64(2)}, arr{int64(3), int64(4), int64(5)}},
			"d": arr{arr{int64(1), int64(2)}, arr{"a", "b"}}, "e": arr{0.1, 0.2, int64(1), "s", obj{"x": int64(1)}, arr{}}, "f": arr{}}},
	{"multi-line array with comments", "a = [ # start\n  1, # one\r\n\n  2 # two\n  , # comma\n  3,\n  # end\n]",
		obj{"a": arr{int64(1), int64(2), int64(3)}}},
	{"inline tables", "name = { first = \"Tom\", last = \"Preston-Werner\" }\npoint = {x=1,y=2}\nanimal = { type.name = \"pug\" }\ne = {}\nn = { a = { b = [ { c = 1 } ] } }",
		obj{"name": obj{"first": "Tom", "last": "Preston-Werner"}, "point": obj{"x": int64(1), "y": int64(2)}, "animal": obj{"type": obj{"name": "pug"}},
			"e": obj{}, "n": obj{"a": obj{"b": arr{obj{"c": int64(1)}}}}}},
	{"inline table with multi-line values", "a = { b = \"\"\"x\ny\"\"\", c = [\n1,\n] }", obj{"a": obj{"b": "x\ny", "c": arr{int64(1)}}}},
	{"inline table over lines (1.1)", "a = { # the hook\n  b = 1, # one\r\n\n  c = { d = 2, },\n  # end\n}",
		obj{"a": obj{"b": int64(1), "c": obj{"d": int64(2)}}}},
	{"trailing comma in an inline table (1.1)", "a = {b = 1,}\nc = { d = [1,], }", obj{"a": obj{"b": int64(1)}, "c": obj{"d": arr{int64(1)}}}},
	{"escape and hex escapes (1.1)", `a = "\e[0m"` + "\n" + `b = "\x41\xe9\x00\xFF"` + "\n" + `c = """\x7f"""`,
		obj{"a": "\x1b[0m", "b": "Aé\x00ÿ", "c": "\x7f"}},
	{"times without seconds (1.1)", "a = 07:32\nb = 1979-05-27T07:32\nc = 1979-05-27 07:32Z\nd = 1979-05-27T07:32-07:00",
		obj{"a": lt(7, 32, 0, 0), "b": ldt(1979, 5, 27, 7, 32, 0, 0), "c": odt(1979, 5, 27, 7, 32, 0, 0, 0), "d": odt(1979, 5, 27, 7, 32, 0, 0, -420)}},
	{"dotted keys in an inline table", "a = { b.c = 1, b.d = 2 }", obj{"a": obj{"b": obj{"c": int64(1), "d": int64(2)}}}},
	{"tables", "[table-1]\nkey1 = \"some string\"\nkey2 = 123\n\n[table-2]\nkey1 = \"another string\"\nkey2 = 456\n[dog.\"tater.man\"]\ntype.name = \"pug\"\n[ j . \"ʞ\" . 'l' ]",
		obj{"table-1": obj{"key1": "some string", "key2": int64(123)}, "table-2": obj{"key1": "another string", "key2": int64(456)},
			"dog": obj{"tater.man": obj{"type": obj{"name": "pug"}}}, "j": obj{"ʞ": obj{"l": obj{}}}}},
	{"super-table defined after", "[x.y.z.w]\n[x]\na = 1", obj{"x": obj{"a": int64(1), "y": obj{"z": obj{"w": obj{}}}}}},
	{"sub-tables of dotted tables", "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true\n[[fruit.apple.seeds]]\nsize = 2",
		obj{"fruit": obj{"apple": obj{"color": "red", "taste": obj{"sweet": true}, "texture": obj{"smooth": true}, "seeds": arr{obj{"size": int64(2)}}}}}},
	{"dotted keys then a table", "fruit.apple = 1\n[other]", obj{"fruit": obj{"apple": int64(1)}, "other": obj{}}},
	{"arrays of tables", "[[products]]\nname = \"Hammer\"\n\n[[products]]  # empty\n\n[[products]]\nname = \"Nail\"\n",
		obj{"products": arr{obj{"name": "Hammer"}, obj{}, obj{"name": "Nail"}}}},
	{"nested arrays of tables", "[[fruits]]\nname = \"apple\"\n[fruits.physical]\ncolor = \"red\"\n[[fruits.varieties]]\nname = \"red delicious\"\n[[fruits.varieties]]\nname = \"granny smith\"\n[[fruits]]\nname = \"banana\"\n[[fruits.varieties]]\nname = \"plantain\"",
		obj{"fruits": arr{
			obj{"name": "apple", "physical": obj{"color": "red"}, "varieties": arr{obj{"name": "red delicious"}, obj{"name": "granny smith"}}},
			obj{"name": "banana", "varieties": arr{obj{"name": "plantain"}}}}}},
	{"dotted keys in array of tables elements", "[[a]]\nb.c = 1\n[[a]]\nb.c = 2", obj{"a": arr{obj{"b": obj{"c": int64(1)}}, obj{"b": obj{"c": int64(2)}}}}},
	{"same table name in two elements", "[[a]]\n[a.b]\nx = 1\n[[a]]\n[a.b]\nx = 2", obj{"a": arr{obj{"b": obj{"x": int64(1)}}, obj{"b": obj{"x": int64(2)}}}}},
	{"array of tables header with spaces", "[[ a . b ]]\n[ a ]", obj{"a": obj{"b": arr{obj{}}}}},
	{"keys that look like values", "true = 1\nfalse = 2\ninf = 3\nnan = 4\n1979-05-27 = 5", obj{"true": int64(1), "false": int64(2), "inf": int64(3), "nan": int64(4), "1979-05-27": int64(5)}},
}

func TestParseValid(t *testing.T) {
	for _, c := range validCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(c.doc)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
		})
	}
}

func TestParseSpecialFloats(t *testing.T) {
	got, err := Parse("a = nan\nb = +nan\nc = -nan\nd = -0.0\ne = +0.0")
	require.NoError(t, err)
	for _, k := range []string{"a", "b", "c"} {
		require.True(t, math.IsNaN(got[k].(float64)), k)
	}
	require.True(t, math.Signbit(got["d"].(float64)))
	require.False(t, math.Signbit(got["e"].(float64)))
}

// invalidCases are documents that are not TOML 1.1, with where the error
// points.
var invalidCases = []struct {
	name, doc string
	line, col int
	msg       string // a part of the message
}{
	{"duplicate key", "a = 1\na = 2", 2, 1, "key a is defined twice"},
	{"duplicate key quoted", "spelling = 1\n\"spelling\" = 2", 2, 1, "defined twice"},
	{"duplicate dotted key", "a.b = 1\na.b = 2", 2, 3, "key a.b is defined twice"},
	{"key over a table", "[a.b]\n[a]\nb = 1", 3, 1, "key b is defined twice"},
	{"table defined twice", "[a]\nx = 1\n[a]", 3, 2, "table a is defined twice"},
	{"super-table defined twice", "[a.b]\n[a]\n[a]", 3, 2, "table a is defined twice"},
	{"table after dotted keys", "a.b = 1\n[a]", 2, 2, "already defined by dotted keys"},
	{"sub-table after dotted keys", "[fruit]\napple.taste.sweet = true\n[fruit.apple.taste]", 3, 14, "already defined by dotted keys"},
	{"dotted keys into a header table", "[a.b.c]\nz = 9\n[a]\nb.c.t = 1", 4, 1, "cannot add to b with dotted keys"},
	{"dotted keys into an array of tables", "[[x.a]]\n[x]\na.b = 1", 3, 1, "a is an array of tables"},
	{"dotted key through a value", "a = 1\na.b = 2", 2, 1, "key a already has a value that is not a table"},
	{"table over a value", "a = 1\n[a]", 2, 2, "key a already has a value"},
	{"table through a value", "a = 1\n[a.b]", 2, 2, "key a already has a value that is not a table"},
	{"array of tables over a table", "[a]\n[[a]]", 2, 3, "cannot define a as an array of tables"},
	{"table over an array of tables", "[[a]]\n[a]", 2, 2, "cannot define a as a table"},
	{"append to a static array", "a = []\n[[a]]", 2, 3, "static array"},
	{"table in a static array", "a = [{}]\n[a.b]", 2, 2, "static array"},
	{"table over an inline table", "a = {}\n[a]", 2, 2, "already defined as an inline table"},
	{"extend an inline table with a header", "a = {b = 1}\n[a.c]", 2, 2, "inline table is complete"},
	{"extend an inline table with dotted keys", "a = {b = 1}\na.c = 2", 2, 1, "inline table is complete"},
	{"extend an inline table inside it", "a = {b = {c = 1}, b.d = 2}", 1, 19, "inline table is complete"},
	{"duplicate key in an inline table", "a = {b = 1, b = 2}", 1, 13, "key b is defined twice"},
	{"empty key part", "[a..b]", 1, 4, "expected a key"},
	{"empty table name", "[]", 1, 2, "expected a key"},
	{"multi-line key", "\"\"\"a\"\"\" = 1", 1, 1, "multi-line string"},
	{"invalid escape", `a = "\q"`, 1, 6, `invalid escape \q`},
	{"short hex escape", `a = "\x4"`, 1, 6, "two hexadecimal digits"},
	{"signed hex escape", `a = "\x+1"`, 1, 6, "two hexadecimal digits"},
	{"hex escape in a literal string is literal", `a = '\x41' x`, 1, 12, "expected the end of the line"},
	{"empty pair in an inline table", "a = {b = 1,,}", 1, 12, "expected a key"},
	{"lone comma in an inline table", "a = {,}", 1, 6, "expected a key"},
	{"line ending inside a pair of an inline table", "a = {b =\n1}", 1, 9, "expected a value"},
	{"line ending before = in an inline table", "a = {b\n= 1}", 1, 7, "expected = after a key"},
	{"unclosed inline table", "a = {b = 1,\n", 2, 1, "expected a key"},
	{"fraction without seconds", "a = 07:32.5", 1, 10, "expected the end of the line"},
	{"one-digit minutes", "a = 07:3", 1, 8, "minutes"},
	{"short unicode escape", `a = "\u12"`, 1, 6, "invalid unicode escape"},
	{"surrogate escape", `a = "\uD800"`, 1, 6, "not a unicode scalar value"},
	{"escape out of range", `a = "\U00110000"`, 1, 6, "not a unicode scalar value"},
	{"backslash and space not at line end", "a = \"\"\"x\\ y\"\"\"", 1, 9, "whitespace must end a line"},
	{"backslash at line end in a basic string", "a = \"x\\\ny\"", 1, 7, "only a multi-line string"},
	{"escape in literal is literal, quote ends it", `a = 'x\'y'`, 1, 9, "expected the end of the line"},
	{"control character in a string", "a = \"x\x01\"", 1, 7, "control character"},
	{"delete in a literal string", "a = 'x\x7f'", 1, 7, "control character"},
	{"control character in a multi-line string", "a = \"\"\"\n\x1f\"\"\"", 2, 1, "control character"},
	{"control character in a comment", "# ok\n# \x7f", 2, 3, "control character '\\x7f' in a comment"},
	{"null in a comment", "a = 1 # \x00", 1, 9, "in a comment"},
	{"bare carriage return", "a = 1\rb = 2", 1, 6, "carriage return"},
	{"bare carriage return in a comment", "# x\ry\n", 1, 4, "control character"},
	{"bare carriage return in a multi-line string", "a = '''x\ry'''", 1, 9, "carriage return"},
	{"line ending in a string", "a = \"x\ny\"", 1, 7, "line ending in a single-line string"},
	{"unterminated string", "a = \"abc", 1, 9, "unterminated string"},
	{"unterminated multi-line string", "a = '''abc\n", 2, 1, "unterminated multi-line string"},
	{"too many quotes", "a = \"\"\"x\"\"\"\"\"\"", 1, 14, "too many quotes"},
	{"leading zero", "a = 01", 1, 5, "leading zeros"},
	{"leading zero with sign", "a = -012", 1, 6, "leading zeros"},
	{"leading zero in a float", "a = 03.14", 1, 5, "leading zeros"},
	{"double underscore", "a = 1__2", 1, 7, "underscore"},
	{"leading underscore", "a = _1", 1, 5, "expected a value"},
	{"trailing underscore", "a = 1_", 1, 6, "underscore"},
	{"underscore before the point", "a = 1_.5", 1, 6, "underscore"},
	{"underscore after the point", "a = 1._5", 1, 7, "underscore"},
	{"underscore after the prefix", "a = 0x_1", 1, 7, "underscore"},
	{"integer too large", "a = 9223372036854775808", 1, 5, "integer out of range"},
	{"integer too small", "a = -9223372036854775809", 1, 5, "integer out of range"},
	{"hex too large", "a = 0x8000000000000000", 1, 5, "integer out of range"},
	{"float too large", "a = 1e400", 1, 5, "float out of range"},
	{"signed hex", "a = +0x1", 1, 5, "cannot have a sign"},
	{"capital prefix", "a = 0X1", 1, 6, "invalid character 'X'"},
	{"octal digit", "a = 0o8", 1, 7, "expected a digit after 0o"},
	{"trailing point", "a = 1.", 1, 7, "expected a digit after the decimal point"},
	{"leading point", "a = .5", 1, 5, "expected a value"},
	{"exponent without digits", "a = 1e+", 1, 8, "expected a digit in the exponent"},
	{"point after exponent", "a = 1e5.0", 1, 8, "invalid character '.'"},
	{"capital inf", "a = Inf", 1, 5, "expected a value"},
	{"incomplete nan", "a = na", 1, 5, `invalid value "na"`},
	{"capital true", "a = True", 1, 5, "expected a value"},
	{"feb 29 outside a leap year", "a = 2023-02-29", 1, 13, "2023-02-29 does not exist"},
	{"feb 30", "a = 2024-02-30T00:00:00Z", 1, 13, "does not exist"},
	{"day zero", "a = 2024-01-00", 1, 13, "does not exist"},
	{"month 13", "a = 2024-13-01", 1, 10, "no month 13"},
	{"hour 24", "a = 24:00:00", 1, 5, "hour"},
	{"minute 60", "a = 2024-01-01T10:60:00", 1, 19, "minutes"},
	{"second 61", "a = 10:00:61", 1, 11, "seconds"},
	{"one-digit month", "a = 2024-1-01", 1, 10, "two-digit month"},
	{"fraction without digits", "a = 07:32:00.", 1, 14, "expected a digit after the decimal point"},
	{"offset hour 24", "a = 2024-01-01T00:00:00+24:00", 1, 25, "offset"},
	{"offset without minutes", "a = 2024-01-01T00:00:00+01", 1, 27, "offset"},
	{"date followed by T only", "a = 2024-01-01T", 1, 16, "hour"},
	{"no value", "a =", 1, 4, "expected a value, found the end of the document"},
	{"value on the next line", "a =\n1", 1, 4, "expected a value, found the end of the line"},
	{"no equals sign", "a 1", 1, 3, "expected = after a key"},
	{"two pairs on a line", "a = 1 b = 2", 1, 7, "expected the end of the line"},
	{"text after a header", "[a] b = 1", 1, 5, "expected the end of the line"},
	{"unclosed header", "[a\nb = 1", 1, 3, "expected ] after a table name"},
	{"unclosed array of tables header", "[[a]\n", 1, 5, "expected ]]"},
	{"space between brackets", "[[a] ]", 1, 5, "expected ]]"},
	{"missing comma in array", "a = [1 2]", 1, 8, "expected , or ] in an array"},
	{"double comma in array", "a = [1,,2]", 1, 8, "expected a value"},
	{"unclosed array", "a = [1,", 1, 8, "expected a value, found the end of the document"},
	{"array nested too deep", "a = " + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), 1, 5 + MaxDepth, "nest more than 1000"},
	{"inline table nested too deep", "a = " + strings.Repeat("{b=", MaxDepth) + "{}" + strings.Repeat("}", MaxDepth), 1, 5 + 3*MaxDepth, "nest more than 1000"},
	{"invalid utf-8", "a = \"\xff\"", 1, 6, "invalid utf-8"},
	{"byte order mark not at the start", "a = 1\n\uFEFFb = 2", 2, 1, "expected a key"},
	{"column counts characters", "a = 'é' b", 1, 9, "expected the end of the line, found 'b'"},
	{"non-ascii bare key", "é = 1", 1, 1, "expected a key, found 'é'"},
	{"column after a byte order mark", "\uFEFFa = ?", 1, 5, "expected a value, found '?'"},
}

func TestParseInvalid(t *testing.T) {
	for _, c := range invalidCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(c.doc)
			require.Error(t, err)
			require.Nil(t, got)
			var e *Error
			require.True(t, errors.As(err, &e), "%T", err)
			require.Equal(t, c.line, e.Line, e.Error())
			require.Equal(t, c.col, e.Col, e.Error())
			require.Contains(t, e.Msg, c.msg)
			checkMessage(t, e)
		})
	}
}

// checkMessage checks the form of every error: positive position, one
// lowercase line.
func checkMessage(t testing.TB, e *Error) {
	t.Helper()
	if e.Line < 1 || e.Col < 1 || e.Msg == "" || strings.ContainsAny(e.Msg, "\r\n") ||
		strings.ToLower(e.Msg[:1]) != e.Msg[:1] || strings.HasPrefix(e.Msg, "toml:") {
		t.Fatalf("badly formed error: %q", e.Error())
	}
}

func TestErrorText(t *testing.T) {
	_, err := Parse("telemetry = false\ntelemetry = true\n")
	require.EqualError(t, err, "line 2, column 1: key telemetry is defined twice")
}

func TestDepthLimitIsInclusive(t *testing.T) {
	doc := "a = " + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	_, err := Parse(doc)
	require.NoError(t, err)
	doc = "a = " + strings.Repeat("{b=", MaxDepth-1) + "{}" + strings.Repeat("}", MaxDepth-1)
	_, err = Parse(doc)
	require.NoError(t, err)
}

// TestLargeInputs reads documents built to be slow for a careless parser;
// each must take about as long as reading it.
func TestLargeInputs(t *testing.T) {
	const n = 200_000
	docs := []string{
		"a = " + strings.Repeat("[", n),                           // deep array: fails at the limit
		"a." + strings.Repeat("b.", n) + "c = 1",                  // long dotted key
		"[" + strings.Repeat("b.", n) + "c]",                      // long header
		strings.Repeat("[[a]]\nb.c = 1\n", n/10),                  // many array elements
		"a = \"\"\"" + strings.Repeat("\"\"\\\n", n) + "\"\"\"",   // quotes and line-ending backslashes
		"a = [" + strings.Repeat("1, # c\n", n) + "]",             // long array
		"a = '" + strings.Repeat("x", n) + "\n",                   // unterminated
		"a = {" + strings.Repeat("b = 1, ", n) + "}",              // duplicate keys in an inline table
		"a = {" + strings.Repeat("\n# c\n", n) + "}",              // inline table of comments
		strings.Repeat("# comment\n", n) + "a = 1\na = 2",         // error position after many lines
		"a = " + strings.Repeat("1_", n) + "1",                    // long number
		"a = 1979-05-27T07:32:00." + strings.Repeat("9", n) + "Z", // long fraction
	}
	for _, d := range docs {
		start := time.Now()
		_, _ = Parse(d)
		require.Less(t, time.Since(start), 5*time.Second)
	}
}

func TestDateTimeJSON(t *testing.T) {
	doc := `odt = 1979-05-27T07:32:00.5-07:00
utc = 1979-05-27 07:32:00z
ldt = 1979-05-27T07:32:00.123456789
ld = 1979-05-27
lt = 07:32:00.000
leap = 23:59:60`
	v, err := Parse(doc)
	require.NoError(t, err)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	require.JSONEq(t, `{"odt":"1979-05-27T07:32:00.5-07:00","utc":"1979-05-27T07:32:00Z","ldt":"1979-05-27T07:32:00.123456789",
		"ld":"1979-05-27","lt":"07:32:00","leap":"23:59:60"}`, string(b))
	again, err := json.Marshal(v)
	require.NoError(t, err)
	require.Equal(t, string(b), string(again))
	require.Equal(t, "1979-05-27T07:32:00+05:30", odt(1979, 5, 27, 7, 32, 0, 0, 330).String())
}

// ---- differential testing against go-toml ----

// nan stands for any NaN, which equals nothing, in compared values.
type nan struct{}

// floatBits tells -0.0 from 0.0.
type floatBits uint64

// normalize turns our values and go-toml's into the same comparable form.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, x := range v {
			m[k] = normalize(x)
		}
		return m
	case []any:
		a := []any{}
		for _, x := range v {
			a = append(a, normalize(x))
		}
		return a
	case []map[string]any:
		a := []any{}
		for _, x := range v {
			a = append(a, normalize(x))
		}
		return a
	case float64:
		if math.IsNaN(v) {
			return nan{}
		}
		return floatBits(math.Float64bits(v))
	case time.Time:
		_, off := v.Zone()
		return DateTime{Kind: OffsetDateTime, Year: v.Year(), Month: int(v.Month()), Day: v.Day(),
			Hour: v.Hour(), Minute: v.Minute(), Second: v.Second(), Nanosecond: v.Nanosecond(), Offset: off / 60}
	case gotoml.LocalDateTime:
		return DateTime{Kind: LocalDateTime, Year: v.Year, Month: v.Month, Day: v.Day,
			Hour: v.Hour, Minute: v.Minute, Second: v.Second, Nanosecond: v.Nanosecond}
	case gotoml.LocalDate:
		return DateTime{Kind: LocalDate, Year: v.Year, Month: v.Month, Day: v.Day}
	case gotoml.LocalTime:
		return DateTime{Kind: LocalTime, Hour: v.Hour, Minute: v.Minute, Second: v.Second, Nanosecond: v.Nanosecond}
	}
	return v
}

// hasLeapSecond reports a time with second 60 in a decoded value.
func hasLeapSecond(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			if hasLeapSecond(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasLeapSecond(x) {
				return true
			}
		}
	case DateTime:
		return v.Second == 60
	}
	return false
}

// compare checks one document against go-toml. Documents nested deeper
// than MaxDepth are ours to refuse. Where go-toml departs from TOML 1.1
// the document is skipped, each for a reason:
//   - go-toml rejects second 60, which TOML takes from RFC 3339
//     (https://toml.io/en/v1.1.0#offset-date-time; RFC 3339 section 5.6:
//     time-second 00-60, for leap seconds).
//   - go-toml rejects a byte order mark at the start. TOML asks for "a
//     valid UTF-8 encoded Unicode document" (https://toml.io/en/v1.1.0#spec),
//     and the UTF-8 encoding scheme may start with one (Unicode 15, section
//     3.10, D95); toml-test's valid/utf8-bom vectors agree. go-toml reads the
//     document without it.
func compare(t testing.TB, doc string) {
	t.Helper()
	ours, err := Parse(doc)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		checkMessage(t, e)
	} else if _, jerr := json.Marshal(ours); jerr != nil && !strings.Contains(jerr.Error(), "unsupported value") {
		t.Fatalf("json: %v", jerr)
	}

	var theirs map[string]any
	var terr error
	func() {
		defer func() {
			if r := recover(); r != nil {
				terr = errors.New("go-toml panicked")
			}
		}()
		terr = gotoml.Unmarshal([]byte(strings.TrimPrefix(doc, "\uFEFF")), &theirs)
	}()

	switch {
	case err != nil && terr == nil:
		if strings.Contains(err.Error(), "nest more than") {
			return
		}
		t.Fatalf("go-toml accepts %.300q, we say: %v", doc, err)
	case err == nil && terr != nil:
		if hasLeapSecond(ours) {
			return
		}
		t.Fatalf("we accept %.300q, go-toml says: %v", doc, terr)
	case err == nil:
		require.Equal(t, normalize(theirs), normalize(ours), "document %q", doc)
	}
}

// extraDocs are documents for the differential test besides the tables.
var extraDocs = []string{
	"a = 1979-05-27 07:32:00.999999999999-08:00",
	"a = 1979-05-27 07:32",
	"a = 1979-05-27 7",
	"a = [1979-05-27 07:32:00, 1979-05-27]",
	"a = \"\"\"\"\"\"",
	"a = ''''''",
	"a = \"\"\"\\\n\"\"\"",
	"a = \"\"\"\\  \r\n  x\"\"\"",
	"a = 0b",
	"a = 0o",
	"a = +nan",
	"a = -0",
	"a = -0.0",
	"a = 1e-400",
	"a = 1.7976931348623157e309",
	"a = 4.9e-324",
	"a.b = 1\n[a.c]",
	"[a.b]\nc = 1\n[a]\nd.e = 1",
	"[[a.b]]\n[a]\nb.c = 1",
	"a = {b.c = 1}\n[a.b.d]",
	"[a]\nb = {}\n[a.b.c]",
	"[a]\n[a.b]\n[a]",
	"x = [{a = 1}, {a = 2}]\n[[x]]",
	"[[a]]\n[[a.b]]\n[a.b.c]\n[[a]]\n[a.b]",
	"'' = 1\n[\"\"]\n\"\" = 2",
	"a = 'x' # \t comment é",
	"\uFEFF",
	"\uFEFF\uFEFF",
	"a = \"\\U0010FFFF\"",
	"a = \"\\uDFFF\"",
	"a = 2000-02-29\nb = 1900-02-29",
	"a = 00:00:00.0000000001",
	"\ta\t=\t1\t",
	"a=1#",
	"[a]#",
	"[[a]]#",
	"a = [\n]\n",
	"a = [,]",
	"a = {,}",
	"a = { }",
	"a = {a=1,b=2,c={d=[1,{e=3}]}}",
	"a = \"\"\"a\"\"\"\"",
	"a = '''a''''",
	"a = \"\"\"a\"\"\"\"\"\"",
	"1.2.3 = 4",
	"a = 1_000.1_0e1_0",
	"a = 0.0e-0",
	"a = 0x0",
	"a = 0e",
	"a = 1979-05-27T07:32:00.",
	"a = 1979-05-27T07:32:00+00:00",
	"a = 1979-05-27T07:32:00-00:00",
}

func TestDifferential(t *testing.T) {
	for _, c := range validCases {
		compare(t, c.doc)
	}
	for _, c := range invalidCases {
		compare(t, c.doc)
	}
	for _, d := range extraDocs {
		compare(t, d)
	}
}

func FuzzParse(f *testing.F) {
	for _, c := range validCases {
		f.Add(c.doc)
	}
	for _, c := range invalidCases {
		if len(c.doc) < 1000 {
			f.Add(c.doc)
		}
	}
	for _, d := range extraDocs {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		compare(t, doc)
	})
}
