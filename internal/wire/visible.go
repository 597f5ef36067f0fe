package wire

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Visible is s as it may be printed to a terminal: every character that
// would act on the terminal rather than show, or reorder what shows, is
// written as an escape — C0 controls (ESC, which starts colour, cursor
// and OSC 52 clipboard sequences; BEL; CR, which returns over what was
// printed; \n and \t too, so that one value stays one line), DEL, C1
// controls (U+0080–U+009F, and the bytes 0x80–0x9F that are not UTF-8),
// and the bidirectional overrides and isolates (U+202A–U+202E,
// U+2066–U+2069) with the marks U+200E, U+200F and U+061C, which make a
// command read otherwise than it runs. What hookshim prints of a tool's
// payload or a handler's answer for people goes through it; output that
// is JSON is escaped by JSON instead.
func Visible(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if hidden(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case !hidden(r, n):
			b.WriteString(s[i : i+n])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

// hidden reports whether the rune r, n bytes long, must be escaped.
func hidden(r rune, n int) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r == utf8.RuneError:
		return n == 1 // a byte that is not UTF-8; U+FFFD itself shows
	case r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}
