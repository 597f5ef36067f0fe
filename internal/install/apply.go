package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookshim/hookshim/internal/private"
	"github.com/hookshim/hookshim/internal/provider"
)

// BackupDir is where previous versions of the files install changes are
// kept: $XDG_STATE_HOME/hookshim/backups (~/.local/state/...). Not next to
// the file, where a tool that reads every file of its folder (Copilot's
// .github/hooks/*.json, Cline's hooks folder) would load the copy too.
func (env Env) BackupDir() string {
	if env.Getenv != nil {
		if d := env.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "hookshim", "backups")
		}
	}
	if env.Home == "" {
		return ""
	}
	return filepath.Join(env.Home, ".local", "state", "hookshim", "backups")
}

// Apply makes a change. It returns the backup of the previous version
// ("" when there was none).
//
// It holds the file's lock from reading to writing, so that two hookshims
// at once do not lose each other's entries: when the file is no longer
// what the change was planned from, the change is planned again on what
// it holds now. A file reached through a symbolic link (a dotfiles
// repository) is replaced where the link points, and the link stays.
func Apply(env Env, c Change) (string, error) {
	if !c.Changed() {
		return "", nil
	}
	target, err := private.LinkTarget(c.Path)
	if err != nil {
		return "", err
	}
	real := realPath(c.Path)
	unlock, err := env.lock(real)
	if err != nil {
		return "", fmt.Errorf("cannot lock %s against another hookshim: %v", env.Display(c.Path), err)
	}
	defer unlock()
	now, exists, err := readFile(target)
	if err != nil {
		return "", err
	}
	if exists != c.OldExists || now != string(c.Old) {
		if c, err = replan(env, c); err != nil {
			return "", err
		}
		if !c.Changed() {
			return "", nil
		}
	}
	if c.OldExists {
		if err := checkWritable(target, env.Display(c.Path)); err != nil {
			return "", err
		}
	}
	backup := ""
	if c.OldExists {
		if backup, err = env.backup(target, c.Old); err != nil {
			return "", fmt.Errorf("cannot keep a backup of %s, so it is left as it was: %v", c.Path, err)
		}
	}
	edited := c.Target.Format != nil && c.Target.Format.Layout != provider.LayoutScriptPerEvent && c.Target.Format.Layout != provider.LayoutGenerated
	if !c.NewExists {
		// The path itself goes: a link, not the file it points to.
		if err := os.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return backup, err
		}
		if edited {
			env.dropRecord(real)
		}
		env.removeMadeDirs(filepath.Dir(c.Path))
		return backup, nil
	}
	made, err := mkdirs(filepath.Dir(target))
	if err != nil {
		return backup, err
	}
	if err := env.markDirs(made); err != nil {
		return backup, err
	}
	// The file there keeps its mode; c.Mode is a new file's.
	if err := private.WriteThrough(target, c.New, c.Mode); err != nil {
		return backup, err
	}
	if edited {
		if err := env.noteWrite(c, real, c.Old, c.OldExists); err != nil {
			return backup, fmt.Errorf("%s is written, but hookshim could not record what it added (uninstall will keep the hooks key and folders): %v", env.Display(c.Path), err)
		}
	}
	return backup, nil
}

// replan plans c again on the file as it is now.
func replan(env Env, c Change) (Change, error) {
	changes, _, err := Plan(env, c.Provider, c.Target, c.Events)
	if err != nil {
		return c, err
	}
	for _, n := range changes {
		if n.Path == c.Path {
			return n, nil
		}
	}
	// Nothing to do there any more.
	c.Old, c.OldExists = c.New, c.NewExists
	return c, nil
}

// keepBackups is how many backups of one config file are kept: the
// oldest go when a new one is made.
const keepBackups = 10

// backupStamp is the time part of a backup's name; a second backup of the
// same file within a second adds ".N" to it.
const backupStamp = "20060102T150405Z"

// backup keeps data, the previous content of path, as
// STAMP[.N]-PATH in BackupDir (PATH with its separators as %), unless the
// last backup of path holds it already, and removes the file's backups
// past the keepBackups newest.
func (env Env) backup(path string, data []byte) (string, error) {
	dir := env.BackupDir()
	if dir == "" {
		return "", errors.New("no home folder to keep backups in")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	now := time.Now
	if env.Now != nil {
		now = env.Now
	}
	abs, _ := filepath.Abs(path)
	file := strings.NewReplacer(string(filepath.Separator), "%", ":", "%").Replace(strings.TrimPrefix(abs, string(filepath.Separator)))
	stamp := now().UTC().Format(backupStamp)
	backups := listBackups(dir, file)
	dest := filepath.Join(dir, stamp+"-"+file)
	if len(backups) > 0 {
		last := backups[len(backups)-1]
		if prev, err := os.ReadFile(filepath.Join(dir, last.name)); err == nil && bytes.Equal(prev, data) {
			return filepath.Join(dir, last.name), nil
		}
		if last.stamp >= stamp {
			// Two changes to one file within a second keep both
			// versions, numbered past the last (not into a slot the
			// pruning freed, which would sort first).
			dest = filepath.Join(dir, fmt.Sprintf("%s.%d-%s", last.stamp, last.n+1, file))
		}
	}
	// On disk before the file it keeps is replaced: a crash in between
	// must not take both versions.
	if err := private.WriteFile(dest, data, 0o600); err != nil {
		return dest, err
	}
	backups = append(backups, backupName{name: filepath.Base(dest)})
	if len(backups) > keepBackups {
		for _, b := range backups[:len(backups)-keepBackups] {
			os.Remove(filepath.Join(dir, b.name))
		}
	}
	return dest, nil
}

// backupName is one backup of a file: its name, and the time and number
// in it.
type backupName struct {
	name  string
	stamp string
	n     int
}

// listBackups lists the backups of file (its name in BackupDir), oldest
// first. Other files' backups, and files whose names are not a backup's,
// are not among them.
func listBackups(dir, file string) []backupName {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var backups []backupName
	for _, e := range entries {
		stamp, rest, ok := strings.Cut(e.Name(), "-")
		if !ok || rest != file || !e.Type().IsRegular() {
			continue
		}
		stamp, num, _ := strings.Cut(stamp, ".")
		n := 0
		if num != "" {
			if n, err = strconv.Atoi(num); err != nil {
				continue
			}
		}
		if _, err := time.Parse(backupStamp, stamp); err != nil {
			continue
		}
		backups = append(backups, backupName{e.Name(), stamp, n})
	}
	slices.SortFunc(backups, func(a, b backupName) int {
		if c := strings.Compare(a.stamp, b.stamp); c != 0 {
			return c
		}
		return a.n - b.n
	})
	return backups
}
