package pipeline

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/run"
)

// exported finds the names of an env file's `export NAME=…` lines, for
// notes: the file itself is handed on as written. Compiled on first use
// (a sync.Once: sync.OnceValue's closure would be allocated at every
// start), since most calls write no env file.
var (
	exportedOnce sync.Once
	exportedRe   *regexp.Regexp
)

func exported() *regexp.Regexp {
	exportedOnce.Do(func() {
		exportedRe = regexp.MustCompile(`(?m)^[ \t]*export[ \t]+([A-Za-z_][A-Za-z0-9_]*)=`)
	})
	return exportedRe
}

// applyExports hands on what dialect handlers wrote into their env files
// (CLAUDE_ENV_FILE) where the calling tool takes such exports: appended,
// as written, to the env file the caller gave hookshim for this event.
// Where the caller has none, each handler's exports are lost, and the call
// says so: a later command of the session runs without them.
func (c *call) applyExports(results []run.Result) {
	var target, name string
	if d := c.pr.Dialect; d != nil && d.EnvFile != "" && slices.Contains(d.EnvFileEvents, c.ev.Native) {
		name, target = d.EnvFile, c.getenv(d.EnvFile)
	}
	for _, r := range results {
		if r.Exports == nil {
			continue
		}
		var names []string
		for _, m := range exported().FindAllSubmatch(r.Exports, -1) {
			names = append(names, string(m[1]))
		}
		what := "its exports"
		if len(names) > 0 {
			what = "the exports of " + strings.Join(names, ", ")
		}
		if target == "" {
			c.note(fmt.Sprintf("dialect %s: %s wrote %s into %s, which %s does not take on %s: later commands of the session run without them",
				r.Hook.Dialect, r.Hook.Name, what, envFileVar(r), c.pr.Name, c.ev.Native))
			continue
		}
		if err := appendFile(target, r.Exports); err != nil {
			c.problem(fmt.Sprintf("%s's exports not handed on to %s's %s: %v", r.Hook.Name, c.pr.Name, name, err))
			continue
		}
		c.note(fmt.Sprintf("dialect %s: %s of %s handed on to %s's %s", r.Hook.Dialect, what, r.Hook.Name, c.pr.Name, name))
	}
}

// envFileVar names the variable a handler's env file was given under.
func envFileVar(r run.Result) string {
	if d, err := dialect.Lookup(r.Hook.Dialect); err == nil && d.Dialect.EnvFile != "" {
		return d.Dialect.EnvFile
	}
	return "its env file"
}

// appendFile appends b, ended by a newline, to the file at path, which
// the tool created.
func appendFile(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b[:len(b):len(b)], '\n')
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
