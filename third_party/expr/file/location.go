package file

type Location struct {
	From int `json:"from"`
	To   int `json:"to"`
}
