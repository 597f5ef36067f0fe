package extend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/remotecall"
)

// Fetcher reads configs from https URLs.
type Fetcher interface {
	// Get returns what url serves: at most config.MaxFileSize bytes (a
	// *config.TooLargeError beyond), status 200 only.
	Get(url string) ([]byte, error)
}

// HelperFetcher is the Fetcher of the commands: it starts hookshim-remote
// (config.Helper) with a "fetch" remotecall.Call and reads the config from its
// stdout. hookshim itself links no HTTP or TLS code (their package
// initialisation would cost every hook call, see docs/performance.md), so
// fetching a URL needs hookshim-remote, as http handlers do.
type HelperFetcher struct {
	// LookPath finds hookshim-remote when it is not next to hookshim;
	// nil: exec.LookPath.
	LookPath config.LookPath
}

// NoHelperError is a fetch without hookshim-remote to make it.
type NoHelperError struct{}

func (*NoHelperError) Error() string {
	return remotecall.Program + ", which fetches https URLs, is neither next to hookshim nor in PATH (hint: " + config.HelperFix + ")"
}

// helperGrace is how long hookshim-remote may take beyond its own
// deadline (remotecall.FetchTimeout) to report it, before it is killed.
const helperGrace = 5 * time.Second

// maxStderr bounds what is kept of hookshim-remote's stderr: one line is
// expected.
const maxStderr = 4 << 10

// Get runs hookshim-remote to fetch url.
func (h HelperFetcher) Get(url string) ([]byte, error) {
	helper, err := config.Helper(h.LookPath)
	if err != nil {
		return nil, &NoHelperError{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), remotecall.FetchTimeout+helperGrace)
	defer cancel()
	cmd := exec.CommandContext(ctx, helper)
	// Once it has exited or been killed, a child it left holding its
	// stderr does not keep the command waiting.
	cmd.WaitDelay = time.Second
	call := remotecall.Call{Kind: remotecall.Fetch, URL: url}
	// hookshim's environment goes along: SSL_CERT_FILE, SSL_CERT_DIR and
	// the proxy variables apply to the fetch as they would in hookshim.
	cmd.Env = append(cmd.Environ(), remotecall.Env+"="+string(call.Encode()))
	var stderr capped
	stderr.max = maxStderr
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: starting %s: %v", url, remotecall.Program, err)
	}
	body, readErr := io.ReadAll(io.LimitReader(out, config.MaxFileSize+1))
	if int64(len(body)) > config.MaxFileSize {
		// Not a config: stop it rather than read the rest.
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, &config.TooLargeError{Path: url, Size: int64(len(body)), Max: config.MaxFileSize}
	}
	err = cmd.Wait()
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("%s: no answer in time", url)
	case err != nil:
		var exit *exec.ExitError
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" && errors.As(err, &exit) {
			msg = fmt.Sprintf("%s: %s exited %d", url, remotecall.Program, exit.ExitCode())
		} else if msg == "" {
			msg = fmt.Sprintf("%s: %s: %v", url, remotecall.Program, err)
		}
		return nil, errors.New(msg)
	case readErr != nil:
		return nil, fmt.Errorf("%s: reading the answer of %s: %v", url, remotecall.Program, readErr)
	}
	return body, nil
}

// capped keeps the first max bytes written to it and drops the rest. The
// buffer is a field, not embedded: an embedded bytes.Buffer's ReadFrom is
// what os/exec's copy of the stream calls, and it would keep all of it.
type capped struct {
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) String() string { return c.buf.String() }

// ChangedError is a URL whose content is not what its pin names: it is
// refused.
type ChangedError struct {
	URL, Pin, Got string
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s changed: its content is %s, the pin is %s: refused", e.URL, e.Got, e.Pin)
}
