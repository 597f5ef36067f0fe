package journal

import (
	"bytes"
	"math"
	"strings"
)

// Redacted replaces a secret in the log.
const Redacted = "[redacted]"

// prefixes are the well-known shapes of tokens and keys: a prefix and
// the least number of characters after it (so that sk-learn stays).
// digit: the rest must hold a digit, as every real one of those does.
// minToken is the length of the shortest word token can accept.
var minToken = func() int {
	n := 1 << 30
	for _, p := range prefixes {
		n = min(n, len(p.p)+p.min)
	}
	return n
}()

var prefixes = []struct {
	p     string
	min   int
	digit bool
}{
	{"sk-", 16, true}, // OpenAI, Anthropic (sk-ant-), DeepSeek…
	{"sk_live_", 10, false},
	{"sk_test_", 10, false},
	{"rk_live_", 10, false},
	{"ghp_", 20, false}, // GitHub tokens
	{"gho_", 20, false},
	{"ghu_", 20, false},
	{"ghs_", 20, false},
	{"ghr_", 20, false},
	{"github_pat_", 20, false},
	{"glpat-", 16, false}, // GitLab
	{"AKIA", 16, false},   // AWS access key ids
	{"ASIA", 16, false},
	{"xoxb-", 10, false}, // Slack
	{"xoxp-", 10, false},
	{"xoxa-", 10, false},
	{"xoxr-", 10, false},
	{"xoxs-", 10, false},
	{"xoxe-", 10, false},
	{"AIza", 30, false}, // Google API keys
	{"hf_", 30, false},  // Hugging Face
	{"npm_", 30, false},
	{"pypi-", 40, false},
	{"eyJ", 30, false}, // a JWT: base64 of {"
}

// secretNames end the names of fields and variables whose value is a
// secret, whatever it looks like.
// secretNames end in d, t, n, y, l or s: secretName relies on it, and a
// test checks it.
var secretNames = []string{"password", "passwd", "secret", "token", "api_key", "apikey", "access_key", "private_key", "credential", "credentials", "auth_key"}

