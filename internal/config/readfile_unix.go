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
func ReadFile(path string) ([]byte, error) { return ReadFileMax(path, -1) }

// ReadFileMax is ReadFile for a file that may be hostile: one larger than
// max bytes (by its size, checked before reading, or by what a growing
// file yields) is refused with a *TooLargeError, having read at most
// max+1 bytes. max < 0: no limit.
func ReadFileMax(path string, max int64) ([]byte, error) {
	var fd int
	var err error
	flags := syscall.O_RDONLY | syscall.O_CLOEXEC
	if max >= 0 {
		flags |= syscall.O_NONBLOCK // a FIFO put in a file's place must not block the open
	}
	for {
		fd, err = syscall.Open(path, flags, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	size := int64(1024)
	if max >= 0 {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
		}
		if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			// A FIFO or a device would block or never end.
			return nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EINVAL}
		}
		if st.Size > max {
			return nil, &TooLargeError{Path: path, Size: st.Size, Max: max}
		}
		size = st.Size + 1 // +1: the read that says end of file
	}
	buf := make([]byte, 0, size)
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
		if max >= 0 && int64(len(buf)) > max {
			return nil, &TooLargeError{Path: path, Size: int64(len(buf)), Max: max}
		}
	}
}
