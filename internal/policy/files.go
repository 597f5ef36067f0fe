package policy

import (
	"errors"
	"io"
)

// errNotRegular is the answer for a path that names a FIFO, a device, a
// socket or a folder: reading one could block the call forever (a FIFO
// named .npmrc has no writer) or never end (/dev/zero).
var errNotRegular = errors.New("not a regular file")

// readHead reads at most n bytes of a regular file. Anything else is
// never read: see openRegular.
func readHead(p string, n int64) (string, error) {
	f, err := openRegular(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, n))
	return string(b), err
}
