package extend

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/remotecall"
	"github.com/stretchr/testify/require"
)

// helper is a HelperFetcher whose hookshim-remote is the shell script
// given.
func helper(t *testing.T, script string) HelperFetcher {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake hookshim-remote is a shell script")
	}
	p := filepath.Join(t.TempDir(), remotecall.Program)
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755))
	return HelperFetcher{LookPath: func(string) (string, error) { return p, nil }}
}

const url = "https://example.com/team.json"

// hookshim-remote gets a fetch call in its environment, and its stdout is
// the config.
func TestHelperFetcher(t *testing.T) {
	got, err := helper(t, `printf '%s' "$`+remotecall.Env+`"`).Get(url)
	require.NoError(t, err)
	call, err := remotecall.Decode(got)
	require.NoError(t, err)
	require.Equal(t, remotecall.Call{Kind: remotecall.Fetch, URL: url}, call)
}

// Its failure is the first line of its stderr, or its exit code.
func TestHelperFetcherFails(t *testing.T) {
	_, err := helper(t, `echo "`+url+`: HTTP 404 Not Found" >&2; echo more >&2; exit 1`).Get(url)
	require.EqualError(t, err, url+": HTTP 404 Not Found")
	_, err = helper(t, `exit 3`).Get(url)
	require.EqualError(t, err, url+": hookshim-remote exited 3")
}

// More than a config may hold is refused, and the helper stopped.
func TestHelperFetcherBounds(t *testing.T) {
	_, err := helper(t, `exec yes`).Get(url)
	var big *config.TooLargeError
	require.True(t, errors.As(err, &big), "%v", err)
	require.Equal(t, int64(config.MaxFileSize), big.Max)

	got, err := helper(t, `exec head -c `+strconv.Itoa(config.MaxFileSize)+` /dev/zero`).Get(url)
	require.NoError(t, err)
	require.Len(t, got, config.MaxFileSize)
}

// The helper's stderr is kept up to maxStderr however it is copied in
// (os/exec's copy uses a writer's ReadFrom when it has one).
func TestCappedStderr(t *testing.T) {
	c := capped{max: maxStderr}
	_, err := io.Copy(&c, strings.NewReader(strings.Repeat("x", 10*maxStderr)))
	require.NoError(t, err)
	require.Len(t, c.String(), maxStderr)
	_, err = helper(t, `head -c 1000000 /dev/zero | tr '\\0' x >&2; exit 1`).Get(url)
	require.Error(t, err)
	require.LessOrEqual(t, len(err.Error()), maxStderr)
}

// Without hookshim-remote, the error says how to install it.
func TestHelperFetcherMissing(t *testing.T) {
	_, err := HelperFetcher{LookPath: func(string) (string, error) { return "", errors.New("not found") }}.Get(url)
	var none *NoHelperError
	require.True(t, errors.As(err, &none), "%v", err)
	require.EqualError(t, err, "hookshim-remote, which fetches https URLs, is neither next to hookshim nor in PATH"+
		" (hint: install it next to hookshim: every release archive, install.sh and the npm package carry both; in a checkout, go install ./cmd/... installs both)")
}
