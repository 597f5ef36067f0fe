package hookshim_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// executableKind names the executable image that head, the first bytes of
// a file, starts, or is "". Programs are built from the sources (make
// build, make release): one committed by mistake is a binary nobody can
// review, that everyone who clones the repository downloads forever.
func executableKind(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "ELF"
	case bytes.HasPrefix(head, []byte("\x00asm")):
		return "WebAssembly"
	case len(head) >= 4:
		// Mach-O, either byte order (the magic is read as written by the
		// target): 32 and 64 bit, and the universal ("fat") wrapper of
		// several, 32 and 64 bit. 0xcafebabe is also a Java class file's
		// magic, a compiled program all the same.
		switch binary.BigEndian.Uint32(head) {
		case 0xfeedface, 0xcefaedfe, 0xfeedfacf, 0xcffaedfe:
			return "Mach-O"
		case 0xcafebabe, 0xbebafeca, 0xcafebabf, 0xbfbafeca:
			return "Mach-O universal"
		}
	}
	// PE: a DOS header ("MZ") whose e_lfanew, at 0x3c, points at the
	// "PE\0\0" signature. A text that happens to start with "MZ" is not one.
	if len(head) >= 0x40 && bytes.HasPrefix(head, []byte("MZ")) {
		off := binary.LittleEndian.Uint32(head[0x3c:])
		if uint64(off)+4 <= uint64(len(head)) && bytes.Equal(head[off:off+4], []byte("PE\x00\x00")) {
			return "PE"
		}
	}
	return ""
}

// headSize is how much of a file executableKind is shown: a PE signature
// follows the DOS stub, a few hundred bytes in (0x80 to 0x100 for Go's
// and MSVC's linkers).
const headSize = 4096

func TestExecutableKind(t *testing.T) {
	pe := make([]byte, 0x100)
	copy(pe, "MZ")
	binary.LittleEndian.PutUint32(pe[0x3c:], 0x80)
	copy(pe[0x80:], "PE\x00\x00")
	peOut := bytes.Clone(pe)
	binary.LittleEndian.PutUint32(peOut[0x3c:], 0xfffffff0) // points past the end

	for _, c := range []struct {
		name, head, want string
	}{
		{"elf", "\x7fELF\x02\x01\x01", "ELF"},
		{"wasm", "\x00asm\x01\x00\x00\x00", "WebAssembly"},
		{"macho-32-be", "\xfe\xed\xfa\xce\x00", "Mach-O"},
		{"macho-32-le", "\xce\xfa\xed\xfe\x07", "Mach-O"},
		{"macho-64-be", "\xfe\xed\xfa\xcf\x00", "Mach-O"},
		{"macho-64-le", "\xcf\xfa\xed\xfe\x07", "Mach-O"},
		{"fat", "\xca\xfe\xba\xbe\x00\x00\x00\x02", "Mach-O universal"},
		{"fat-le", "\xbe\xba\xfe\xca\x02", "Mach-O universal"},
		{"fat64", "\xca\xfe\xba\xbf\x00", "Mach-O universal"},
		{"fat64-le", "\xbf\xba\xfe\xca\x02", "Mach-O universal"},
		{"pe", string(pe), "PE"},
		{"mz-no-pe", string(pe[:0x80]), ""},
		{"mz-pointer-out", string(peOut), ""},
		{"mz-text", "MZ is how a DOS program starts; this line is text\n" + strings.Repeat("x", 64), ""},
		{"script", "#!/bin/sh\necho hi\n", ""},
		{"json", `{"spec": "hooks/0.1"}`, ""},
		{"empty", "", ""},
		{"short", "\x7fEL", ""},
	} {
		assert.Equal(t, c.want, executableKind([]byte(c.head)), c.name)
	}
}

// TestNoExecutableTracked: the repository holds sources, never a built
// program (.gitignore keeps the usual outputs out; this catches the rest,
// e.g. a binary built at the root under another name and added with -A).
func TestNoExecutableTracked(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if _, err := os.Stat(".git"); err != nil {
		t.Skip("not a git checkout")
	}
	out, err := exec.Command("git", "ls-files", "-z").Output()
	require.NoError(t, err)
	files := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	require.NotEmpty(t, files)
	head := make([]byte, headSize)
	for _, name := range files {
		fi, err := os.Lstat(name)
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in the index
		}
		require.NoError(t, err)
		if !fi.Mode().IsRegular() {
			continue // a symbolic link or a submodule: its target is checked where it lives
		}
		f, err := os.Open(name)
		require.NoError(t, err)
		n, err := io.ReadFull(f, head)
		f.Close()
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			require.NoError(t, err, name)
		}
		if kind := executableKind(head[:n]); kind != "" {
			t.Errorf("%s is a tracked %s executable: remove it (git rm --cached %s); programs are built from the sources", name, kind, name)
		}
	}
}
