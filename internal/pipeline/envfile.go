package pipeline

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/hookshim/hookshim/internal/dialect"
	"github.com/hookshim/hookshim/internal/run"
)

// applyExports hands on the session variables dialect handlers set, where
// the calling tool takes them: the lines they wrote into their env files
// (CLAUDE_ENV_FILE) appended, as written, to the env file the caller gave
// hookshim for this event, or read into the env object of the caller's
// answer (Cursor's sessionStart); a Cursor hook's env object written as
// export lines into the caller's env file. Where the caller takes
// neither, each handler's variables are lost, and the call says so: a
// later command of the session runs without them.
func (c *call) applyExports(results []run.Result) {
	var target, name string
	d := c.pr.Dialect
	if d != nil && d.EnvFile != "" && slices.Contains(d.EnvFileEvents, c.ev.Native) {
		name, target = d.EnvFile, c.getenv(d.EnvFile)
	}
	answers := d != nil && slices.Contains(d.EnvAnswerEvents, c.ev.Native)
	for i := range results {
		r := &results[i]
		// where is named only for a handler that exported something:
		// naming it looks the handler's dialect up, and a failed lookup
		// builds its message, which a call of one handler paid for
		// nothing (seven page faults).
		exports, where := r.Exports, ""
		if r.Output.Env != nil && !answers {
			where = "its env answer"
			// A hook that answers its variables (Cursor's env), under
			// a tool that takes them only in its env file.
			exports = append(slices.Clip(exports), dialect.ExportsOfEnv(r.Output.Env)...)
			r.Output.Env = nil
		}
		if exports == nil {
			continue
		}
		if where == "" {
			where = envFileVar(r)
		}
		// For notes: the file itself is handed on as written.
		what := "its exports"
		if names := dialect.ExportNames(exports); len(names) > 0 {
			what = "the exports of " + strings.Join(names, ", ")
		}
		switch {
		case target == "" && answers:
			env, skipped, err := dialect.EnvOfExports(exports, os.Environ())
			if err != nil {
				c.problem(fmt.Sprintf("%s's exports not handed on to %s: %s could not be read: %v", r.Hook.Name, c.pr.Name, envFileVar(r), err))
				continue
			}
			if len(skipped) > 0 {
				c.note(fmt.Sprintf("dialect %s: %s of %s not handed on to %s: %s", r.Hook.Dialect, envFileVar(r), r.Hook.Name, c.pr.Name, strings.Join(skipped, ", ")))
			}
			if env == nil {
				continue
			}
			if r.Output.Env == nil {
				r.Output.Env = env
			}
			c.note(fmt.Sprintf("dialect %s: %s of %s handed on to %s as %s's env", r.Hook.Dialect, what, r.Hook.Name, c.pr.Name, c.ev.Native))
		case target == "":
			c.note(fmt.Sprintf("dialect %s: %s wrote %s into %s, which %s does not take on %s: later commands of the session run without them",
				r.Hook.Dialect, r.Hook.Name, what, where, c.pr.Name, c.ev.Native))
		default:
			if err := appendFile(target, exports); err != nil {
				c.problem(fmt.Sprintf("%s's exports not handed on to %s's %s: %v", r.Hook.Name, c.pr.Name, name, err))
				continue
			}
			c.note(fmt.Sprintf("dialect %s: %s of %s handed on to %s's %s", r.Hook.Dialect, what, r.Hook.Name, c.pr.Name, name))
		}
	}
}

// envFileVar names the variable a handler's env file was given under.
func envFileVar(r *run.Result) string {
	if r.Hook.Dialect == "" {
		return "its env file"
	}
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
