package main

import (
	"encoding/json"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// serve starts a server for the script, on 127.0.0.1, that lives as long
// as the script: a policy server or a model API as http and prompt
// handlers reach them.
//
//	serve [-status N] [-delay D] [-redirect URL] NAME FILE
//
// answers every request with status N (200) and FILE's content, after D,
// or redirects (307) to URL; sets $NAME to http://127.0.0.1:PORT and
// appends each request to $WORK/NAME.requests as one JSON line (method,
// path, headers, body).
func serve(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! serve")
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	status := fs.Int("status", 200, "status")
	delay := fs.Duration("delay", 0, "delay")
	redirect := fs.String("redirect", "", "redirect to")
	if err := fs.Parse(args); err != nil || fs.NArg() != 2 {
		ts.Fatalf("usage: serve [-status N] [-delay D] [-redirect URL] NAME FILE")
	}
	name := fs.Arg(0)
	body, err := os.ReadFile(ts.MkAbs(fs.Arg(1)))
	ts.Check(err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	log := filepath.Join(ts.Getenv("WORK"), name+".requests")
	var mu sync.Mutex
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		line, _ := json.Marshal(map[string]any{"method": r.Method, "path": r.URL.Path, "headers": r.Header, "body": string(b)})
		mu.Lock()
		if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.Write(append(line, '\n'))
			f.Close()
		}
		mu.Unlock()
		select {
		case <-time.After(*delay):
		case <-r.Context().Done():
			return
		}
		if *redirect != "" {
			http.Redirect(w, r, *redirect, http.StatusTemporaryRedirect)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(*status)
		w.Write(body)
	})}
	go srv.Serve(ln)
	ts.Defer(func() { srv.Close() })
	ts.Setenv(name, "http://"+ln.Addr().String())
}

// envsubst replaces @NAME@ in each file with the script's $NAME: configs
// that name a server serve started (${NAME} is left for hookshim).
func envsubst(ts *testscript.TestScript, neg bool, args []string) {
	at := regexp.MustCompile(`@[A-Z][A-Z0-9_]*@`)
	for _, f := range args {
		p := ts.MkAbs(f)
		b, err := os.ReadFile(p)
		ts.Check(err)
		out := at.ReplaceAllStringFunc(string(b), func(m string) string { return ts.Getenv(m[1 : len(m)-1]) })
		ts.Check(os.WriteFile(p, []byte(out), 0o644))
	}
}
