package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookshim/hookshim/internal/cli"
	"github.com/hookshim/hookshim/internal/remote"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain registers the real hookshim and a fake handler as programs the
// scripts (and hookshim's own child processes) can run.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"hookshim":    func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)) },
		"fakehandler": func() { os.Exit(fakeHandler(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },

		// Sends http and prompt handlers; found in PATH.
		"hookshim-remote": func() { os.Exit(remote.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)) },
	})
}

// TestScripts runs testdata/script/*.txtar against the real binary.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "../../testdata/script",
		// serve_test.go: servers for http and prompt handlers;
		// tlsserve: an https server for extended configs; jsonlines: the
		// decision log's records are whole.
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"serve": serve, "envsubst": envsubst, "tlsserve": tlsServe, "jsonlines": jsonLines},
		Setup: func(env *testscript.Env) error {
			// Handlers inherit the environment; keep the user's own config
			// and log out of the tests.
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/.config")
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/.state")
			env.Setenv("XDG_CACHE_HOME", env.WorkDir+"/.cache")
			env.Setenv("HOOKSHIM_LOG", "")
			env.Setenv("HOOKSHIM_CONFIG", "")
			env.Setenv("XDG_RUNTIME_DIR", env.WorkDir+"/.run")
			// A home of each script's own (testscript's /no-home is one
			// folder for every run on the machine, which root may create).
			env.Setenv("HOME", env.WorkDir+"/.home")
			// Each script is a repository of its own unless it makes one
			// inside: install, doctor and the branch policies look for
			// .git upwards, and must not find one above the work folder
			// (a stray /tmp/.git made every script's project /tmp). An
			// empty .git file names no branch, as no repository does.
			if _, err := os.Lstat(env.WorkDir + "/.git"); errors.Is(err, fs.ErrNotExist) {
				if err := os.WriteFile(env.WorkDir+"/.git", nil, 0o644); err != nil {
					return err
				}
			}
			// Most scripts are about the protocol, not trust: they run the
			// project config without `hookshim allow`. trust_*.txtar unset
			// this and test the gate itself.
			env.Setenv("HOOKSHIM_TRUST_ALL", "1")
			return nil
		},
	})
}

// jsonLines is the script command "jsonlines FILE [N]": every line of FILE
// is one whole decision log record (a JSON object with an id), and there
// are N of them when N is given. A record torn or interleaved by another
// writer fails it.
func jsonLines(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: jsonlines FILE [N]")
	}
	data := ts.ReadFile(args[0])
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	if !strings.HasSuffix(data, "\n") {
		ts.Fatalf("%s does not end in a newline", args[0])
	}
	for i, l := range lines {
		var rec struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.ID == "" {
			ts.Fatalf("%s:%d is not one record (%v): %.200s", args[0], i+1, err, l)
		}
	}
	if len(args) == 2 {
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		if len(lines) != n {
			ts.Fatalf("%s has %d records, want %d", args[0], len(lines), n)
		}
	}
}

// fakeHandler is a handler whose behaviour the script chooses. It reads
// the envelope first, like a real handler, then runs its steps in order:
//
//	record FILE       append the envelope to FILE
//	stdout TEXT       print TEXT
//	stderr TEXT       print TEXT on stderr
//	sleep DURATION    sleep
//	spawn DURATION    start a child that sleeps that long and holds stdout open
//	env NAME          print the variable's value on stderr
//	exit CODE         exit with CODE
//	big N             print N bytes of x
func fakeHandler(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	envelope, _ := io.ReadAll(stdin)
	for i := 0; i < len(args); i++ {
		op := args[i]
		arg := ""
		if i+1 < len(args) {
			arg = args[i+1]
		}
		i++
		switch op {
		case "record":
			f, err := os.OpenFile(arg, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			f.Write(append(envelope, '\n'))
			f.Close()
		case "stdout":
			fmt.Fprint(stdout, arg)
		case "stderr":
			fmt.Fprint(stderr, arg)
		case "sleep":
			d, _ := time.ParseDuration(arg)
			time.Sleep(d)
		case "spawn":
			cmd := exec.Command("sleep", strings.TrimSuffix(arg, "s"))
			cmd.Stdout = os.Stdout
			cmd.Start()
		case "env":
			fmt.Fprintf(stderr, "%s=%s\n", arg, os.Getenv(arg))
		case "exit":
			code, _ := strconv.Atoi(arg)
			return code
		case "big":
			n, _ := strconv.Atoi(arg)
			stdout.Write([]byte(strings.Repeat("x", n)))
		default:
			fmt.Fprintf(stderr, "fakehandler: unknown step %q\n", op)
			return 1
		}
	}
	return 0
}
