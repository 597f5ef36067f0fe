package provider

import "github.com/hookshim/hookshim/internal/wire"

// JSON is an answer on stdout with exit 0: one JSON document and a newline.
func JSON(o *wire.Object) Answer { return Answer{Stdout: append(o.Bytes(), '\n')} }

// JSONOrEmpty is JSON(o), or nothing at all when o has no field: several
// tools read an empty stdout as "no opinion" and some reject {}.
func JSONOrEmpty(o *wire.Object) Answer {
	if o.Len() == 0 {
		return Answer{}
	}
	return JSON(o)
}
