//go:build unix

package config

import (
	"io/fs"
	"syscall"
)

// ReadFile reads a whole small file, as os.ReadFile does, for the files
// every hook call reads (configs, trust records). os.Open hands each file
// to the runtime's network poller, whose set-up (an epoll instance, an
// eventfd, the attempt to register a regular file) a process that only
// reads two small files pays for nothing; here the descriptor is read
// directly.
func ReadFile(path string) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, 1024)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
