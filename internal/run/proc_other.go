//go:build !unix

package run

import "os/exec"

var shell = []string{"cmd", "/C"}

func setGroup(cmd *exec.Cmd) {}

func detach(cmd *exec.Cmd) {}

// killGroup does nothing where handlers have no group of their own.
func killGroup(cmd *exec.Cmd) {}
