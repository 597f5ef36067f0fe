package buildinfo

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRead(t *testing.T) {
	git := &debug.BuildInfo{GoVersion: "go1.25.4", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-24T08:15:02Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	require.Equal(t, Build{Version: "devel", Commit: "0123456789abcdef0123456789abcdef01234567", Modified: true, Time: "2026-11-24T08:15:02Z", GoVer: "go1.25.4"},
		Read(git, true, "", "", ""))
	// make build sets the version at link time.
	require.Equal(t, "v1.2.3-4-gabcdef", Read(git, true, "v1.2.3-4-gabcdef", "", "").Version)
	// make release sets all three: they win over the vcs settings.
	require.Equal(t, Build{Version: "v1.2.3", Commit: "fedcba", Time: "2026-11-27T10:00:00Z", GoVer: "go1.25.4"},
		Read(git, true, "v1.2.3", "fedcba", "2026-11-27T10:00:00Z"))

	// go install …@v1.2.3: the module version, no vcs settings.
	tagged := &debug.BuildInfo{GoVersion: "go1.25.4", Main: debug.Module{Version: "v1.2.3"}}
	require.Equal(t, Build{Version: "v1.2.3", GoVer: "go1.25.4"}, Read(tagged, true, "", "", ""))
	// go install …@latest on an untagged commit: a pseudo-version names it.
	pseudo := &debug.BuildInfo{GoVersion: "go1.25.4", Main: debug.Module{Version: "v0.0.0-20261124081502-0123456789ab"}}
	require.Equal(t, "0123456789ab", Read(pseudo, true, "", "", "").Commit)
	require.Equal(t, "v0.0.0-20261124081502-0123456789ab", Read(pseudo, true, "", "", "").Version)

	require.Equal(t, "devel", Read(nil, false, "", "", "").Version)
	require.Equal(t, "", PseudoCommit("v1.2.3"))
	require.Equal(t, "", PseudoCommit("v1.2.3-rc-1"))
}

func TestText(t *testing.T) {
	b := Build{Version: "v1.2.3", Commit: "abc", Modified: true, Time: "2026-11-27T10:00:00Z", GoVer: "go1.25.4"}
	require.Regexp(t, `^hookshim-remote v1\.2\.3\n  commit: abc \(modified\)\n  date:   2026-11-27T10:00:00Z\n  go:     go1\.25\.4 \S+/\S+\n$`, b.Text("hookshim-remote"))
}
