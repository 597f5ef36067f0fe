// Command hookshim is the one hook binary every AI coding tool runs.
package main

import (
	"os"

	"github.com/hookshim/hookshim/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)) }
