package config

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
)

// Extension is one entry of a config's "extends": another config whose
// hooks run before this file's own. Neither OpenHook 0.1 nor the Hook
// Interchange format has a way for one file to include another, so the
// field is hookshim's: a path, or an https URL pinned by the SHA-256 of
// its content in the Subresource Integrity form ("sha256-<base64>", as
// HTML's integrity attribute and npm's lockfile write it).
//
//	"extends": [
//	  "../policies/base.openhook.json",
//	  {"path": "../policies/base.openhook.json"},
//	  {"url": "https://example.com/team.openhook.json", "integrity": "sha256-…", "on_error": "deny"}
//	]
type Extension struct {
	Path      string // the file, absolute (relative ones start at the extending file's folder); "" for a URL
	URL       string // the https URL; "" for a path
	Integrity string // "sha256-<base64>": the pin of a URL's content
	OnError   string // what an extension that cannot be read means: "allow", "deny", or "" for the extending file's on_error
	Line, Col int    // where the entry is in the extending file
}

// Name is the path or URL, for messages.
func (e Extension) Name() string {
	if e.URL != "" {
		return e.URL
	}
	return e.Path
}

// Integrity is the pin of content: "sha256-" and the standard base64 of
// its SHA-256.
func Integrity(content []byte) string {
	sum := sha256.Sum256(content)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// PinSum is the SHA-256 a pin names; ok is false when pin is not of the
// form "sha256-<base64 of 32 bytes>".
func PinSum(pin string) (sum [32]byte, ok bool) {
	b64, found := strings.CutPrefix(pin, "sha256-")
	if !found {
		return sum, false
	}
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(b) != len(sum) {
		return sum, false
	}
	copy(sum[:], b)
	return sum, true
}

// extends parses the "extends" array.
func (p *parser) extends(f *File, v gjson.Result) []Extension {
	if !v.IsArray() {
		p.fail(v, `"extends" must be an array of paths or {"url": "https://…", "integrity": "sha256-…"} objects`)
		return nil
	}
	var out []Extension
	v.ForEach(func(_, e gjson.Result) bool {
		if x, ok := p.extension(f, e); ok {
			out = append(out, x)
		}
		return p.err == nil
	})
	return out
}

func (p *parser) extension(f *File, v gjson.Result) (Extension, bool) {
	var x Extension
	x.Line, x.Col = p.lineCol(v.Index)
	var pathAt, urlAt, pinAt gjson.Result
	switch {
	case v.Type == gjson.String:
		pathAt = v
	case v.IsObject():
		v.ForEach(func(k, val gjson.Result) bool {
			switch k.Str {
			case "path":
				pathAt = val
			case "url":
				urlAt = val
			case "integrity":
				pinAt = val
			case "on_error":
				x.OnError = p.onError(val)
			default:
				p.fail(k, fmt.Sprintf("unknown field %q in extends entry%s (known: path, url, integrity, on_error)", k.Str, DidYouMean(k.Str, []string{"path", "url", "integrity", "on_error"})))
			}
			return p.err == nil
		})
	default:
		p.fail(v, `an extends entry is a path or an object with "path" or "url"`)
	}
	if p.err != nil {
		return x, false
	}
	switch {
	case pathAt.Exists() && urlAt.Exists():
		p.fail(v, `an extends entry has "path" or "url", not both`)
	case pathAt.Exists():
		s := p.str(pathAt, "path")
		if p.err != nil {
			return x, false
		}
		if strings.Contains(s, "://") {
			p.fail(pathAt, fmt.Sprintf(`%q is a URL: write it as {"url": %q, "integrity": "sha256-…"} (hint: hookshim extend %s fetches it once and writes the entry with its pin)`, s, s, s))
			return x, false
		}
		if strings.TrimSpace(s) == "" {
			p.fail(pathAt, `"path" must not be empty`)
			return x, false
		}
		if pinAt.Exists() {
			p.fail(pinAt, `"integrity" pins a URL's content; a path is covered by the allowance of the file that extends it`)
			return x, false
		}
		if !filepath.IsAbs(s) {
			s = filepath.Join(f.Dir, s)
		}
		x.Path = filepath.Clean(s)
	case urlAt.Exists():
		s := p.str(urlAt, "url")
		if p.err != nil {
			return x, false
		}
		u, err := url.Parse(s)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
			p.fail(urlAt, fmt.Sprintf(`"url" must be an https URL without credentials (got %q)`, s))
			return x, false
		}
		x.URL = s
		if !pinAt.Exists() {
			p.fail(urlAt, fmt.Sprintf(`%s is not pinned: add "integrity": "sha256-<base64 of its SHA-256>", so that a changed file is refused rather than run (hint: hookshim extend %s fetches it once, prints its pin and writes the entry)`, s, s))
			return x, false
		}
		x.Integrity = p.str(pinAt, "integrity")
		if _, ok := PinSum(x.Integrity); !ok && p.err == nil {
			p.fail(pinAt, fmt.Sprintf(`"integrity" must be "sha256-" and the base64 of the content's SHA-256 (44 characters), as "openssl dgst -sha256 -binary FILE | base64" prints it (got %q)`, x.Integrity))
		}
	default:
		p.fail(v, `an extends entry needs "path" or "url"`)
	}
	return x, p.err == nil
}

// ParseRemote parses a config fetched from url: errors name the URL, and
// its hooks' relative commands and folders start at dir (the folder of
// the file that extends it), as no folder comes with it.
func ParseRemote(url, dir string, data []byte) (*File, error) {
	return parse(url, dir, data)
}
