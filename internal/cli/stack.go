package cli

// growStack grows the goroutine's stack to 64 KiB at once, while it is
// shallow. A hook call goes deep enough (config parsing, detection, the
// log) to grow the 8 KiB it starts with three times, and each growth
// copies the stack and walks every frame on it to move its pointers:
// 97k instructions of a 1M-instruction call that matches nothing
// (callgrind). Grown here, the copy has two frames to walk. Stacks shrink
// only when the garbage collector runs, which a hook call's small heap
// never starts.
//
// The frame is declared on a branch the call never takes: its size alone
// makes the function's prologue grow the stack, while an array that were
// zeroed would touch ten fresh pages, and on a loaded machine a page
// fault costs as much as some ten thousand instructions.
//
//go:noinline
func growStack(i int) byte {
	if i <= 0 {
		return 0
	}
	var frame [40 << 10]byte // with the frames below: past 32 KiB, so 64 KiB
	frame[i%len(frame)] = 1
	return frame[i/2%len(frame)]
}
