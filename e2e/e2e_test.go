// Package e2e runs hookshim inside the real AI coding tools.
//
// Each client is installed from npm at the version pinned in versions.json
// (cached in .e2e/<client>/<version>), pointed at a mock model on 127.0.0.1
// (mockmodel) that asks for one shell call and then answers "done", and run
// headless in a throwaway HOME and project where `hookshim install` has
// registered hookshim. Every scenario writes its own .openhook.json; the
// outcome is read from the project (did the command run?), from what the
// mock model received (did a reason or a context reach the model?) and from
// hookshim's log (was the payload recognised?).
//
// The tests run only with HOOKSHIM_E2E=1 (make e2e): they download clients
// and take minutes. A client that cannot be installed is skipped, loudly;
// with CI=true it fails instead.
//
// Environment:
//
//	HOOKSHIM_E2E=1          run at all
//	HOOKSHIM_BIN            the hookshim to test, with its hookshim-remote next to it (default: built from this tree)
//	HOOKSHIM_E2E_CLIENTS    comma-separated clients to run (default: all in versions.json)
//	HOOKSHIM_E2E_RECORD=1   rewrite the testdata/payloads/<id>/<Event>-real.json that are new,
//	                        changed shape or come from another client version (=all: every one)
//	HOOKSHIM_E2E_DRIFT      file to write the payload drift report to
//	HOOKSHIM_E2E_KEEP=1     keep each run's folder (printed) for inspection
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookshim/hookshim/e2e/pins"
)

var (
	// root is the repository root.
	root string
	// hookshimBin and helperBin are the programs under test.
	hookshimBin, helperBin string
	// installCmd reports whether this hookshim has the install command.
	installCmd bool
	// pinned are the pinned client versions.
	pinned map[string]pins.Pin
	// started is when the suite started, for the timing report.
	started = time.Now()
)

func TestMain(m *testing.M) {
	if os.Getenv("HOOKSHIM_E2E") != "1" {
		fmt.Println("e2e: skipped (set HOOKSHIM_E2E=1, or run make e2e: it installs real clients from npm)")
		os.Exit(0)
	}
	bins, err := setup()
	if err != nil {
		os.RemoveAll(bins)
		fmt.Fprintln(os.Stderr, "e2e: setup:", err)
		os.Exit(1)
	}
	rc := m.Run()
	os.RemoveAll(bins)
	fmt.Print(driftReport())
	fmt.Print(timings.report())
	fmt.Printf("e2e: whole suite took %s\n", time.Since(started).Round(time.Second))
	os.Exit(rc)
}

// setup builds hookshim and the helper into a temporary folder (returned)
// and reads the pins.
func setup() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root = filepath.Dir(wd)
	pinned, err = pins.Read(filepath.Join(wd, "versions.json"))
	if err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp("", "hookshim-e2e-bin-")
	if err != nil {
		return "", err
	}
	helperBin = filepath.Join(tmp, "e2ehelper")
	if err := goBuild(helperBin, "./e2e/cmd/e2ehelper"); err != nil {
		return tmp, err
	}
	hookshimBin = os.Getenv("HOOKSHIM_BIN")
	if hookshimBin == "" {
		hookshimBin = filepath.Join(tmp, "hookshim")
		if err := goBuild(hookshimBin, "./cmd/hookshim"); err != nil {
			return tmp, err
		}
		// http and prompt handlers are sent by hookshim-remote, which
		// hookshim finds next to itself (a HOOKSHIM_BIN brings its own).
		if err := goBuild(filepath.Join(tmp, "hookshim-remote"), "./cmd/hookshim-remote"); err != nil {
			return tmp, err
		}
	} else if hookshimBin, err = filepath.Abs(hookshimBin); err != nil {
		return tmp, err
	}
	// `install --help` of a hookshim without the command says "unknown
	// command"; with it, it prints the flags.
	out, _ := exec.Command(hookshimBin, "install", "--help").CombinedOutput()
	installCmd = !strings.Contains(string(out), "unknown command")
	return tmp, nil
}

func goBuild(out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// selected reports whether HOOKSHIM_E2E_CLIENTS asks for the client.
func selected(name string) bool {
	list := os.Getenv("HOOKSHIM_E2E_CLIENTS")
	if list == "" {
		return true
	}
	for _, n := range strings.Split(list, ",") {
		if strings.TrimSpace(n) == name {
			return true
		}
	}
	return false
}

// TestClients runs every scenario in every client, clients in parallel.
func TestClients(t *testing.T) {
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			if !selected(c.name) {
				t.Skip("not in HOOKSHIM_E2E_CLIENTS")
			}
			t.Parallel()
			testClient(t, c)
		})
	}
}

// timings collects how long each client run took, for the report printed
// at the end (make e2e must stay well inside CI's time limit).
var timings timingLog

type timingLog struct {
	mu   sync.Mutex
	rows []string
	sum  map[string]time.Duration
}

func (l *timingLog) add(client, scenario string, res *result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sum == nil {
		l.sum = map[string]time.Duration{}
	}
	net := "network not traced"
	if res.traced {
		net = fmt.Sprintf("%d off-loopback contacts", len(res.network))
	}
	l.rows = append(l.rows, fmt.Sprintf("  %-8s %-14s %7s  exit %d, %d model requests, %d hookshim calls, %s",
		client, scenario, res.took.Round(100*time.Millisecond), res.exit, len(res.requests), len(res.calls), net))
	l.sum[client] += res.took
}

func (l *timingLog) report() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.rows) == 0 {
		return ""
	}
	sort.Strings(l.rows)
	var b strings.Builder
	b.WriteString("e2e: client runs (wall time of each, runs overlap):\n")
	for _, r := range l.rows {
		b.WriteString(r + "\n")
	}
	var names []string
	for n := range l.sum {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "  %-8s total  %s\n", n, l.sum[n].Round(time.Second))
	}
	return b.String()
}
