package main

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// tlsServe is the script command `tlsserve DIR`: an https server on
// 127.0.0.1 serving the files under DIR, as they are at each request,
// until the script ends. It sets URL to the server's address and
// SSL_CERT_FILE to its certificate, the root that every Go program (the
// real hookshim included) then trusts: no switch in hookshim turns TLS
// verification off.
func tlsServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tlsserve DIR")
	}
	srv := httptest.NewTLSServer(http.FileServer(http.Dir(ts.MkAbs(args[0]))))
	ts.Defer(srv.Close)
	ca := ts.MkAbs("tls-root.pem")
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	ts.Check(os.WriteFile(ca, block, 0o644))
	ts.Setenv("SSL_CERT_FILE", ca)
	ts.Setenv("URL", srv.URL)
}
