// Package stack sizes the main goroutine's stack once, up front.
//
// Why: a goroutine starts with a small stack and doubles it each time a
// call runs out, copying the stack and walking every frame on it to fix
// up pointers. A hook call goes from a few kilobytes to 16 KiB that way,
// twice, at its deepest points (parsing the config, indexing the
// payload). Each copy looks up unwinding tables all over the binary and
// takes fresh stack pages, and in a process that lives for milliseconds
// that is a measurable share of the call. Reserve, called while the stack
// is still shallow, makes the runtime take one 32 KiB stack straight away.
package stack
