package journal

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"sync"

	secretfmt "github.com/hookshim/hookshim/internal/secret"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// logKinds are what the log redacts besides package secret's formats:
// secrets known by where they stand in a command line or a header rather
// than by their shape. Each pattern's one group is what is redacted.
var logKinds = []string{
	// A private key, the whole block: secret's kind knows its first line.
	`(-----BEGIN[A-Z0-9 ]* PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]* PRIVATE KEY(?: BLOCK)?-----|\z))`,
	// --password=…, --db-password …, --api-key=…, -token …
	`(?i)(?:^|[\s'"=])--?(?:[a-z0-9]+[-_])*(?:password|passwd|pass|pwd|token|secret|api[-_]?key|access[-_]?key|private[-_]?key|credentials?)(?:=|\s+)['"]?([^\s'"]+)`,
	// mysql -psecret (the MySQL and MariaDB clients), sshpass -p secret
	`(?i)\b(?:mysql[a-z]*|mariadb[a-z-]*)\b[^\n;&|]*?\s-p([^\s'"]+)`,
	`\bsshpass\s+-p\s*['"]?([^\s'"]+)`,
	// Authorization: Token|Bearer|Basic …, and the headers that carry a key
	`(?i)\b(?:(?:proxy-)?authorization|x-api-key|api-key|private-token|x-auth-token)['"]?\s*[:=]\s*['"]?(?:(?:token|bearer|basic|digest|apikey|key)\s+)?([^\s'",;]+)`,
	// An AWS secret access key under its name, also as a word after it
	// (aws configure set aws_secret_access_key …).
	`(?i)aws_?secret_?access_?key['"]?\s*(?:[:=]\s*|\s+)['"]?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`,
	// Google OAuth access and refresh tokens.
	`\b(ya29\.[0-9A-Za-z_-]{20,})`,
	`\b(1//0[0-9A-Za-z_-]{30,})`,
}

// logHints are literal parts of every logKinds pattern, in lower case,
// where the pattern ignores case.
var logHints = []string{"private key", "pass", "pwd", "token", "secret", "key", "credential", "-p", "authorization", "ya29.", "1//0"}

// logPattern is logKinds compiled, on first use (a sync.Once: nothing is
// allocated at the start of a process that redacts nothing).
func logPattern() *regexp.Regexp {
	logOnce.Do(func() { logRE = regexp.MustCompile(strings.Join(logKinds, "|")) })
	return logRE
}

var (
	logOnce sync.Once
	logRE   *regexp.Regexp
)

// formats redacts, in each JSON string of b (a record's field: a string, a
// list of them, or the tool's input), the secrets package secret knows and
// those of logKinds. A string is decoded, redacted and written again only
// when a hint says it may hold one; b is returned as it is when nothing is
// redacted.
func formats(b []byte) []byte {
	if !hinted(b) {
		return b
	}
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		j := wire.StringEnd(b, i)
		if j < 0 {
			break
		}
		lit := b[i:j]
		if hinted(lit) {
			s := gjson.ParseBytes(lit).Str
			if r, ok := redactText(s); ok {
				out = append(out, b[last:i]...)
				out = wire.AppendQuote(out, r)
				last = j
			}
		}
		i = j - 1
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

func hinted(b []byte) bool {
	s := string(b) // one copy: cheaper than converting each of secret.Hints
	if secretfmt.Hinted(s) {
		return true
	}
	for _, h := range logHints {
		if containsFold(b, h) {
			return true
		}
	}
	return false
}

// containsFold reports whether b holds h (lower case) in any case. The
// places where h may start are found by its first byte, in each case,
// with bytes.IndexByte (bytes.IndexAny of two bytes tests them one by
// one, and every call's log line is scanned once per hint); the next
// place of each case is kept until the scan passes it, so that the scan
// stays linear when one case is frequent and the other rare.
func containsFold(b []byte, h string) bool {
	lo, up := h[0], upper(h[0])
	nextLo, nextUp := -1, -1
	for i := 0; i+len(h) <= len(b); {
		if nextLo < i {
			nextLo = indexFrom(b, i, lo)
		}
		if nextUp < i {
			nextUp = indexFrom(b, i, up)
		}
		k := min(nextLo, nextUp)
		if k+len(h) > len(b) {
			return false
		}
		if strings.EqualFold(string(b[k:k+len(h)]), h) {
			return true
		}
		i = k + 1
	}
	return false
}

// indexFrom is the index of the first c in b at or after i, len(b) when
// there is none.
func indexFrom(b []byte, i int, c byte) int {
	if k := bytes.IndexByte(b[i:], c); k >= 0 {
		return i + k
	}
	return len(b)
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// redactText is s with every secret in it replaced by Redacted, and
// whether there was one.
func redactText(s string) (string, bool) {
	var spans [][2]int
	secretfmt.Each(s, func(start, end int, k *secretfmt.Kind) bool {
		m := s[start:end]
		switch {
		case strings.Contains(k.RE, "://"):
			// scheme://user:password@host: the password only.
			at := start + strings.LastIndexByte(m, '@')
			from := start + strings.Index(m, "://") + 3
			if c := strings.IndexByte(s[from:at], ':'); c >= 0 {
				spans = append(spans, [2]int{from + c + 1, at})
			}
		case strings.Contains(k.RE, "pwd"):
			// A connection string's Password=…: the value only.
			spans = append(spans, [2]int{start + strings.LastIndexByte(m, '=') + 1, end})
		case strings.Contains(k.RE, "ecret_?access"):
			// Under its name: logKinds redacts the value.
		default:
			spans = append(spans, [2]int{start, end})
		}
		return true
	})
	re := logPattern()
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 && m[g+1] > m[g] {
				spans = append(spans, [2]int{m[g], m[g+1]})
			}
		}
	}
	if len(spans) == 0 {
		return s, false
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		from, to := spans[i][0], spans[i][1]
		for i++; i < len(spans) && spans[i][0] <= to; i++ {
			to = max(to, spans[i][1])
		}
		b.WriteString(s[last:from])
		b.WriteString(Redacted)
		last = to
	}
	b.WriteString(s[last:])
	return b.String(), true
}
