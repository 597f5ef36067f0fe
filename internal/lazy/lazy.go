// Package lazy holds values built on first use.
//
// hookshim is a new process on every hook call, and package-level work (a
// regexp.MustCompile, the closure of a sync.OnceValue, a map literal) runs
// at the start of every one of them, whatever the command. A lazy value is
// plain data until something uses it.
package lazy

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. Declare it as
// &lazy.Regexp{Expr: `…`}; an invalid Expr panics at first use, as
// regexp.MustCompile does.
type Regexp struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Get returns the compiled expression.
func (l *Regexp) Get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.Expr) })
	return l.re
}
