//go:build !unix

package cli

import "os"

// pollable: elsewhere stdin is read by readWatched.
func pollable(*os.File) (*os.File, func()) { return nil, nil }
