//go:build !unix

package run

import "os/exec"

var shell = []string{"cmd", "/C"}

func setGroup(cmd *exec.Cmd) {}

func detach(cmd *exec.Cmd) {}
