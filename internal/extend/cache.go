package extend

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookshim/hookshim/internal/config"
	"github.com/hookshim/hookshim/internal/private"
)

// Cache keeps the configs fetched from URLs, one file per pin, named by
// the SHA-256 the pin names: a copy is found by the pin alone, and checked
// against it on every read, so a copy that was damaged or replaced is
// never used, wherever the folder is and whoever can write in it.
type Cache struct {
	Dir string
}

// DefaultCache is $XDG_CACHE_HOME/hookshim/extends (default
// ~/.cache/hookshim/extends).
func DefaultCache(getenv func(string) string) (Cache, error) {
	dir := private.CacheDir(getenv)
	if dir == "" {
		return Cache{}, errors.New("neither XDG_CACHE_HOME nor HOME is set: nowhere to keep fetched configs")
	}
	return Cache{Dir: filepath.Join(dir, "extends")}, nil
}

func (c Cache) path(sum [32]byte) string {
	return filepath.Join(c.Dir, hex.EncodeToString(sum[:])+".json")
}

// Get returns the cached content that pin names. damaged is set when a
// copy is there but does not match the pin (it is then not returned).
func (c Cache) Get(pin string) (content []byte, damaged bool, err error) {
	sum, ok := config.PinSum(pin)
	if !ok {
		return nil, false, fmt.Errorf("%q is not a sha256 pin", pin)
	}
	if c.Dir == "" {
		return nil, false, nil // no cache: nothing is cached (never the current folder)
	}
	b, err := config.ReadFileMax(c.path(sum), config.MaxFileSize)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, false, nil
		}
		var big *config.TooLargeError
		if errors.As(err, &big) {
			return nil, true, nil
		}
		return nil, false, err
	}
	if sha256.Sum256(b) != sum {
		return nil, true, nil
	}
	return b, false, nil
}

// Put keeps content under its own pin, written through a temporary file
// and a rename so that a call reading it never sees half a copy.
func (c Cache) Put(content []byte) error {
	sum := sha256.Sum256(content)
	if c.Dir == "" {
		return errors.New("no cache folder: set XDG_CACHE_HOME or HOME")
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	return private.WriteFile(c.path(sum), content, 0o600)
}
