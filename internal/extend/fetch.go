package extend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/hookshim/hookshim/internal/config"
)

// FetchTimeout bounds one fetch: fetching is done by commands the user
// runs (hookshim fetch, extend, allow), never by a hook call.
const FetchTimeout = 15 * time.Second

// Fetcher reads configs from https URLs.
type Fetcher struct {
	// Client makes the requests; nil: one that verifies TLS against the
	// system's roots (SSL_CERT_FILE and SSL_CERT_DIR add roots, as for
	// every Go program) and follows redirects to https URLs only.
	Client *http.Client
}

// ChangedError is a URL whose content is not what its pin names: it is
// refused.
type ChangedError struct {
	URL, Pin, Got string
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s changed: its content is %s, the pin is %s: refused", e.URL, e.Got, e.Pin)
}

func (f *Fetcher) client() *http.Client {
	if f != nil && f.Client != nil {
		return f.Client
	}
	return &http.Client{
		Timeout: FetchTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.URL.Scheme != "https" {
				return fmt.Errorf("redirected to %s: only https is followed", req.URL.Redacted())
			}
			if len(via) >= 10 {
				return errors.New("more than 10 redirects")
			}
			return nil
		},
	}
}

// Get fetches url: at most config.MaxFileSize bytes, status 200 only.
func (f *Fetcher) Get(url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client().Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %s", url, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, config.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	if int64(len(b)) > config.MaxFileSize {
		return nil, &config.TooLargeError{Path: url, Size: int64(len(b)), Max: config.MaxFileSize}
	}
	return b, nil
}
