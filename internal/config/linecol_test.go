package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// lineColFromTop is the plain count from the top of the document.
func lineColFromTop(data []byte, offset int) (int, int) {
	if offset > len(data) {
		offset = len(data)
	}
	line, col := 1, 1
	for _, c := range string(data[:offset]) {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// Counting on from the last position gives what counting from the top
// gives, in any order of questions, over multi-byte and invalid UTF-8.
func TestLineColCountsOn(t *testing.T) {
	data := []byte("{\n  \"é\": \"日本\",\n\t\"x\": \"\xff\xfe\",\r\n  \"y\": [1,\n2]}\n")
	p := &parser{data: data}
	offsets := []int{0, 1, 3, 5, 9, 12, 14, 15, 20, 22, 25, 30, 31, len(data) - 1, len(data), len(data) + 5, 4, 2, 13, 40, 6}
	for _, off := range offsets {
		l, c := p.lineCol(off)
		wl, wc := lineColFromTop(data, off)
		require.Equal(t, [2]int{wl, wc}, [2]int{l, c}, "offset %d", off)
	}
	for off := 0; off <= len(data); off++ {
		l, c := p.lineCol(off)
		wl, wc := lineColFromTop(data, off)
		require.Equal(t, [2]int{wl, wc}, [2]int{l, c}, "offset %d", off)
	}
}
