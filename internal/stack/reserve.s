//go:build amd64 || arm64

// func Reserve()
// A 24 KiB frame and no body: the prologue's stack check does the work.
// The same text assembles on both architectures.
TEXT ·Reserve(SB), 0, $24576-0
	RET
