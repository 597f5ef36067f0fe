// Package buildinfo is what `hookshim version` and `hookshim-remote
// version` report: the version, commit and date stamped at link time by
// make build and make release, else what the Go toolchain stamps into every
// binary. It is one package so that both programs read it the same way.
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Set at link time (-X github.com/hookshim/hookshim/internal/buildinfo.Version=v1.2.3,
// and .Commit, .Date, as make build and make release do); otherwise they
// come from the module's build info (go install …/cmd/hookshim@v1.2.3) or
// the vcs.* settings of a build inside a git work tree.
var (
	Version = ""
	Commit  = ""
	Date    = ""
)

// Build is what a version command reports.
type Build struct {
	Version  string // v1.2.3, a pseudo-version, or "devel"
	Commit   string // VCS revision, "" when unknown
	Modified bool   // built from a work tree with uncommitted changes
	Time     string // commit time, RFC 3339, "" when unknown
	GoVer    string // the Go release that built it
}

// Short is the version alone, cheaply: a version set at link time wins
// without reading the build info, which costs a hook call (whose envelope
// names the version) more than building the envelope.
func Short() string {
	if Version != "" {
		return Version
	}
	return Get().Version
}

// Get reads the build of the running binary.
func Get() Build {
	bi, ok := debug.ReadBuildInfo()
	return Read(bi, ok, Version, Commit, Date)
}

// Read reads the build info the Go toolchain stamps into every binary:
// vcs.* settings when built inside a git work tree (go build, make build),
// the module version when installed with go install …@version (then there
// are no vcs.* settings, but a pseudo-version ends in the commit). What was
// set at link time overrides each.
func Read(bi *debug.BuildInfo, ok bool, version, commit, date string) Build {
	b := Build{Version: version, GoVer: runtime.Version()}
	if ok && bi != nil {
		if bi.GoVersion != "" {
			b.GoVer = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			case "vcs.time":
				b.Time = s.Value
			}
		}
		mv := bi.Main.Version
		if mv == "(devel)" {
			mv = ""
		}
		if b.Commit == "" {
			b.Commit = PseudoCommit(mv)
		}
		if b.Version == "" {
			b.Version = mv
		}
	}
	if commit != "" {
		// A release build stamps its commit: the archive was built from
		// it, clean (make release refuses nothing, but -trimpath builds
		// outside a work tree carry no vcs settings).
		b.Commit, b.Modified = commit, false
	}
	if date != "" {
		b.Time = date
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	return b
}

// PseudoCommit is the commit a pseudo-version names
// (v0.0.0-20261124081502-0123456789ab): its last part, 12 hex digits.
func PseudoCommit(v string) string {
	v, _, _ = strings.Cut(v, "+")
	i := strings.LastIndexByte(v, '-')
	if i < 0 || len(v)-i-1 != 12 {
		return ""
	}
	for _, c := range v[i+1:] {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return ""
		}
	}
	return v[i+1:]
}

// Text is the report of a version command, for the program named.
func (b Build) Text(program string) string {
	var s strings.Builder
	s.WriteString(program + " " + b.Version + "\n")
	commit := b.Commit
	if commit == "" {
		commit = "unknown"
	}
	if b.Modified {
		commit += " (modified)"
	}
	s.WriteString("  commit: " + commit + "\n")
	if b.Time != "" {
		s.WriteString("  date:   " + b.Time + "\n")
	}
	s.WriteString("  go:     " + b.GoVer + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n")
	return s.String()
}
