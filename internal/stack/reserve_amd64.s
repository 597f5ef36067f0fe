#include "textflag.h"

// func Reserve()
// A 24 KiB frame and no body: the prologue's stack check does the work.
TEXT ·Reserve(SB), 0, $24576-0
	RET
