// Package remote sends http and prompt handlers: the envelope POSTed to a
// policy server, or a prompt with the event in it to a model; and it
// fetches the configs that configs extend by URL (for the commands that
// fill package extend's cache, never for a hook call). It is the
// whole of hookshim-remote, a program of its own that hookshim starts like
// a command handler: the HTTP and TLS code of the standard library costs a
// fraction of a millisecond to load at every process start (package
// initialisation), which the calls that send nothing, nearly all of them,
// would otherwise pay. hookshim itself never imports this package.
//
// hookshim hands it one remotecall.Call in the HOOKSHIM_REMOTE_CALL variable
// and the envelope on stdin (a fetch has none). It answers like a command
// handler: exit 0 with the answer JSON (or nothing; a fetch: the config's
// bytes) on stdout, or exit 1 with one line on stderr saying what failed.
// Its deadline is hookshim's: it is killed at the handler's timeout, or
// sooner when the tool's own runs out (a fetch has its own, FetchTimeout).
package remote

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/hookshim/hookshim/internal/buildinfo"
	"github.com/hookshim/hookshim/internal/remotecall"
	"github.com/hookshim/hookshim/internal/wire"
	"github.com/tidwall/gjson"
)

// MaxBody bounds what is read of a response, as run.MaxOutput bounds a
// command handler's stdout: a server that answers more has failed.
const MaxBody = 1 << 20

// MaxRedirects is how many same-host 307/308 redirects are followed.
const MaxRedirects = 3

// usage is hookshim-remote's help: it is started by hookshim, but someone
// who finds it next to hookshim and runs it should learn what it is.
const usage = `hookshim-remote: sends hookshim's http and prompt handlers, and fetches the configs a config extends by URL

Usage:
  hookshim-remote version
      Print the version, the commit and the Go release it was built with.
  hookshim-remote help
      Print this text (also: --help, -h).

hookshim starts it, next to itself or from PATH, for each http or prompt
handler that runs (the call in HOOKSHIM_REMOTE_CALL, the envelope on stdin),
and for 'hookshim fetch' and 'hookshim extend' of an https URL. Keep it in
the same folder as hookshim. Docs: README.md, docs/config.md
`

// Main is hookshim-remote: the call from getenv, the envelope from stdin;
// or, with an argument, its help or version.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help", "help":
			fmt.Fprint(stdout, usage)
			return 0
		case "version", "--version", "-version":
			fmt.Fprint(stdout, buildinfo.Get().Text(remotecall.Program))
			return 0
		}
		fmt.Fprintf(stderr, "%s: error: unknown command %q\n%s: hint: run '%s --help'; hookshim starts it with no arguments\n", remotecall.Program, args[0], remotecall.Program, remotecall.Program)
		return 2
	}
	c, err := remotecall.Decode([]byte(getenv(remotecall.Env)))
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v (it is started by hookshim for http and prompt handlers, and to fetch extended configs)\n", remotecall.Program, err)
		return 1
	}
	var answer []byte
	if c.Kind == "fetch" {
		// No envelope: stdin is not read.
		answer, err = Fetch(context.Background(), c.URL)
	} else {
		envelope, rerr := io.ReadAll(stdin)
		if rerr != nil {
			fmt.Fprintf(stderr, "reading the envelope: %v\n", rerr)
			return 1
		}
		if c.Kind == "prompt" {
			answer, err = Judge(context.Background(), &c, envelope)
		} else {
			answer, err = Post(context.Background(), &c, envelope)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, wire.OneLine(err.Error()))
		return 1
	}
	_, _ = stdout.Write(answer)
	return 0
}

// Post sends the envelope to an http handler's URL (under the key c.Wrap,
// when set: OPA's data API reads {"input": …}) and returns its answer: the response body of a 2xx, or the value at c.Result in it
// (nothing when that is absent or null: OPA answers {} for an undefined
// decision). Any other status, a failed connection, a body over MaxBody
// or a redirect elsewhere is an error.
func Post(ctx context.Context, c *remotecall.Call, envelope []byte) ([]byte, error) {
	if c.Wrap != "" {
		var o wire.Object
		envelope = o.Raw(c.Wrap, bytes.TrimSpace(envelope)).Close()
	}
	body, err := send(ctx, c, envelope)
	if err != nil {
		return nil, err
	}
	if c.Result == "" {
		return body, nil
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	if !gjson.ValidBytes(body) {
		return nil, fmt.Errorf("%s answered with something that is not JSON: %s", c.URL, excerpt(body))
	}
	v := gjson.GetBytes(body, c.Result)
	if !v.Exists() || v.Type == gjson.Null {
		return nil, nil
	}
	return []byte(v.Raw), nil
}

// send POSTs payload as JSON with the call's headers and returns the body
// of a 2xx answer.
func send(ctx context.Context, c *remotecall.Call, payload []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "hookshim")
	for _, h := range c.Header {
		req.Header.Set(h[0], h[1])
	}
	resp, err := client(c).Do(req)
	if err != nil {
		return nil, explain(c.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("%s: reading the answer: %v", c.URL, err)
	}
	if len(body) > MaxBody {
		return nil, fmt.Errorf("%s answered more than %d bytes; the answer was not read", c.URL, MaxBody)
	}
	if resp.StatusCode/100 != 2 {
		msg := fmt.Sprintf("%s answered %s", c.URL, resp.Status)
		if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
			msg += ", a redirect to " + loc + " that is not followed (only 307 and 308 to the same host are)"
		} else if len(bytes.TrimSpace(body)) > 0 {
			msg += ": " + excerpt(body)
		}
		return nil, errors.New(msg)
	}
	return body, nil
}

// client verifies TLS certificates against the system's roots (and
// SSL_CERT_FILE / SSL_CERT_DIR, which Go reads); there is no option to
// turn that off. It follows only 307 and 308 redirects, which keep the
// method and body, to the same host, never from https to http.
func client(c *remotecall.Call) *http.Client {
	return &http.Client{
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			first := via[0].URL
			switch {
			case len(via) > MaxRedirects:
				return http.ErrUseLastResponse
			case req.Response != nil && req.Response.StatusCode != http.StatusTemporaryRedirect && req.Response.StatusCode != http.StatusPermanentRedirect:
				return http.ErrUseLastResponse
			case !strings.EqualFold(req.URL.Host, first.Host):
				return http.ErrUseLastResponse
			case first.Scheme == "https" && req.URL.Scheme != "https":
				return http.ErrUseLastResponse
			case remotecall.CheckURL(req.URL.String(), c.AllowHTTP) != nil:
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
}

// explain turns a transport error into one line naming the URL, with the
// fix for a certificate that is not trusted.
func explain(u string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var host x509.HostnameError
	var verify *tls.CertificateVerificationError
	switch {
	case errors.As(err, &unknown), errors.As(err, &invalid), errors.As(err, &host), errors.As(err, &verify):
		return fmt.Errorf("%s: TLS certificate not accepted: %v (the server needs a certificate this machine trusts; a private CA can be added with SSL_CERT_FILE)", u, err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: no answer in time", u)
	}
	return fmt.Errorf("%s: %v", u, err)
}

func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return wire.OneLine(s)
}
