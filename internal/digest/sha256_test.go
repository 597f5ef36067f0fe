package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var _ hash.Hash = (*Digest)(nil)

func TestKnownVectors(t *testing.T) {
	// FIPS 180-4 examples and the empty string.
	for in, want := range map[string]string{
		"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	} {
		sum := Sum256([]byte(in))
		assert.Equal(t, want, hex.EncodeToString(sum[:]), "%q", in)
	}
}

// TestMatchesStandardLibrary checks every length across the padding edges
// (55, 56, 63, 64 bytes and their multiples), in one write and in pieces.
func TestMatchesStandardLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1100)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	for n := 0; n <= len(buf); n++ {
		in := buf[:n]
		want := sha256.Sum256(in)
		require.Equal(t, want, Sum256(in), "length %d", n)

		d := New()
		for rest := in; len(rest) > 0; {
			c := r.IntN(len(rest) + 1)
			d.Write(rest[:c])
			rest = rest[c:]
		}
		require.Equal(t, want[:], d.Sum(nil), "length %d in pieces", n)
	}
}

func TestSumLeavesTheHashRunning(t *testing.T) {
	d := New()
	d.Write([]byte("hello, "))
	first := d.Sum([]byte("prefix"))
	assert.Equal(t, "prefix", string(first[:6]))
	d.Write([]byte("world"))
	want := sha256.Sum256([]byte("hello, world"))
	assert.Equal(t, want[:], d.Sum(nil))

	d.Reset()
	empty := sha256.Sum256(nil)
	assert.Equal(t, empty[:], d.Sum(nil))
	assert.Equal(t, 32, d.Size())
	assert.Equal(t, 64, d.BlockSize())
}

func FuzzMatchesStandardLibrary(f *testing.F) {
	f.Add([]byte("abc"), uint8(1))
	f.Add(make([]byte, 64), uint8(63))
	f.Fuzz(func(t *testing.T, in []byte, cut uint8) {
		want := sha256.Sum256(in)
		c := min(int(cut), len(in))
		d := New()
		d.Write(in[:c])
		d.Write(in[c:])
		if got := d.Sum(nil); string(got) != string(want[:]) {
			t.Fatalf("sum of %x (cut at %d) = %x, want %x", in, c, got, want)
		}
	})
}

func BenchmarkSum256(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"1KiB", 1 << 10}, {"1MiB", 1 << 20}} {
		in := make([]byte, size.n)
		b.Run(size.name, func(b *testing.B) {
			b.SetBytes(int64(size.n))
			for b.Loop() {
				Sum256(in)
			}
		})
	}
}
