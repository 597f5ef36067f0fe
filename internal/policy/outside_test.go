package policy

import (
	"testing"

	"github.com/hookshim/hookshim/internal/shellcmd"
	"github.com/stretchr/testify/assert"
)

// TestChanges: the files sed -i and perl -i edit in place, and those
// chmod, chown and chgrp change, as the programs read their options.
func TestChanges(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string // nil: the command changes no file in place
	}{
		{[]string{"sed", "-i", "s/a/b/", "/etc/hosts"}, []string{"/etc/hosts"}},
		{[]string{"sed", "-i", "", "s/a/b/", "f"}, []string{"f"}}, // BSD: the suffix is a word
		{[]string{"sed", "-i.bak", "-e", "s/a/b/", "x", "y"}, []string{"x", "y"}},
		{[]string{"sed", "-Ei", "s/a/b/", "f"}, []string{"f"}},
		{[]string{"sed", "-ie", "s/a/b/", "f"}, []string{"f"}}, // e is -i's suffix: the script follows
		{[]string{"sed", "--in-place=.b", "--expression=s/a/b/", "f"}, []string{"f"}},
		{[]string{"sed", "-i", "-f", "edit.sed", "--", "-f"}, []string{"-f"}},
		{[]string{"sed", "-ne", "p", "f"}, nil},
		{[]string{"sed", "s/a/b/", "f"}, nil},
		{[]string{"perl", "-pi", "-e", "s/a/b/", "f"}, []string{"f"}},
		{[]string{"perl", "-pie", "s/a/b/", "f"}, []string{"f"}}, // e is -i's suffix: s/a/b/ is the program file
		{[]string{"perl", "-i", "-pe", "s/a/b/", "f"}, []string{"f"}},
		{[]string{"perl", "-Ilib", "-i.bak", "-ne", "print", "f"}, []string{"f"}},
		{[]string{"perl", "-e", "print", "f"}, nil},
		{[]string{"chmod", "-R", "777", "/etc"}, []string{"/etc"}},
		{[]string{"chmod", "-x", "f"}, []string{"f"}}, // the mode reads as an option
		{[]string{"chown", "root:root", "a", "b"}, []string{"a", "b"}},
		{[]string{"chgrp", "--reference=/x", "f"}, []string{"f"}},
		{[]string{"cp", "a", "b"}, nil},
	} {
		got, ok := changes(c.args[0], c.args[1:])
		if c.want == nil {
			assert.False(t, ok, "%q", c.args)
			continue
		}
		assert.True(t, ok, "%q", c.args)
		assert.Equal(t, c.want, got, "%q", c.args)
	}
}

// TestOnHost: a command run in a container, as this machine sees it: its
// paths under a bound folder are that folder's, the container's own are
// marked, and words that are not paths stay as written.
func TestOnHost(t *testing.T) {
	c := shellcmd.Command{
		Args:      []string{"rm", "-rf", "/h/usr", "./x", "/etc", "~", "main", "https://example.com/a", "of=/h/dev/sda", "*"},
		Unset:     []string{"rm", "-rf", "/h/usr", "./x", "/etc", "~", "main", "https://example.com/a", "of=/h/dev/sda", "*"},
		Dir:       "/h/src",
		Container: &shellcmd.Container{Workdir: "/h/src", Mounts: []shellcmd.Mount{{Host: "/", Target: "/h"}, {Host: "app", Target: "/h/src"}}},
		Redirects: []shellcmd.Redirect{{Op: ">", Target: "/h/etc/passwd"}},
	}
	got := onHost(c, "/home/u/project")
	assert.Equal(t, []string{"rm", "-rf", "/usr", "/home/u/project/app/x", "container:/etc", "container:~", "main",
		"https://example.com/a", "of=/h/dev/sda", "/home/u/project/app/*"}, got.Args)
	assert.Equal(t, got.Args, got.Unset)
	assert.Equal(t, "/etc/passwd", got.Redirects[0].Target)
	assert.Nil(t, got.Container)
	assert.Equal(t, "rm -rf /h/usr ./x /etc ~ main https://example.com/a of=/h/dev/sda * >/h/etc/passwd", got.Text)
	assert.Equal(t, "/h/usr", c.Args[2], "the reader's command is not changed")
}
