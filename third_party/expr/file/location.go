//go:build go1.18

package file

type Location struct {
	From int `json:"from"`
	To   int `json:"to"`
}
