package cli

import (
	"github.com/hookshim/hookshim/internal/journal"
	"github.com/hookshim/hookshim/internal/pipeline"
	"github.com/hookshim/hookshim/internal/respond"
)

// logCall appends the call's record to the decision log (package
// journal): the default log under the state folder, another file with
// --log or HOOKSHIM_LOG, none with HOOKSHIM_LOG=off. Its error is for one
// warning line: the answer is already written.
func logCall(flag string, getenv func(string) string, rec *pipeline.Record, ans respond.Answer) error {
	path, private := journal.Where(flag, getenv)
	if path == "" && !private {
		return nil // off
	}
	e := rec.Entry(ans)
	line := journal.Encode(&e, rec.Redact)
	return journal.Append(path, line, journal.MaxSize(getenv("HOOKSHIM_LOG_MAX")), private)
}
