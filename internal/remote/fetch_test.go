package remote

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hookshim/hookshim/internal/remotecall"
	"github.com/stretchr/testify/require"
)

// tlsServer is an https server on 127.0.0.1 serving what body holds (404
// when nil), and redirects: /hop/N redirects to /hop/N-1, /hop/0 to
// /team.json.
type tlsServer struct {
	*httptest.Server
	mu     sync.Mutex
	body   []byte
	accept string
}

func newTLSServer(t *testing.T) *tlsServer {
	s := &tlsServer{}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.accept = r.Header.Get("Accept")
		if n, ok := strings.CutPrefix(r.URL.Path, "/hop/"); ok {
			next := "/team.json"
			if i, _ := strconv.Atoi(n); i > 0 {
				next = "/hop/" + strconv.Itoa(i-1)
			}
			http.Redirect(w, r, next, http.StatusFound)
			return
		}
		if s.body == nil {
			http.NotFound(w, r)
			return
		}
		w.Write(s.body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *tlsServer) serve(b []byte) {
	s.mu.Lock()
	s.body = b
	s.mu.Unlock()
}

// get fetches with a client that trusts the test server, as a machine
// whose roots include its CA (SSL_CERT_FILE) does.
func (s *tlsServer) get(url string) ([]byte, error) {
	return fetch(context.Background(), fetchClient(s.Client().Transport), url)
}

func TestFetch(t *testing.T) {
	srv := newTLSServer(t)
	team := []byte(`{"spec": "hooks/0.1", "hooks": []}`)
	srv.serve(team)

	got, err := srv.get(srv.URL + "/team.json")
	require.NoError(t, err)
	require.Equal(t, team, got)
	require.Equal(t, "application/json", srv.accept)

	// Status 200 only.
	srv.serve(nil)
	_, err = srv.get(srv.URL + "/team.json")
	require.EqualError(t, err, srv.URL+"/team.json: HTTP 404 Not Found")
}

// The production client verifies TLS against the system's roots: the
// test server's certificate is signed by none of them.
func TestFetchVerifiesTLS(t *testing.T) {
	srv := newTLSServer(t)
	srv.serve([]byte(`{}`))
	_, err := Fetch(context.Background(), srv.URL+"/team.json")
	require.ErrorContains(t, err, "TLS certificate not accepted")
	require.ErrorContains(t, err, "SSL_CERT_FILE")
}

func TestFetchBounds(t *testing.T) {
	srv := newTLSServer(t)
	srv.serve([]byte(strings.Repeat(" ", remotecall.MaxConfigSize+1)))
	_, err := srv.get(srv.URL + "/big.json")
	require.ErrorContains(t, err, "is larger than 1048576 bytes: not read")

	// Exactly the cap is read.
	srv.serve([]byte(strings.Repeat(" ", remotecall.MaxConfigSize)))
	got, err := srv.get(srv.URL + "/team.json")
	require.NoError(t, err)
	require.Len(t, got, remotecall.MaxConfigSize)
}

// Redirects are followed to https only, at most MaxFetchRedirects of them.
func TestFetchRedirects(t *testing.T) {
	srv := newTLSServer(t)
	srv.serve([]byte(`{}`))

	got, err := srv.get(srv.URL + "/hop/" + strconv.Itoa(MaxFetchRedirects-1)) // 10 redirects
	require.NoError(t, err)
	require.Equal(t, "{}", string(got))
	_, err = srv.get(srv.URL + "/hop/" + strconv.Itoa(MaxFetchRedirects)) // 11
	require.ErrorContains(t, err, "more than 10 redirects")
	require.Equal(t, 10, MaxFetchRedirects)

	plain := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{}`) })
	down := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/team.json", http.StatusMovedPermanently)
	}))
	defer down.Close()
	_, err = fetch(context.Background(), fetchClient(down.Client().Transport), down.URL+"/team.json")
	require.ErrorContains(t, err, "redirected to "+plain.URL+"/team.json: only https is followed")
}

// hookshim-remote fetches for a "fetch" call, without reading stdin, and
// fails with one line on stderr.
func TestMainFetch(t *testing.T) {
	srv := newTLSServer(t)
	srv.serve([]byte(`{}`))
	for url, want := range map[string]string{
		srv.URL + "/team.json":         "TLS certificate not accepted",
		"http://127.0.0.1:1/team.json": "only https URLs are fetched",
	} {
		call := (&remotecall.Call{Kind: "fetch", URL: url}).Encode()
		var stdout, stderr bytes.Buffer
		code := Main(nil, failingReader{t}, &stdout, &stderr, func(k string) string {
			if k == remotecall.Env {
				return string(call)
			}
			return ""
		})
		require.Equal(t, 1, code, url)
		require.Empty(t, stdout.String(), url)
		require.Contains(t, stderr.String(), want, url)
		require.Equal(t, 1, strings.Count(stderr.String(), "\n"), url)
	}
}

type failingReader struct{ t *testing.T }

func (r failingReader) Read([]byte) (int, error) {
	r.t.Error("a fetch read stdin")
	return 0, io.EOF
}
