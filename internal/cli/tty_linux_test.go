package cli

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// openPTY opens a pseudo-terminal: its controlling side and the terminal a
// program would have for stderr.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	var unlock int32
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("unlockpt: %v", e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("ptsname: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return m, s
}

func TestIsTerminal(t *testing.T) {
	_, tty := openPTY(t)
	require.True(t, isTerminal(tty))
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	require.False(t, isTerminal(null))
}

// Someone running hookshim run by hand, with no config anywhere, is told
// once why nothing happened; a tool (stderr not a terminal) is not.
func TestNoConfigNotice(t *testing.T) {
	master, tty := openPTY(t)
	searched := "no config found (searched: /home/u/.config/hookshim/openhook.json, .openhook.json in /p and every folder above it)"
	require.True(t, noConfigNotice(tty, searched))
	buf := make([]byte, 4096)
	n, err := master.Read(buf)
	require.NoError(t, err)
	got := string(buf[:n])
	require.Contains(t, got, "hookshim: warning: no config found (searched: /home/u/.config/hookshim/openhook.json, .openhook.json in /p and every folder above it): hookshim allows every call")

	var pipe bytes.Buffer
	require.False(t, noConfigNotice(&pipe, searched))
	require.Empty(t, pipe.String())
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer null.Close()
	require.False(t, noConfigNotice(null, searched))
}