// Secrets replaces what looks like a secret in a record line (JSON text)
// by [redacted], keeping the line valid JSON: the formats of package
// secret (the major services' keys and tokens, private keys, passwords in
// URLs and connection strings) and of logKinds (a private key's whole
// block, --password=… and mysql -p… on a command line, Authorization and
// key headers, AWS secret keys, Google OAuth tokens) in each string; then
// a token with a well-known prefix, the word after Bearer or Basic, the
// value of a field or an assignment whose name says secret (password,
// *_TOKEN, api_key…), and a long random-looking value assigned to any
// NAME=. It is linear in the line, and copies it only when something is
// redacted.
func Secrets(b []byte) []byte {
	b = formats(b)
	var out []byte
	last := 0 // b[:last] is in out (when out is not nil)
	redact := func(from, to int) {
		if from >= to {
			return
		}
		if out == nil {
			out = make([]byte, 0, len(b))
		}
		out = append(out, b[last:from]...)
		out = append(out, Redacted...)
		last = to
	}
	var prev []byte // the word before, with only spaces between
	for i := 0; i < len(b); {
		c := b[i]
		if c == '\\' {
			// An escape is a separator: \n before a token is not part
			// of it.
			if i+1 < len(b) && b[i+1] == 'u' {
				i += 6
			} else {
				i += 2
			}
			prev = nil
			continue
		}
		if !wordByte(c) {
			if c != ' ' {
				prev = nil
			}
			i++
			continue
		}
		j := i
		for j < len(b) && wordByte(b[j]) {
			j++
		}
		w := b[i:j]
		k := bytes.IndexByte(w, '=')
		switch {
		case prev != nil && (equalFold(prev, "bearer") || equalFold(prev, "basic")) && len(w) >= 8:
			redact(i, j)
		case k > 0 && name(w[:k]):
			val := w[k+1:]
			switch {
			case len(val) == 0:
				// NAME="value": the value is quoted, after the word.
				if secretName(w[:k]) {
					if from, to, ok := quoted(b, j); ok {
						redact(from, to)
						j = to
					}
				}
			case secretName(w[:k]) || random(val) || token(val):
				redact(i+k+1, j)
			}
		case token(w):
			redact(i, j)
		case secretName(w):
			// "password":"…", password: …, \"token\":\"…\"
			if from, to, ok := valueAfter(b, i, j); ok {
				redact(from, to)
				j = to
			}
		}
		prev = w
		i = j
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// wordByte reports whether c belongs to a word: a letter, a digit, or one
// of _-.+/=~. A table, as Secrets asks it of every byte of every record.
func wordByte(c byte) bool { return wordBytes[c] }

var wordBytes = func() (t [256]bool) {
	for c := '0'; c <= 'z'; c++ {
		t[c] = c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a'
	}
	for _, c := range []byte("_-.+/=~") {
		t[c] = true
	}
	return t
}()

// tokenStarts are the first bytes of the prefixes: most words start
// otherwise, and are no token.
var tokenStarts = func() (t [256]bool) {
	for _, p := range prefixes {
		t[p.p[0]] = true
	}
	return t
}()

func equalFold(b []byte, s string) bool { return strings.EqualFold(string(b), s) }

// name reports whether w is a variable name: a letter or _, then letters,
// digits and _.
func name(w []byte) bool {
	for i, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return len(w) > 0
}

// secretName reports whether a field or variable name says its value is
// a secret: it ends in one of secretNames, in any case, - or _.
func secretName(w []byte) bool {
	if len(w) < 5 || len(w) > 64 {
		return false
	}
	// Every name ends in one of a few letters: most words stop here.
	switch w[len(w)-1] | 0x20 {
	case 'd', 't', 'n', 'y', 'l', 's':
	default:
		return false
	}
	// Each name is compared from the end, in any case and with - as _:
	// most words differ from every name in their last letters.
	for _, n := range secretNames {
		if len(w) < len(n) || !foldSuffix(w, n) {
			continue
		}
		if len(w) == len(n) || len(n) >= 6 || w[len(w)-len(n)-1] == '_' || w[len(w)-len(n)-1] == '-' {
			return true
		}
	}
	return false
}

// foldSuffix reports whether w ends in n (lower case, with _), in any
// case and with - for _.
func foldSuffix(w []byte, n string) bool {
	w = w[len(w)-len(n):]
	for i := len(n) - 1; i >= 0; i-- {
		c := w[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c == '-':
			c = '_'
		}
		if c != n[i] {
			return false
		}
	}
	return true
}

// token reports whether w has the shape of a well-known token or key.
func token(w []byte) bool {
	if len(w) < minToken || !tokenStarts[w[0]] {
		return false // most words: shorter than any token, or not started as one
	}
	for _, p := range prefixes {
		if len(w) < len(p.p)+p.min || string(w[:len(p.p)]) != p.p {
			continue
		}
		rest := w[len(p.p):]
		if p.digit && !bytes.ContainsAny(rest, "0123456789") {
			continue
		}
		if p.p == "eyJ" && bytes.Count(w, []byte{'.'}) != 2 {
			continue
		}
		return true
	}
	return false
}

// random reports whether an assigned value looks like a generated secret:
// long, of several kinds of characters, not a path, with high entropy.
func random(v []byte) bool {
	if len(v) < 20 || v[0] == '/' || v[0] == '.' || v[0] == '~' {
		return false
	}
	var lower, upper, digit bool
	var counts [256]int
	for _, c := range v {
		counts[c]++
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	kinds := 0
	for _, k := range []bool{lower, upper, digit} {
		if k {
			kinds++
		}
	}
	if kinds < 2 {
		return false
	}
	var h float64
	for _, n := range counts {
		if n > 0 {
			p := float64(n) / float64(len(v))
			h -= p * math.Log2(p)
		}
	}
	return h >= 3.5
}

// valueAfter finds the value after a secret's name b[start:end]: a JSON
// key's value ("password": "…"), the same inside a JSON string
// (\"token\":\"…\"), or in plain text after : or = (password: …,
// TOKEN=\"…\"). It never crosses a bare quote that ends the string the
// name is in, so the line stays valid JSON.
func valueAfter(b []byte, start, end int) (from, to int, ok bool) {
	at := func(i int, s string) bool { return i >= 0 && i+len(s) <= len(b) && string(b[i:i+len(s)]) == s }
	spaces := func(i int) int {
		for i < len(b) && b[i] == ' ' {
			i++
		}
		return i
	}
	i := end
	switch {
	case at(start-2, `\"`) && at(i, `\"`):
		// A key inside a JSON string.
		if i = spaces(i + 2); !at(i, ":") {
			return 0, 0, false
		}
		i = spaces(i + 1)
	case at(start-1, `"`) && at(i, `"`):
		// A key of the record (a JSON object member name).
		if i = spaces(i + 1); !at(i, ":") {
			return 0, 0, false
		}
		i = spaces(i + 1)
		if at(i, `"`) {
			return quotedFrom(b, i+1, false)
		}
	default:
		// Plain text.
		if i = spaces(i); !at(i, ":") && !at(i, "=") {
			return 0, 0, false
		}
		i = spaces(i + 1)
	}
	if at(i, `\"`) {
		return quotedFrom(b, i+2, true)
	}
	j := i
	for j < len(b) && wordByte(b[j]) {
		j++
	}
	return i, j, j > i
}

// quoted finds the inside of the escaped quoted string that starts at
// b[i] (\"…\", in a string): a bare quote there ends the string the
// text is in, and is no value.
func quoted(b []byte, i int) (from, to int, ok bool) {
	if i+1 < len(b) && b[i] == '\\' && b[i+1] == '"' {
		return quotedFrom(b, i+2, true)
	}
	return 0, 0, false
}

// quotedFrom finds where the string whose inside starts at b[i] ends:
// at the next unescaped quote, or, for a string inside a JSON string
// (escaped), at the next \". At most maxText bytes are looked at.
func quotedFrom(b []byte, i int, escaped bool) (from, to int, ok bool) {
	end := min(len(b), i+maxText)
	for j := i; j < end; j++ {
		switch b[j] {
		case '\\':
			if escaped && j+1 < len(b) && b[j+1] == '"' {
				return i, j, j > i
			}
			j++
		case '"':
			// The end of the string; inside an escaped one, the end of
			// the string around it: either way, no further.
			return i, j, j > i
		}
	}
	return i, end, end > i
}
