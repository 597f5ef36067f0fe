// Package remotecall is what hookshim and hookshim-remote agree on: the
// name of the program, the request hookshim hands it (a Call, as JSON in
// the Env variable, the envelope on stdin), the URLs either side accepts,
// and the bounds of a fetch. It is small and imports nothing of hookshim's
// own, so that hookshim-remote links none of the config parser, the policy
// pack or the rule engine (architecture_test.go).
//
// The answer comes back as a command handler's: exit 0 with the answer's
// JSON (or nothing; a fetch: the config's bytes) on stdout, or exit 1 with
// one line on stderr saying what failed.
package remotecall

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Program is the program that sends http and prompt handlers and fetches
// configs extended by URL.
const Program = "hookshim-remote"

// Env is the variable that hands a Call to hookshim-remote.
const Env = "HOOKSHIM_REMOTE_CALL"

// The kinds of Call.
const (
	HTTP   = "http"   // POST the envelope to a policy server
	Prompt = "prompt" // ask a model about the envelope
	Fetch  = "fetch"  // GET a config extended by URL; no envelope
)

// The APIs a prompt handler speaks.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
)

// FetchTimeout bounds one fetch: fetching is done by commands the user
// runs (hookshim fetch, extend, allow), never by a hook call.
const FetchTimeout = 15 * time.Second

// MaxConfigSize is the largest config hookshim reads (config.MaxFileSize
// is this): hookshim-remote stops fetching beyond it, and hookshim reads
// no more of its answer. Real configs are a few kilobytes.
const MaxConfigSize = 1 << 20

// Call is one request hookshim-remote is asked to make, resolved by the
// calling hookshim (headers expanded, endpoint and key found in its
// environment). A fetch has only a URL.
type Call struct {
	Kind      string      // HTTP, Prompt or Fetch
	Hook      string      // the hook's name, for messages
	URL       string      // where to POST (fetch: to GET)
	Header    [][2]string // expanded
	Wrap      string      // http: the key to send the envelope under
	Result    string      // http: the path of the answer in the response
	AllowHTTP bool
	API       string // prompt: OpenAI or Anthropic
	Model     string
	Key       string // prompt: the API key, "" for none
	Prompt    string
	// Rewrite: prompt: the model's answer may hold updated_input (the
	// handler's "allow_rewrite"); without it such an answer is a failure.
	Rewrite bool
}

// Encode writes the call as JSON.
func (c *Call) Encode() []byte {
	b := []byte("{}")
	set := func(k string, v any) { b, _ = sjson.SetBytes(b, k, v) }
	set("kind", c.Kind)
	set("hook", c.Hook)
	set("url", c.URL)
	headers := make([][]string, len(c.Header))
	for i, h := range c.Header {
		headers[i] = []string{h[0], h[1]}
	}
	set("headers", headers)
	set("wrap", c.Wrap)
	set("result", c.Result)
	set("allow_http", c.AllowHTTP)
	set("api", c.API)
	set("model", c.Model)
	set("key", c.Key)
	set("prompt", c.Prompt)
	set("rewrite", c.Rewrite)
	return b
}

// Decode reads what Encode wrote, and refuses a URL that hookshim would
// not have sent: the checks are made again on this side of the process
// boundary.
func Decode(b []byte) (Call, error) {
	if !gjson.ValidBytes(b) {
		return Call{}, errors.New(Env + " is not JSON")
	}
	d := gjson.ParseBytes(b)
	c := Call{
		Kind: d.Get("kind").Str, Hook: d.Get("hook").Str, URL: d.Get("url").Str,
		Wrap: d.Get("wrap").Str, Result: d.Get("result").Str, AllowHTTP: d.Get("allow_http").Bool(),
		API: d.Get("api").Str, Model: d.Get("model").Str, Key: d.Get("key").Str, Prompt: d.Get("prompt").Str,
		Rewrite: d.Get("rewrite").Bool(),
	}
	d.Get("headers").ForEach(func(_, h gjson.Result) bool {
		c.Header = append(c.Header, [2]string{h.Get("0").Str, h.Get("1").Str})
		return true
	})
	switch c.Kind {
	case HTTP, Prompt:
		return c, CheckURL(c.URL, c.AllowHTTP)
	case Fetch:
		// Extended configs come over https only: their pin guards the
		// content, TLS who serves it.
		if err := CheckURL(c.URL, false); err != nil {
			return c, err
		}
		if !strings.HasPrefix(c.URL, "https://") {
			return c, fmt.Errorf("URL %q: only https URLs are fetched", c.URL)
		}
		return c, nil
	}
	return c, fmt.Errorf("%s: unknown kind %q", Env, c.Kind)
}

// CheckURL accepts an http(s) URL with a host. Plain http reaches only
// this machine (localhost, a loopback address) unless allowHTTP: the
// envelope carries commands, file contents and prompts, and headers carry
// tokens, which must not cross a network in clear text by accident.
func CheckURL(raw string, allowHTTP bool) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("not a URL: %v", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("URL %q must start with https:// (or http:// to this machine)", raw)
	case u.Host == "":
		return fmt.Errorf("URL %q has no host", raw)
	case u.User != nil:
		return fmt.Errorf("URL %q carries a user or password: put credentials in \"headers\", from an environment variable", raw)
	case u.Scheme == "http" && !allowHTTP && !Loopback(u.Hostname()):
		return fmt.Errorf("URL %q is plain http to another machine: use https, or set \"allow_http\": true to send in clear text", raw)
	}
	return nil
}

// Loopback reports whether host names this machine.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}
