package remote

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/hookshim/hookshim/internal/remotecall"
)

// MaxFetchRedirects is how many redirects a fetch follows, each to https:
// a config may move (a repository renamed, a CDN), and its pin, not its
// address, says whether what is found there is the one meant.
const MaxFetchRedirects = 10

// Fetch GETs a config that a config extends by URL (package extend pins
// it by its content's hash): status 200 only, at most remotecall.MaxConfigSize
// bytes, within remotecall.FetchTimeout. The client verifies TLS against the
// system's roots (SSL_CERT_FILE and SSL_CERT_DIR add roots, as for every
// Go program) and follows redirects to https URLs only.
func Fetch(ctx context.Context, url string) ([]byte, error) {
	return fetch(ctx, fetchClient(nil), url)
}

// fetchClient is the client of Fetch, over rt (nil: the default
// transport; tests give one that trusts their server).
func fetchClient(rt http.RoundTripper) *http.Client {
	return &http.Client{
		Transport: rt,
		Timeout:   remotecall.FetchTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.URL.Scheme != "https" {
				return fmt.Errorf("redirected to %s: only https is followed", req.URL.Redacted())
			}
			if len(via) > MaxFetchRedirects {
				return fmt.Errorf("more than %d redirects", MaxFetchRedirects)
			}
			return nil
		},
	}
}

func fetch(ctx context.Context, c *http.Client, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, remotecall.FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "hookshim")
	resp, err := c.Do(req)
	if err != nil {
		return nil, explain(url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %s", url, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, remotecall.MaxConfigSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	if len(b) > remotecall.MaxConfigSize {
		return nil, fmt.Errorf("%s is larger than %d bytes: not read", url, remotecall.MaxConfigSize)
	}
	return b, nil
}
