// Command hookshim-remote sends hookshim's http and prompt handlers; hookshim
// starts it, next to itself or from PATH, for each one that runs.
package main

import (
	"os"

	"github.com/hookshim/hookshim/internal/remote"
)

func main() { os.Exit(remote.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)) }
