package config

import (
	"bytes"

	"github.com/tailscale/hujson"
)

// standardJSONC reads a config with comments and trailing commas (JSONC,
// as the tools' own settings files are written, and as hookshim import
// keeps them) as plain JSON. Comments and commas become spaces, so every
// offset, and every line and column in messages, stays that of the file.
// Only a document that is not plain JSON comes here: a plain one costs
// nothing more on a hook call.
func standardJSONC(data []byte) ([]byte, bool) {
	// A copy: the tree hujson builds shares the input's bytes, and the
	// caller keeps the file as read (the trust check hashes it).
	v, err := hujson.Parse(bytes.Clone(data))
	if err != nil {
		return nil, false
	}
	v.Standardize()
	return v.Pack(), true
}
