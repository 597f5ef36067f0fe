package pipeline

import "bytes"

// MaxDepth is the deepest nesting of arrays and objects a payload may have.
// Past it, the payload is refused before it is validated or parsed: the
// JSON validator recurses once per level, and a payload near the 64 MiB
// cap nested all the way down would exhaust Go's stack, a fatal error no
// recover catches, whose exit code 2 several tools read as "block". No
// tool sends more than a few dozen levels, but an MCP tool's arguments are
// whatever the model wrote: the limit is far past that, and a payload at
// it still costs about 0.1 s and 70 MB.
const MaxDepth = 200_000

// TooDeep reports whether b nests arrays and objects more than MaxDepth
// levels deep, counting brackets outside strings. It need not be valid
// JSON. A payload with fewer opening brackets than the limit cannot nest
// deeper, and counting bytes is vectorised: the scan is for the rare
// payload that has more.
func TooDeep(b []byte) bool {
	if bytes.Count(b, []byte{'{'})+bytes.Count(b, []byte{'['}) <= MaxDepth {
		return false
	}
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			// Skip the string: to its closing quote, past escapes.
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			if depth++; depth > MaxDepth {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}
