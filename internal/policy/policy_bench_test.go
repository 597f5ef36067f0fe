package policy

import (
	"regexp"
	"testing"

	"github.com/hookshim/hookshim/internal/event"
	"github.com/hookshim/hookshim/internal/secret"
	"github.com/hookshim/hookshim/internal/shellcmd"
)

// A hook call is a fresh process: what it pays for the pack is compiling
// the policies its config names (at parse time) and evaluating those that
// match the event.

// BenchmarkCompilePack compiles every policy of the pack with parameters.
func BenchmarkCompilePack(b *testing.B) {
	with := map[string]string{
		"hookshim/destructive-shell":  `{"allow_paths": ["/var/tmp/**"]}`,
		"hookshim/protected-branches": `{"branches": ["main", "release/*"]}`,
		"hookshim/secret-files":       `{"allow": [".env.test"]}`,
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range Names() {
			if _, err := Compile(n, []byte(with[n])); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkEvalShell evaluates every tool policy on a typical shell call
// that none of them refuses (each reads the whole line).
func BenchmarkEvalShell(b *testing.B) {
	var ps []*Policy
	for _, n := range Names() {
		p, err := Compile(n, nil)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	// Two lines in turn: the line is split once per call (the policies
	// share it), as in a process that answers one call.
	evs := [2]*event.Event{}
	for i, cmd := range []string{
		`cd web && npm ci && npm run build -- --mode=production 2>&1 | tee build.log && git add -A && git commit -m "build: update assets"`,
		`cd app && npm ci && npm run build -- --mode=development 2>&1 | tee build.log && git add -A && git commit -m "build: update images"`,
	} {
		evs[i] = &event.Event{Name: event.BeforeToolExecute, Cwd: "/home/u/project", ProjectDir: "/home/u/project",
			Tool: &event.Tool{Name: event.ToolShell, Command: cmd}}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		ev := evs[n%2]
		ev.Shell = &shellcmd.Reader{} // one reading per call, as the pipeline gives it
		n++
		for _, p := range ps {
			if out := p.Eval(ev); !out.Empty() {
				b.Fatal(out.Reason)
			}
		}
	}
}

// BenchmarkEvalPrompt is prompt-secrets on a prompt of a few lines, the
// pattern already compiled.
func BenchmarkEvalPrompt(b *testing.B) {
	p, _ := Compile("hookshim/prompt-secrets", nil)
	text := "Refactor the session store so that expired sessions are removed by a background job; keep the API the same and add tests for the expiry path. The config lives in config/session.go."
	ev := &event.Event{Name: event.BeforePrompt, Prompt: &text}
	b.ReportAllocs()
	for b.Loop() {
		if out := p.Eval(ev); !out.Empty() {
			b.Fatal(out.Reason)
		}
	}
}

// BenchmarkPromptPatternCompile is what the first prompt of a process pays
// for prompt-secrets' pattern (compiled on first use, once per process).
func BenchmarkPromptPatternCompile(b *testing.B) {
	src := secret.Pattern().String()
	b.ReportAllocs()
	for b.Loop() {
		regexp.MustCompile(src)
	}
}
