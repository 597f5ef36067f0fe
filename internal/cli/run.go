package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/pipeline"
	"github.com/hookshim/hookshim/internal/wire"
)

// hookFlags are run's options.
type hookFlags struct {
	provider string
	event    string
	config   string
	explain  bool
	log      string
	timeout  float64 // the tool's hook timeout in seconds, when install wrote it
}

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	started := time.Now()
	growStack(0)
	var f hookFlags
	var flagErr error
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // never let flag print usage into a tool's stderr
	fs.StringVar(&f.provider, "provider", "", "")
	fs.StringVar(&f.event, "event", "", "")
	fs.StringVar(&f.config, "config", "", "")
	fs.BoolVar(&f.explain, "explain", false, "")
	fs.StringVar(&f.log, "log", "", "")
	fs.Float64Var(&f.timeout, "timeout", 0, "")
	if err := fs.Parse(args); err != nil {
		// Bad flags must not turn into a tool's "block" code: carry on with
		// what was understood and answer in the tool's dialect.
		flagErr = fmt.Errorf("bad arguments to run: %v", err)
	} else if fs.NArg() > 0 {
		flagErr = fmt.Errorf("unexpected arguments to run: %s", strings.Join(fs.Args(), " "))
	}
	opts := pipeline.Options{
		Provider: f.provider,
		Event:    f.event,
		Config:   f.config,
		Explain:  f.explain,
		Timeout:  time.Duration(f.timeout * float64(time.Second)),
		Version:  version,
		Started:  started,
	}
	raw, readErr := readPayload(stdin, pipeline.Deadline(opts))
	ans, rec := pipeline.Call(raw, readErr, getenv, opts)
	if flagErr != nil {
		rec.Problems = append([]string{flagErr.Error()}, rec.Problems...)
	}

	if len(ans.Stdout) > 0 {
		stdout.Write(ans.Stdout)
	}
	var diag bytes.Buffer
	if ans.Exit == 0 {
		// stderr is free for diagnostics only when it is not carrying a
		// block reason: on exit 0 no tool feeds it to the model (Claude
		// Code and Copilot log it, Gemini CLI shows it to the user). On
		// any other exit, every tool hookshim answers that way reads
		// stderr as the reason and gives it to the model, which must not
		// be told how to change its own guardrails ("chmod +x ..."): the
		// problems are then in --explain and the log only.
		for _, p := range rec.Warnings() {
			// A handler's or a server's words are in them: shown, not
			// acted on, where the tool puts stderr on a terminal.
			warningf(&diag, "%s", wire.Visible(wire.OneLine(p)))
		}
	}
	if f.explain {
		diag.WriteString(rec.Explain())
	} else if rec.NoConfig != "" && ans.Exit == 0 {
		noConfigNotice(stderr, rec.NoConfig)
	}
	if ans.Stderr != "" {
		stderr.Write([]byte(ans.Stderr))
	}
	if diag.Len() > 0 {
		stderr.Write(diag.Bytes())
	}
	if err := logCall(f.log, getenv, rec, ans); err != nil && ans.Exit == 0 {
		// Like the other warnings: only where stderr is not the reason
		// the model reads.
		warningf(stderr, "log not written: %s", wire.OneLine(err.Error()))
	}
	return ans.Exit
}
