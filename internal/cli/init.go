package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/install"
)

// cmdInit writes a starter .openhook.json at the project root, never
// over one that exists, and says what to do next.
func cmdInit(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	flags := newFlags("init")
	dir := flags.String("dir", "", "")
	if !parseFlags(flags, args, stderr) {
		return 2
	}
	if flags.NArg() > 0 {
		errorf(stderr, "init takes no arguments")
		return 2
	}
	env, err := installEnv(getenv, *dir)
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	var tools []string
	for _, p := range install.Found(env) {
		tools = append(tools, p.ID)
	}
	path := filepath.Join(env.Project, config.FileName)
	// O_EXCL: a config that exists, or appears meanwhile, is never
	// written over.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		errorf(stderr, "%s exists: init writes a new config only", path)
		hintf(stderr, "edit it (docs/config.md), or check it with: hookshim doctor")
		return 1
	}
	if err != nil {
		errorf(stderr, "%v", err)
		return 1
	}
	_, err = f.Write(config.Starter(tools))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		errorf(stderr, "writing %s: %v", path, err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%d built-in policies)\n", path, config.StarterPolicies)
	hintf(stderr, "next: review it, then run hookshim allow: a project's config runs only once allowed")
	if len(tools) > 0 {
		hintf(stderr, "then: hookshim install --all registers hookshim in the tools found here (%d)", len(tools))
	} else {
		hintf(stderr, "then: hookshim install --provider ID registers hookshim in a tool (hookshim providers lists them)")
	}
	return 0
}
